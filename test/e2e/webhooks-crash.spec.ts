import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningService, startService } from '../../tools/service.js';
import { freePort } from '../support/net.js';
import { CREATE } from '../support/queries.js';
import { eventually, WebhookReceiver } from '../support/webhook-receiver.js';
import { type Gql, log, play, register } from '../support/webhook-games.js';

/**
 * Webhooks across a crash: the service as its own process, killed with SIGKILL while messages wait
 * for a receiver that refuses them, then restarted; every message is delivered, in order, once.
 */
describe('webhooks across a crash', () => {
  /** The service as its own process, on PostgreSQL (TEST_DATABASE_URL) or an embedded database in a temporary folder. */
  const url = process.env.TEST_DATABASE_URL;

  async function gqlAt(service: RunningService, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const res = await fetch(`${service.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    return res.json();
  }

  it('loses no message when the service is killed with SIGKILL while they wait: restarted, it delivers them all, in order', async () => {
    const receiver = await WebhookReceiver.start();
    const dataDir = url ? null : mkdtempSync(join(tmpdir(), 'arbiter-webhooks-'));
    const env = {
      ...(url ? { DATABASE_URL: url } : { DATA_DIR: dataDir! }),
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_MAX_MS: '200',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_TIMEOUT_SECONDS: '1',
    };
    const port = await freePort();
    let service = await startService(env, port);
    try {
      const gql: Gql = (q, v, token) => gqlAt(service, q, v, token);
      receiver.status = 503;
      const created = (await gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 } } })).data.createGame;
      const id = created.game.id as string;
      const tokens = created.tokens.map((x: { token: string }) => x.token);
      const hook = await register(gql, tokens[0], { url: receiver.url, gameId: id, events: ['YOUR_TURN', 'GAME_OVER'] });
      await play(gql, id, tokens, 8);
      const resigned = await gql(`mutation($id: ID!) { resignGame(gameId: $id, moveId: "r") { __typename } }`, { id }, tokens[0]);
      expect(resigned.data.resignGame.__typename).toBe('MoveAccepted');
      const stored = await log(gql, hook.id, tokens[0]);
      expect(stored.length).toBeGreaterThanOrEqual(3);
      expect(stored.at(-1)!.type).toBe('game.over');
      await receiver.until(() => receiver.received.length >= 2, 60_000, 'two refused attempts');

      service.process.kill('SIGKILL');
      await service.exited;
      expect(receiver.delivered()).toEqual([]);
      receiver.status = 200;
      service = await startService(env, port);

      await receiver.until(() => receiver.delivered().length === stored.length, 60_000, 'every message after the restart');
      const delivered = receiver.delivered();
      expect(delivered.map((r) => r.id)).toEqual(stored.map((e) => e.messageId));
      for (const r of delivered) expect(WebhookReceiver.verify(r, hook.secret).data.gameId).toBe(id);
      const entries = await eventually(
        () => log(gql, hook.id, tokens[0]),
        (e) => e.every((d) => d.deliveredAt !== null),
      );
      expect(entries.map((e) => e.messageId)).toEqual(stored.map((e) => e.messageId));
    } finally {
      service.process.kill('SIGTERM');
      await service.exited;
      await receiver.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
