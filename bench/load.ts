/**
 * Load benchmark: `npm run bench -- bench/load.js [--pglite] [--seconds N] [--kind backgammon]`.
 * Starts the built service as its own process, plays many games concurrently through GraphQL
 * (one request per move, each durably stored before it is answered) at 10 and 50 concurrent
 * clients, and prints moves/s with p50/p99 latency next to two ceilings measured in the same
 * run: the service's trivial-query rate ({ __typename }) and the database's raw single-row
 * insert rate (a plain `pg` loop at the same concurrency).
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { seededRandom } from '../src/engines/kit/index.js';
import { ENGINES } from '../src/games/engines.js';
import { Bot } from './lib/bot.js';
import { startService } from './lib/service.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const usePglite = args.includes('--pglite');
const seconds = Number(flag('seconds', '10'));
const kind = flag('kind', 'backgammon');
const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const RULESETS: Record<string, unknown> = { backgammon: { autoRoll: true }, 'chicken-foot': { players: 4 }, cerke: {} };
// Random bots double, drop and concede far too often: games of a few moves would measure game creation, not moves.
const AVOID: Record<string, string[]> = { backgammon: ['resign', 'double'], 'chicken-foot': ['resign'], cerke: ['resign'] };

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

async function playFor(url: string, clients: number, durationMs: number) {
  const engine = ENGINES.find((e) => e.kind === kind)!;
  const latencies: number[] = [];
  let rejected = 0;
  let games = 0;
  const until = Date.now() + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const bot = new Bot(url, engine, RULESETS[kind], seededRandom(c * 7919 + clients), `c${clients}-${c}-${Date.now()}`, AVOID[kind]);
      await bot.newGame();
      games++;
      while (Date.now() < until) {
        if (bot.finished()) {
          await bot.newGame();
          games++;
          continue;
        }
        const started = performance.now();
        const r = await bot.move();
        if (r.accepted) latencies.push(performance.now() - started);
        else rejected++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { moves: latencies.length, perSecond: latencies.length / (durationMs / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99), rejected, games };
}

async function trivialQueryRate(url: string) {
  const result = await autocannon({
    url: `${url}/graphql`,
    method: 'POST',
    connections: 50,
    duration: Math.max(3, Math.round(seconds / 2)),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  return { perSecond: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

async function rawInsertRate(connectionString: string, clients: number) {
  const pool = new pg.Pool({ connectionString, max: clients });
  await pool.query('CREATE TABLE IF NOT EXISTS bench_raw_insert (id bigserial PRIMARY KEY, game_id text, seq int, payload jsonb)');
  let rows = 0;
  const durationMs = Math.max(3000, (seconds / 2) * 1000);
  const until = Date.now() + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; Date.now() < until; i++) {
        await pool.query('INSERT INTO bench_raw_insert (game_id, seq, payload) VALUES ($1, $2, $3)', [`g${c}`, i, '{"action":{"type":"play"}}']);
        rows++;
      }
    }),
  );
  await pool.query('DROP TABLE bench_raw_insert');
  await pool.end();
  return rows / (durationMs / 1000);
}

async function main() {
  const dataDir = usePglite ? mkdtempSync(join(tmpdir(), 'arbiter-bench-')) : null;
  const env: Record<string, string> = usePglite ? { DATA_DIR: dataDir! } : { DATABASE_URL: databaseUrl };
  const service = await startService(env, 3800 + Math.floor(Math.random() * 100));
  const out = (s: string) => process.stdout.write(`${s}\n`);
  out(`Arbiter load benchmark: ${kind}, database ${usePglite ? 'embedded PGlite' : databaseUrl.replace(/\/\/.*@/, '//')}, ${seconds} s per phase, service and load generator sharing this machine`);
  try {
    await playFor(service.url, 10, 3000); // warm-up: JIT, connection pools, caches
    const rows: string[] = [];
    for (const clients of [10, 50]) {
      const r = await playFor(service.url, clients, seconds * 1000);
      rows.push(
        `moves, ${String(clients).padStart(2)} clients   ${r.perSecond.toFixed(0).padStart(7)} moves/s   p50 ${r.p50.toFixed(1)} ms   p99 ${r.p99.toFixed(1)} ms   (${r.moves} moves, ${r.games} games, ${r.rejected} rejected)`,
      );
      out(rows.at(-1)!);
    }
    const trivial = await trivialQueryRate(service.url);
    out(`ceiling: { __typename }, 50 connections   ${trivial.perSecond.toFixed(0).padStart(7)} req/s   p99 ${trivial.p99} ms`);
    let rawUrl = databaseUrl;
    let pglite: { db: PGlite; server: PGLiteSocketServer } | null = null;
    if (usePglite) {
      const db = await PGlite.create(mkdtempSync(join(tmpdir(), 'arbiter-bench-raw-')));
      const server = new PGLiteSocketServer({ db, port: 0, maxConnections: 64 });
      await server.start();
      pglite = { db, server };
      rawUrl = `postgresql://postgres@${server.getServerConn()}/postgres`;
    }
    const raw = await rawInsertRate(rawUrl, usePglite ? 8 : 50);
    out(`ceiling: raw single-row INSERT (plain pg, ${usePglite ? 8 : 50} connections)   ${raw.toFixed(0).padStart(7)} rows/s`);
    if (pglite) {
      await pglite.server.stop();
      await pglite.db.close();
    }
    const at50 = Number(rows[1].match(/(\d+) moves\/s/)![1]);
    out(`ratios at 50 clients: ${((at50 / trivial.perSecond) * 100).toFixed(0)}% of the trivial-query rate, ${((at50 / raw) * 100).toFixed(0)}% of the raw insert rate`);
  } finally {
    service.process.kill('SIGTERM');
    await service.exited;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
