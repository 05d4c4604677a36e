import { createServer, type Server, type Socket } from 'node:net';
import { isPublicAddress } from '../../src/config/addresses.js';
import { loadConfig } from '../../src/config/config.js';
import { startApp } from '../support/app.js';
import { freePort } from '../support/net.js';
import { ownStorage } from '../support/own-database.js';
import { duel, move } from '../support/duels.js';
import { eventually, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Where webhooks may go (issue 24, finding 6): `*` is any public host, never the service's own
 * network. A registrant must not be able to make the service connect to a loopback, private,
 * link-local or metadata address, nor tell from the delivery log whether a port there is open.
 */

const REGISTER = `mutation($input: RegisterWebhookInput!) { registerWebhook(input: $input) { ... on WebhookSecret { id } ... on Rejection { code } } }`;
const DELIVERIES = `query($id: ID!) { webhookDeliveries(id: $id, first: 20) { nodes { attempts lastStatus lastError deliveredAt } } }`;
const QUICK = { webhookRetryBaseMs: 20, webhookRetryMaxMs: 100, webhookPollMs: 50, webhookTimeoutSeconds: 2 };

/** A TCP port that takes connections and counts them (it never answers): a database, a cache, an admin page. */
async function trap(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((s) => {
    count++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Both loopback addresses (127.0.0.1 and ::1): whichever `localhost` resolves to is watched.
  await new Promise<void>((done) => server.listen({ port, host: '::', ipv6Only: false }, done));
  return {
    port,
    connections: () => count,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

describe('webhook destinations', () => {
  it('counts as public only addresses on the internet: loopback, private, link-local, unique-local, metadata and the like are not', () => {
    for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111']) expect([a, isPublicAddress(a)]).toEqual([a, true]);
    const internal = ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.100.100.200', '0.0.0.0', '255.255.255.255', '224.0.0.1', '192.0.2.1'];
    const internal6 = ['::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '::127.0.0.1', '64:ff9b::a00:1', '2002:a00:1::1', '2001:db8::1', 'ff02::1'];
    for (const a of [...internal, ...internal6]) expect([a, isPublicAddress(a)]).toEqual([a, false]);
  });

  it('reaches an internal address only through an entry that names it with its port: `localhost` or an internal address without one stops the start', () => {
    for (const entry of ['localhost', '127.0.0.1', '10.0.0.5', '[::1]', '169.254.169.254']) {
      expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: entry })).toThrow(/name the one port/);
    }
    expect(loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'localhost:9000, hooks.example.com, 93.184.216.34' }).webhookAllowedHosts).toHaveLength(3);
  });

  it('with WEBHOOK_ALLOWED_HOSTS=*, refuses at registration every internal address however it is written (a public host is fine)', async () => {
    const open = await trap();
    const t = await startApp({ webhookAllowedHosts: '*', ...QUICK });
    try {
      const { tokens } = await duel(t.gql);
      const code = async (url: string) => {
        const res = await t.gql(REGISTER, { input: { url, events: ['YOUR_TURN'] } }, tokens[0]);
        return res.data.registerWebhook.code ?? 'REGISTERED';
      };
      const closed = await freePort();
      for (const url of [
        `http://127.0.0.1:${open.port}/`,
        `http://127.0.0.1:${closed}/`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.1.2.3:8080/',
        `http://[::1]:${open.port}/`,
        `http://[::ffff:127.0.0.1]:${open.port}/`,
        `http://0x7f000001:${open.port}/`,
        `http://localhost:${open.port}/`,
        'http://[fd00:ec2::254]/',
        'http://100.100.100.200/',
      ]) {
        expect([url, await code(url)]).toEqual([url, 'WEBHOOK_NOT_ALLOWED']);
      }
      expect(await code('https://hooks.example.com/arbiter')).toBe('REGISTERED');
      expect(open.connections()).toBe(0);
    } finally {
      await t.close();
      await open.close();
    }
  });

  it('checks the address at every delivery: once the exact entries are gone (`*` only), an internal destination is never connected to, and open and closed ports read alike', async () => {
    const storage = await ownStorage('webhook-destinations');
    const open = await trap();
    const closed = await freePort();
    const receiver = await WebhookReceiver.start();
    try {
      // The operator names its own receivers exactly: they are reached (`localhost:port` through the resolver).
      const named = [
        { hostname: 'localhost', port: open.port },
        { hostname: '127.0.0.1', port: closed },
        { hostname: 'localhost', port: receiver.port },
      ];
      let t = await startApp({ ...storage.settings, webhookAllowedHosts: named, ...QUICK });
      const game = await duel(t.gql);
      const hook = async (url: string) => (await t.gql(REGISTER, { input: { url, gameId: game.id, events: ['YOUR_TURN'] } }, game.tokens[0])).data.registerWebhook.id as string;
      await hook(`http://localhost:${receiver.port}/hooks`);
      await move(t.gql, game.id, game.tokens);
      await receiver.until(() => receiver.delivered().length >= 1);
      const toOpen = await hook(`http://localhost:${open.port}/db`);
      const toClosed = await hook(`http://127.0.0.1:${closed}/db`);
      await t.close();

      // `*` now: the same stored URLs resolve to loopback at delivery, and are refused before connecting.
      t = await startApp({ ...storage.settings, webhookAllowedHosts: '*', ...QUICK });
      await move(t.gql, game.id, game.tokens);
      const logOf = async (id: string) => (await t.gql(DELIVERIES, { id }, game.tokens[0])).data.webhookDeliveries.nodes[0];
      const [a, b] = await eventually(
        async () => [await logOf(toOpen), await logOf(toClosed)],
        (logs) => logs.every((l) => l?.attempts >= 2),
      );
      expect(a).toMatchObject({ lastStatus: null, lastError: 'refused destination', deliveredAt: null });
      expect(b).toMatchObject({ lastStatus: null, lastError: 'refused destination', deliveredAt: null });
      expect(open.connections()).toBe(0);
      await t.close();
    } finally {
      await open.close();
      await receiver.stop();
      await storage.drop();
    }
  });
});
