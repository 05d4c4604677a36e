/**
 * Webhook starvation benchmark: `npm run bench -- bench/webhook-starvation.js [--hanging 90]
 * [--seconds 75] [--grace 30] [--timeout 10]` (issue 24, finding 7). The timeout defaults to the
 * service's former default, so that runs before and after the change compare the scheduling alone.
 *
 * Starts the built service as its own process on a fresh embedded database, with webhooks
 * allowed to two loopback receivers: one that takes every request and never answers, and the
 * victim's, which answers 200 at once. An attacker registers `--hanging` webhooks (ten per game,
 * the most a game may have, on as many backgammon games as that takes) at the hanging receiver
 * and keeps moving in its games; a victim, with a token of its own, registers one webhook for
 * its game and plays a move a second for `--seconds`. Printed: how long after the move that
 * caused it each of the victim's YOUR_TURN messages arrived (p50/p99/max), and how many had not
 * arrived `--grace` seconds after the last move (counted in the figures at that wait, a floor).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../src/engines/kit/index.js';
import { ENGINES } from '../src/games/index.js';
import { Bot, gql } from '../tools/bot.js';
import { startService } from '../tools/service.js';
import { freePort } from '../test/support/net.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const hanging = Number(flag('hanging', '90'));
const seconds = Number(flag('seconds', '75'));
const graceSeconds = Number(flag('grace', '30'));
const timeoutSeconds = flag('timeout', '10');
const PER_GAME = 10;

const out = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN);
const ms = (v: number) => `${v.toFixed(0)} ms`;

const REGISTER = `mutation($input: RegisterWebhookInput!) { registerWebhook(input: $input) { ... on WebhookSecret { id } ... on Rejection { code message } } }`;
const DELIVERIES = `query($id: ID!) { webhookDeliveries(id: $id, first: 100) { nodes { seq createdAt } } }`;

/** A receiver on a loopback port: `answer` false takes requests and never answers them. */
async function receiver(answer: boolean, onMessage: (body: { data: { gameId: string; seq: number } }) => void): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!answer) return;
      onMessage(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200).end();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((done) => server.close(() => done()));
  };
  return { server, port, close };
}

async function main(): Promise<void> {
  const arrivals = new Map<number, number>();
  let victimGame = '';
  const hang = await receiver(false, () => undefined);
  const victim = await receiver(true, (body) => {
    if (body.data.gameId === victimGame && !arrivals.has(body.data.seq)) arrivals.set(body.data.seq, Date.now());
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-webhook-bench-'));
  const service = await startService(
    {
      DATA_DIR: dataDir,
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${hang.port},127.0.0.1:${victim.port}`,
      WEBHOOK_TIMEOUT_SECONDS: timeoutSeconds,
    },
    await freePort(),
  );
  const engine = ENGINES.find((e) => e.kind === 'backgammon')!;
  const rand = seededRandom(24);
  const bot = (name: string) => new Bot(service.url, engine, { autoRoll: true }, rand, name, ['resign', 'double']);
  try {
    const attackers: Bot[] = [];
    for (let i = 0; i * PER_GAME < hanging; i++) {
      const a = bot(`attacker-${i}`);
      await a.newGame();
      for (let k = 0; k < Math.min(PER_GAME, hanging - i * PER_GAME); k++) {
        const res = await gql(service.url, REGISTER, { input: { url: `http://127.0.0.1:${hang.port}/hook/${i}/${k}`, gameId: a.gameId, events: ['YOUR_TURN', 'GAME_OVER'] } }, a.token(0));
        if (res.errors || res.data.registerWebhook.code) throw new Error(`registering failed: ${JSON.stringify(res.errors ?? res.data.registerWebhook)}`);
      }
      attackers.push(a);
    }
    const v = bot('victim');
    await v.newGame();
    victimGame = v.gameId;
    const registered = await gql(service.url, REGISTER, { input: { url: `http://127.0.0.1:${victim.port}/hook`, gameId: v.gameId, events: ['YOUR_TURN'] } }, v.token(0));
    if (registered.errors || registered.data.registerWebhook.code) throw new Error(`registering failed: ${JSON.stringify(registered.errors ?? registered.data.registerWebhook)}`);
    const hook = registered.data.registerWebhook as { id: string };
    out(`${hanging} webhooks at a receiver that never answers (${attackers.length} games of one attacker), one victim webhook; WEBHOOK_TIMEOUT_SECONDS=${timeoutSeconds}`);

    // The attacker keeps its games moving, so that its webhooks always have messages waiting.
    let playing = true;
    const attacking = (async () => {
      while (playing) {
        for (const a of attackers) if (playing && !a.finished()) await a.move();
        await sleep(2000);
      }
    })();

    const end = performance.now() + seconds * 1000;
    while (performance.now() < end && !v.finished()) {
      await v.move();
      await sleep(1000);
    }
    playing = false;
    await attacking;
    await sleep(graceSeconds * 1000);
    // The victim's messages as its delivery log lists them, each with when it was caused.
    const deliveries = (await gql(service.url, DELIVERIES, { id: hook.id }, v.token(0))).data.webhookDeliveries.nodes as { seq: number; createdAt: string }[];
    const stopped = Date.now();
    const latencies = deliveries.map((d) => (arrivals.get(d.seq) ?? stopped) - Date.parse(d.createdAt)).sort((a, b) => a - b);
    const missing = deliveries.filter((d) => !arrivals.has(d.seq)).length;
    out(`victim: ${deliveries.length} YOUR_TURN messages caused in ${seconds} s; ${missing} not arrived ${graceSeconds} s after the last move (counted at that wait)`);
    out(`victim's delivery latency after the move that caused it: p50 ${ms(percentile(latencies, 50))}   p99 ${ms(percentile(latencies, 99))}   max ${ms(latencies.at(-1) ?? Number.NaN)}`);
  } finally {
    service.process.kill('SIGTERM');
    await service.exited;
    await hang.close();
    await victim.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
