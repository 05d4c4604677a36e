/**
 * Deadline benchmark: `npm run bench -- bench/deadlines.js [--pglite] [--games 10000] [--base 60]
 * [--instances N] [--seconds 10] [--rounds 1] [--clients 10,50] [--kind backgammon] [--profile]`.
 *
 * Starts the built service as its own process (N of them on one PostgreSQL with --instances N)
 * and measures the time controls' two costs:
 *
 * 1. Deadlines: creates `--games` games with a Fischer clock of `--base` seconds (long enough for
 *    all of them to be pending at once), lets every seat to act run out of time, and reports, per
 *    game, how long after its deadline its TimedOut was stored (p50/p99/max): the event is
 *    stamped with the deadline itself, and the game row with the time it was stored.
 * 2. Moves: the load bench's move throughput (bench/load.ts: bots playing whole games, one
 *    request per move) with and without a clock on the games, phases interleaved (without,
 *    with, with, without, `--rounds` times: a drift of the machine's speed weighs on both
 *    alike), so that the deadline machinery's cost on a move (the clock in the decision, the
 *    deadline row in the move's statement) shows as the difference. On a machine shared with
 *    other work, moves/s swing with it; the CPU time a move costs swings less: the services'
 *    processes and, on PostgreSQL, the server's backends for the benchmark's database (Linux
 *    /proc; the server's shared background work, such as writing the WAL, is not counted).
 *
 * `--profile` takes a CPU profile of the service (instance 0) in the first round's first phase
 * of each kind at the largest client count, and prints the functions whose self time per move
 * grew most with the clock (the profiler slows the service: those phases' figures are slower).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { seededRandom } from '../src/engines/kit/index.js';
import { ENGINES } from '../src/games/index.js';
import { Bot, gql } from '../tools/bot.js';
import { type CpuProfile, InspectorProfiler, summarise } from './lib/profile.js';
import { serviceEntry, startService, type RunningService } from '../tools/service.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const usePglite = args.includes('--pglite');
const gameCount = Number(flag('games', '10000'));
const baseSeconds = Number(flag('base', '60'));
const instances = Number(flag('instances', '1'));
const seconds = Number(flag('seconds', '10'));
const rounds = Number(flag('rounds', '1'));
const clientCounts = flag('clients', '10,50').split(',').map(Number);
const kind = flag('kind', 'backgammon');
const profile = args.includes('--profile');
const INSPECT_PORT = 9300 + Math.floor(Math.random() * 100);
const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const RULESETS: Record<string, unknown> = { backgammon: { autoRoll: true }, 'chicken-foot': { players: 4 }, cerke: {} };
const AVOID: Record<string, string[]> = { backgammon: ['resign', 'double'], 'chicken-foot': ['resign'], cerke: ['resign'] };
/** The moves phase's clock: long enough that nobody runs out of time while the bots play. */
const MOVES_CLOCK = { kind: 'FISCHER', baseSeconds: 86_400, incrementSeconds: 10 };

if (usePglite && instances > 1) throw new Error('the embedded database is single-process: --instances > 1 needs PostgreSQL (DATABASE_URL)');
if (!Number.isInteger(gameCount) || gameCount < 1) throw new Error('--games takes a whole number >= 1');

const out = (s: string) => process.stdout.write(`${s}\n`);
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const ms = (v: number) => `${v.toFixed(0)} ms`;
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) {
  ... on GameCreated { game { id } tokens { token } } ... on Rejection { code message } } }`;
const ACTIVE = `query { games(filter: { status: ACTIVE }) { totalCount } }`;

async function createGame(url: string, input: Record<string, unknown>): Promise<{ id: string; tokens: string[] }> {
  const created = (await gql(url, CREATE, { input })).data?.createGame;
  if (!created?.game) throw new Error(`createGame failed: ${JSON.stringify(created)}`);
  return { id: created.game.id, tokens: created.tokens.map((t: { token: string }) => t.token) };
}

/** Runs `work` for each index with at most `concurrency` at once. */
async function pooled(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** The delay of each game's TimedOut after its deadline: the game row's update time minus the event's stamp (the deadline). */
const DELAYS_SQL = `
SELECT extract(epoch FROM (g.updated_at - e.created_at)) * 1000 AS ms
FROM games g JOIN events e ON e.game_id = g.id AND e.type = 'TimedOut'
WHERE g.id = ANY($1::text[])`;

async function deadlines(services: RunningService[], dataDir: string | null): Promise<void> {
  const urls = services.map((s) => s.url);
  const ids: string[] = [];
  const created = performance.now();
  await pooled(gameCount, 50, async (i) => {
    ids.push((await createGame(urls[i % urls.length], { kind: 'backgammon', ruleset: {}, timeControl: { kind: 'FISCHER', baseSeconds } })).id);
  });
  const creationSeconds = (performance.now() - created) / 1000;
  out(`deadlines: ${gameCount} games created in ${creationSeconds.toFixed(1)} s (${(gameCount / creationSeconds).toFixed(0)}/s), each with ${baseSeconds} s for its first turn`);
  if (creationSeconds > baseSeconds) out(`  (creation took longer than the clock: the first deadlines fell due while games were still being created)`);

  // Wait until every game timed out.
  const client = usePglite ? null : new pg.Client({ connectionString: databaseUrl });
  await client?.connect();
  const pending = async () =>
    client
      ? Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM games WHERE id = ANY($1::text[]) AND status = 'ACTIVE'", [ids])).rows[0].n)
      : (await gql(urls[0], ACTIVE)).data.games.totalCount;
  const limit = Date.now() + (baseSeconds + 300) * 1000;
  for (let left = await pending(); left > 0; left = await pending()) {
    if (Date.now() > limit) throw new Error(`${left} games never timed out`);
    await sleep(500);
  }

  let rows: { ms: number }[];
  if (client) {
    rows = (await client.query<{ ms: number }>(DELAYS_SQL, [ids])).rows;
    await client.end();
  } else {
    // The embedded database is the service's while it runs: read it once the service stopped.
    await stop(services);
    const db = new PGlite(join(dataDir!, 'pglite'));
    rows = (await db.query<{ ms: number }>(DELAYS_SQL, [ids])).rows;
    await db.close();
  }
  const delays = rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
  out(
    `  ${delays.length} TimedOut stored (${gameCount - delays.length} missing); delay after the deadline: p50 ${ms(percentile(delays, 50))}   p99 ${ms(percentile(delays, 99))}   max ${ms(delays.at(-1) ?? NaN)}   min ${ms(delays[0] ?? NaN)}`,
  );
}

/** CPU milliseconds a process has used so far (Linux /proc, in ticks of 10 ms); NaN where it cannot be read. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's name (in parentheses, which may hold spaces): utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * The CPU time of the processes doing the moves' work, from now until the returned function is
 * called: the services, and on PostgreSQL the server's backends serving the benchmark's database
 * (other databases' are someone else's work). A backend that ends meanwhile is not counted.
 */
async function cpuMeter(services: RunningService[], db: pg.Client | null): Promise<() => Promise<{ service: number; database: number }>> {
  const backends = async () => (db ? (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid) : []);
  const used = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuMs(pid)]));
  const service = used(services.map((s) => s.process.pid!));
  const database = used(await backends());
  const since = (before: Map<number, number>, now: Map<number, number>) => [...now].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
  return async () => ({ service: since(service, used([...service.keys()])), database: since(database, used(await backends())) });
}

/** Bots playing whole games for `durationMs`, `clients` at once; the games with `timeControl` (or without, null). */
async function moves(services: RunningService[], db: pg.Client | null, clients: number, durationMs: number, timeControl: unknown) {
  const urls = services.map((s) => s.url);
  const engine = ENGINES.find((e) => e.kind === kind)!;
  const cpu = await cpuMeter(services, db);
  let moved = 0;
  let rejected = 0;
  const latencies: number[] = [];
  const until = Date.now() + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const bot = new Bot(urls[c % urls.length], engine, RULESETS[kind], seededRandom(c * 7919 + clients), `d${clients}-${c}-${Date.now()}`, AVOID[kind]);
      const newGame = async () => {
        const { id, tokens } = await createGame(bot.url, { kind, ruleset: RULESETS[kind], ...(timeControl ? { timeControl } : {}) });
        await bot.play(id, tokens);
      };
      await newGame();
      while (Date.now() < until) {
        if (bot.finished()) {
          await newGame();
          continue;
        }
        const sent = performance.now();
        const r = await bot.move();
        if (!r.accepted) {
          rejected++;
          continue;
        }
        latencies.push(performance.now() - sent);
        moved++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const used = await cpu();
  return {
    perSecond: moved / (durationMs / 1000),
    cpuPerMove: (used.service + used.database) / moved,
    serviceCpuPerMove: used.service / moved,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rejected,
  };
}

/** The functions (and packages) whose self time per move grew most from the phase without clocks to the phase with. */
function profileDifference(none: { taken: CpuProfile; moves: number }, clock: { taken: CpuProfile; moves: number }): string[] {
  const root = resolve(dirname(serviceEntry()), '../..');
  const perMove = (p: { taken: CpuProfile; moves: number }, rows: (s: ReturnType<typeof summarise>) => { name: string; ms: number }[]) =>
    new Map(rows(summarise(p.taken, root, Number.POSITIVE_INFINITY)).map((r) => [r.name, (r.ms * 1000) / p.moves]));
  const lines: string[] = [];
  for (const [label, rows] of [
    ['packages', (s: ReturnType<typeof summarise>) => s.packages],
    ['functions', (s: ReturnType<typeof summarise>) => s.functions],
  ] as const) {
    const [a, b] = [perMove(none, rows), perMove(clock, rows)];
    const names = [...new Set([...a.keys(), ...b.keys()])];
    const grown = names.map((n) => ({ n, a: a.get(n) ?? 0, b: b.get(n) ?? 0 })).sort((x, y) => y.b - y.a - (x.b - x.a));
    lines.push(`  profiled ${label}, self µs a move without → with clocks (largest growth first):`);
    for (const g of grown.slice(0, 16)) lines.push(`    ${g.a.toFixed(1).padStart(6)} → ${g.b.toFixed(1).padStart(6)}  ${g.n}`);
  }
  return lines;
}

async function stop(services: RunningService[]): Promise<void> {
  for (const service of services) if (service.process.exitCode === null) service.process.kill('SIGTERM');
  await Promise.all(services.map((s) => s.exited));
}

async function main() {
  const dataDir = usePglite ? mkdtempSync(join(tmpdir(), 'arbiter-bench-deadlines-')) : null;
  const env: Record<string, string> = { ...(usePglite ? { DATA_DIR: dataDir! } : { DATABASE_URL: databaseUrl }), MAX_CONNECTIONS_PER_ADDRESS: '0' };
  const basePort = 4200 + Math.floor(Math.random() * 100) * 2;
  const start = async () => {
    const started: RunningService[] = [];
    for (let i = 0; i < instances; i++) started.push(await startService(env, basePort + i * 200, { nodeArgs: profile && i === 0 ? [`--inspect=127.0.0.1:${INSPECT_PORT}`] : [] }));
    return started;
  };
  let services = await start();
  try {
    out(`Arbiter deadline benchmark: database ${usePglite ? 'embedded PGlite' : databaseUrl.replace(/\/\/.*@/, '//')}, ${instances} instance${instances > 1 ? 's' : ''}, DEADLINE_POLL_MS default`);
    await deadlines(services, dataDir);
    if (services.some((s) => s.process.exitCode !== null)) services = await start();
    const db = usePglite ? null : new pg.Client({ connectionString: databaseUrl });
    await db?.connect();
    // Warm-up, both ways: JIT, connection pools, caches.
    for (const timeControl of [null, MOVES_CLOCK]) await moves(services, db, 10, 3000, timeControl);
    out(`moves (${kind}, ${seconds} s a phase, interleaved ${rounds} time(s): without a clock, with ${JSON.stringify(MOVES_CLOCK)}, with, without)`);
    for (const clients of clientCounts) {
      const runs: Record<'none' | 'clock', Awaited<ReturnType<typeof moves>>[]> = { none: [], clock: [] };
      const profiles: Partial<Record<'none' | 'clock', { taken: CpuProfile; moves: number }>> = {};
      for (let round = 0; round < rounds; round++) {
        for (const phase of ['none', 'clock', 'clock', 'none'] as const) {
          const profiler = profile && clients === Math.max(...clientCounts) && !profiles[phase] ? await InspectorProfiler.attach(INSPECT_PORT) : null;
          await profiler?.start();
          const run = await moves(services, db, clients, seconds * 1000, phase === 'clock' ? MOVES_CLOCK : null);
          if (profiler) {
            profiles[phase] = { taken: await profiler.stop(), moves: run.perSecond * seconds };
            profiler.close();
          }
          runs[phase].push(run);
        }
      }
      if (profiles.none && profiles.clock) for (const line of profileDifference(profiles.none, profiles.clock)) out(line);
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      const perSecond = (label: 'none' | 'clock') => mean(runs[label].map((r) => r.perSecond));
      const cpu = (label: 'none' | 'clock') => mean(runs[label].map((r) => r.cpuPerMove));
      const serviceCpu = (label: 'none' | 'clock') => mean(runs[label].map((r) => r.serviceCpuPerMove));
      for (const label of ['none', 'clock'] as const) {
        const rs = runs[label];
        out(
          `  ${String(clients).padStart(2)} clients, ${label.padEnd(5)} ${perSecond(label).toFixed(0).padStart(6)} moves/s, ${cpu(label).toFixed(2)} ms CPU a move (service ${serviceCpu(label).toFixed(2)})   (phases: ${rs.map((r) => r.perSecond.toFixed(0)).join(', ')} moves/s; ${rs.map((r) => r.cpuPerMove.toFixed(2)).join(', ')} ms CPU; p50 ${rs.map((r) => r.p50.toFixed(1)).join(', ')} ms; p99 ${rs.map((r) => r.p99.toFixed(1)).join(', ')} ms; ${rs.reduce((s, r) => s + r.rejected, 0)} rejected)`,
        );
      }
      const change = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(1)}%`;
      out(
        `  ${String(clients).padStart(2)} clients: with clocks ${change(perSecond('clock'), perSecond('none'))} moves/s, ${change(cpu('clock'), cpu('none'))} CPU a move (service ${change(serviceCpu('clock'), serviceCpu('none'))}${db ? `, database ${change(cpu('clock') - serviceCpu('clock'), cpu('none') - serviceCpu('none'))}` : ': the embedded database is in it'})`,
      );
    }
    await db?.end();
  } finally {
    await stop(services);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
