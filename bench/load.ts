/**
 * Load benchmark: `npm run bench -- bench/load.js [--pglite] [--seconds N] [--kind backgammon]
 * [--clients 10,50] [--instances N] [--spread alternate|pinned] [--staleness-every 10]
 * [--staleness-cap-ms 10000] [--staleness-methods poll,subscription] [--no-staleness] [--profile]
 * [--entry path/to/dist/src/main.js]`.
 * Starts the built service as its own process (N of them on one PostgreSQL with --instances N),
 * plays many games concurrently through GraphQL (one request per move, each durably stored
 * before it is answered) at 10 and 50 concurrent clients, and prints moves/s with p50/p99
 * latency next to two ceilings measured in the same run: the service's trivial-query rate
 * ({ __typename }) and the database's raw single-row insert rate (a plain `pg` loop at the same
 * concurrency). Each phase also prints the CPU time it cost: the PostgreSQL server's processes
 * (read from /proc when the database runs on this machine), the service processes, the load
 * generator and the whole machine. It ends with a summary: the trivial-query rate, moves/s with
 * p50/p99 per client count, the service's CPU-seconds per 1,000 moves and its resident memory.
 *
 * `--profile` takes a CPU profile of the service (instance 0) through its inspector while the
 * largest client count plays, writes it (open it in Chrome DevTools or speedscope) and prints the
 * packages and functions with the most self time, garbage collection included. The profiler
 * slows the service: a profiled run's figures are not for comparison. `--entry` runs another
 * build of the service (an earlier commit's dist/src/main.js), so before and after are measured
 * back to back by the same bench.
 *
 * With several instances, clients are spread over them: `alternate` (the default) sends each of
 * a client's moves to the next instance, so every move is decided by an instance that did not
 * make the previous one (cross-instance freshness on the move path); `pinned` keeps a client on
 * one instance (client c on instance c mod N). A last phase then measures cross-instance
 * staleness at the largest client count: for every `--staleness-every`-th acknowledged move of
 * each client, acknowledged by instance A at version v, how long until instance B (the next
 * one) serves v, by polling B's `game(id) { version }` every 2 ms and through a `gameEvents`
 * subscription held open on B (capped at 10 s by default: a miss is counted as a timeout). The client
 * waits for its probe before its next move, so its own next move cannot refresh B; that phase's
 * moves/s are therefore not throughput figures.
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { seededRandom } from '../src/engines/kit/index.js';
import { ENGINES } from '../src/games/index.js';
import { Bot } from '../tools/bot.js';
import { CpuSampler, loadAverage, machineCpuSeconds, pidsOfUser, processMemory } from './lib/cpu.js';
import { InspectorProfiler, summarise, writeProfile } from './lib/profile.js';
import { serviceEntry, startService, type RunningService } from '../tools/service.js';
import { StalenessProbe } from './lib/staleness.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const usePglite = args.includes('--pglite');
const seconds = Number(flag('seconds', '10'));
const kind = flag('kind', 'backgammon');
const instances = Number(flag('instances', '1'));
const spread = flag('spread', 'alternate');
const clientCounts = flag('clients', '10,50').split(',').map(Number);
const stalenessEvery = Number(flag('staleness-every', '10'));
const stalenessCapMs = Number(flag('staleness-cap-ms', '10000'));
const stalenessMethods = flag('staleness-methods', 'poll,subscription').split(',');
const measureStaleness = instances >= 2 && !args.includes('--no-staleness');
const profile = args.includes('--profile');
const entry = flag('entry', '') || undefined;
const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const RULESETS: Record<string, unknown> = { backgammon: { autoRoll: true }, 'chicken-foot': { players: 4 }, cerke: {} };
// Random bots double, drop and concede far too often: games of a few moves would measure game creation, not moves.
const AVOID: Record<string, string[]> = { backgammon: ['resign', 'double'], 'chicken-foot': ['resign'], cerke: ['resign'] };
// The service processes' database sessions carry this name, so their server processes can be told from others'.
const APP_NAME = `arbiter-bench-${process.pid}`;

if (!Number.isInteger(instances) || instances < 1) throw new Error('--instances takes a whole number >= 1');
if (spread !== 'alternate' && spread !== 'pinned') throw new Error('--spread takes alternate or pinned');
if (clientCounts.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--clients takes whole numbers >= 1, comma separated');
if (usePglite && instances > 1) throw new Error('the embedded database is single-process: --instances > 1 needs PostgreSQL (DATABASE_URL)');

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

/** The instance a client's `move`-th move goes to. */
const instanceOf = (client: number, move: number) => (spread === 'pinned' ? client % instances : (client + move) % instances);

interface PlayOptions {
  /** Staleness probes: every `every`-th accepted move of a client is probed on another instance. */
  probe?: { probe: StalenessProbe; every: number };
}

async function playFor(urls: string[], clients: number, durationMs: number, options: PlayOptions = {}) {
  const engine = ENGINES.find((e) => e.kind === kind)!;
  const latencies: number[] = [];
  let rejected = 0;
  let games = 0;
  const started = performance.now();
  const until = Date.now() + durationMs;
  const probing = options.probe;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      let move = 0;
      let accepted = 0;
      const bot = new Bot(urls[instanceOf(c, move)], engine, RULESETS[kind], seededRandom(c * 7919 + clients), `c${clients}-${c}-${Date.now()}`, AVOID[kind]);
      const newGame = async () => {
        bot.url = urls[instanceOf(c, move)];
        await bot.newGame();
        games++;
        // Every instance that may be asked about this game watches it from the start.
        if (probing) probing.probe.watchGame(c, bot.gameId, spread === 'pinned' ? urls.map((_, i) => i).filter((i) => i !== c % instances) : urls.map((_, i) => i));
      };
      await newGame();
      while (Date.now() < until) {
        if (bot.finished()) {
          await newGame();
          continue;
        }
        const at = instanceOf(c, move++);
        bot.url = urls[at];
        const sent = performance.now();
        const r = await bot.move();
        const acked = performance.now();
        if (!r.accepted) {
          rejected++;
          continue;
        }
        latencies.push(acked - sent);
        if (probing && ++accepted % probing.every === 0)
          await probing.probe.probe(c, bot.gameId, r.version, acked, (at + 1) % instances, `move ${accepted} of the client${r.finished ? ', which ended the game' : ''}`);
      }
      probing?.probe.unwatch(c);
    }),
  );
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    moves: latencies.length,
    perSecond: latencies.length / (durationMs / 1000),
    elapsedMs: elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rejected,
    games,
  };
}

/**
 * CPU used while `work` runs: the PostgreSQL server (all processes of the `postgres` user, and
 * those serving this bench's sessions plus the server's background processes), the service
 * processes, this load generator and the whole machine.
 */
async function measureCpu<T>(services: RunningService[], work: () => Promise<T>) {
  const local = !usePglite && /@(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(databaseUrl) && pidsOfUser('postgres').length > 0;
  let watcher: pg.Client | null = null;
  if (local) {
    watcher = new pg.Client({ connectionString: databaseUrl, application_name: `${APP_NAME}-watcher` });
    await watcher.connect();
  }
  const ours = async () =>
    (await watcher!.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1 OR backend_type <> 'client backend'", [APP_NAME])).rows.map((r) => r.pid);
  const dbAll = local ? new CpuSampler(() => pidsOfUser('postgres')) : null;
  const dbOurs = local ? new CpuSampler(ours) : null;
  const service = new CpuSampler(() => services.map((s) => s.process.pid!));
  await Promise.all([dbAll?.start(), dbOurs?.start(), service.start()]);
  const generator = process.cpuUsage();
  const machine = machineCpuSeconds();
  const load = loadAverage();
  const wall = performance.now();
  const result = await work();
  const wallSeconds = (performance.now() - wall) / 1000;
  const generatorUsage = process.cpuUsage(generator);
  const machineAfter = machineCpuSeconds();
  const [all, db, svc] = await Promise.all([dbAll?.stop(), dbOurs?.stop(), service.stop()]);
  await watcher?.end();
  return {
    result,
    wallSeconds,
    databaseAll: all ?? null,
    database: db ?? null,
    service: svc,
    generator: (generatorUsage.user + generatorUsage.system) / 1e6,
    machineBusy: machineAfter.busy - machine.busy,
    machineCores: (machineAfter.total - machine.total) / wallSeconds,
    loadBefore: load,
    loadAfter: loadAverage(),
  };
}

function cpuLine(cpu: Awaited<ReturnType<typeof measureCpu>>, moves: number): string {
  const cores = (s: number) => (s / cpu.wallSeconds).toFixed(2);
  const parts: string[] = [];
  if (cpu.database !== null && cpu.databaseAll !== null)
    parts.push(
      `database ${cores(cpu.database)} cores (all postgres processes ${cores(cpu.databaseAll)}): ${(moves / cpu.database).toFixed(0)} moves per database CPU-second (${((cpu.database / moves) * 1e6).toFixed(0)} µs a move)`,
    );
  parts.push(`Arbiter (${instances} process${instances > 1 ? 'es' : ''}) ${cores(cpu.service)} cores: ${((cpu.service / moves) * 1000).toFixed(2)} CPU-seconds per 1,000 moves`);
  parts.push(`load generator ${cores(cpu.generator)} cores`);
  const accounted = cpu.service + cpu.generator + (cpu.databaseAll ?? 0);
  parts.push(
    `machine ${cores(cpu.machineBusy)} of ${cpu.machineCores.toFixed(0)} cores busy (${cores(Math.max(0, cpu.machineBusy - accounted))} by other processes), load average ${cpu.loadBefore} -> ${cpu.loadAfter}`,
  );
  return `    CPU: ${parts.join('; ')}`;
}

async function trivialQueryRate(urls: string[]) {
  // 50 connections in all, shared between the instances.
  const results = await Promise.all(
    urls.map((url, i) =>
      autocannon({
        url: `${url}/graphql`,
        method: 'POST',
        connections: Math.floor(50 / urls.length) + (i < 50 % urls.length ? 1 : 0),
        duration: Math.max(3, Math.round(seconds / 2)),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
    ),
  );
  return {
    perSecond: results.reduce((sum, r) => sum + r.requests.average, 0),
    total: results.reduce((sum, r) => sum + r.requests.total, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

async function rawInsertRate(connectionString: string, clients: number) {
  const pool = new pg.Pool({ connectionString, max: clients });
  // Named after this process: other runs may share the database.
  const table = `bench_raw_insert_${process.pid}`;
  await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (id bigserial PRIMARY KEY, game_id text, seq int, payload jsonb)`);
  let rows = 0;
  const durationMs = Math.max(3000, (seconds / 2) * 1000);
  const until = Date.now() + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; Date.now() < until; i++) {
        await pool.query(`INSERT INTO ${table} (game_id, seq, payload) VALUES ($1, $2, $3)`, [`g${c}`, i, '{"action":{"type":"play"}}']);
        rows++;
      }
    }),
  );
  await pool.query(`DROP TABLE ${table}`);
  await pool.end();
  return rows / (durationMs / 1000);
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

function stalenessLines(probe: StalenessProbe): string[] {
  const lines: string[] = [];
  const report = (label: string, measured: boolean, values: (number | null | undefined)[]) => {
    if (!measured) return;
    const got = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
    const timeouts = values.length - got.length;
    lines.push(
      `  ${label.padEnd(13)} ${String(values.length).padStart(5)} probes   ${
        got.length ? `p50 ${ms(percentile(got, 50))}   p99 ${ms(percentile(got, 99))}   max ${ms(got.at(-1)!)}   min ${ms(got[0])}` : 'no answer'
      }   ${timeouts} timeouts (> ${stalenessCapMs / 1000} s)`,
    );
  };
  report(
    'polling',
    probe.polling,
    probe.samples.map((s) => s.polled),
  );
  report(
    'subscription',
    probe.subscribing,
    probe.samples.map((s) => s.delivered),
  );
  // The first few subscription timeouts in detail: a delivery that stopped short of v is a missed notification.
  for (const { missed } of probe.samples.filter((s) => s.missed).slice(0, 3))
    lines.push(
      `  subscription timeout: game ${missed!.gameId} version ${missed!.version} on instance ${missed!.instance}: it had delivered up to ${missed!.lastDelivered ?? 'nothing'}, watching for ${(missed!.watchedSince / 1000).toFixed(1)} s (${missed!.note})`,
    );
  const polls = probe.samples.reduce((sum, s) => sum + s.polls, 0);
  lines.push(`  (${polls} polls in all; ${probe.subscriptionErrors} subscription errors${probe.firstError ? `, first: ${JSON.stringify(probe.firstError).slice(0, 200)}` : ''})`);
  return lines;
}

function profileLines(taken: Parameters<typeof summarise>[0], clients: number): string[] {
  const file = join(tmpdir(), `arbiter-load-${process.pid}.cpuprofile`);
  writeProfile(file, taken);
  const summary = summarise(taken, resolve(dirname(entry ?? serviceEntry()), '../..'));
  const pct = (share: number) => `${(share * 100).toFixed(1).padStart(5)}%`;
  return [
    `  CPU profile of the service at ${clients} clients: ${(summary.busyMs / 1000).toFixed(1)} s busy, ${(summary.idleMs / 1000).toFixed(1)} s idle, written to ${file}`,
    '  self time by package (builtins charged to their caller):',
    ...summary.packages.slice(0, 15).map((p) => `    ${pct(p.share)}  ${p.name}`),
    '  node core by module:',
    ...summary.nodeCore.map((p) => `    ${pct(p.share)}  ${p.name}`),
    '  functions with the most self time:',
    ...summary.functions.map((f) => `    ${pct(f.share)}  ${f.name} [${f.pkg}]`),
  ];
}

async function main() {
  const dataDir = usePglite ? mkdtempSync(join(tmpdir(), 'arbiter-bench-')) : null;
  const env: Record<string, string> = {
    ...(usePglite ? { DATA_DIR: dataDir! } : { DATABASE_URL: databaseUrl }),
    PGAPPNAME: APP_NAME,
    // The staleness phase holds a subscription per client and instance, all from this address.
    MAX_SUBSCRIPTIONS_PER_CALLER: '0',
    MAX_SUBSCRIPTIONS_PER_ADDRESS: '0',
    MAX_CONNECTIONS_PER_ADDRESS: '0',
  };
  const basePort = 3800 + Math.floor(Math.random() * 100) * 2;
  // The inspector of instance 0 listens next to its HTTP port.
  const inspectPort = basePort + 1;
  const services: RunningService[] = [];
  const out = (s: string) => process.stdout.write(`${s}\n`);
  try {
    for (let i = 0; i < instances; i++) services.push(await startService(env, basePort + i * 200, { entry, nodeArgs: profile && i === 0 ? [`--inspect=127.0.0.1:${inspectPort}`] : [] }));
    const urls = services.map((s) => s.url);
    out(
      `Arbiter load benchmark: ${kind}, database ${usePglite ? 'embedded PGlite' : databaseUrl.replace(/\/\/.*@/, '//')}, ${instances} instance${instances > 1 ? `s (clients ${spread === 'pinned' ? 'pinned to one each' : 'moving to the next instance at each move'})` : ''}, ${seconds} s per phase, service and load generator sharing this machine`,
    );
    await playFor(urls, 10, 3000); // warm-up: JIT, connection pools, caches
    const rows: { clients: number; perSecond: number; p50: number; p99: number; cpuPerThousand: number; load: string }[] = [];
    for (const clients of clientCounts) {
      const profiler = profile && clients === Math.max(...clientCounts) ? await InspectorProfiler.attach(inspectPort) : null;
      await profiler?.start();
      const cpu = await measureCpu(services, () => playFor(urls, clients, seconds * 1000));
      const taken = await profiler?.stop();
      profiler?.close();
      const r = cpu.result;
      rows.push({ clients, perSecond: r.perSecond, p50: r.p50, p99: r.p99, cpuPerThousand: (cpu.service / r.moves) * 1000, load: cpu.loadAfter });
      out(
        `moves, ${String(clients).padStart(2)} clients   ${r.perSecond.toFixed(0).padStart(7)} moves/s   p50 ${ms(r.p50)}   p99 ${ms(r.p99)}   (${r.moves} moves, ${r.games} games, ${r.rejected} rejected)`,
      );
      out(cpuLine(cpu, r.moves));
      if (taken) for (const line of profileLines(taken, clients)) out(line);
    }
    if (measureStaleness) {
      const clients = Math.max(...clientCounts);
      const probe = new StalenessProbe(urls, { capMs: stalenessCapMs, poll: stalenessMethods.includes('poll'), subscribe: stalenessMethods.includes('subscription') });
      try {
        const r = await playFor(urls, clients, seconds * 1000, { probe: { probe, every: stalenessEvery } });
        out(
          `staleness, ${clients} clients, 1 in ${stalenessEvery} acknowledged moves of each client probed on the next instance (the client waits for its probe; ${r.moves} moves in ${(r.elapsedMs / 1000).toFixed(1)} s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}):`,
        );
        for (const line of stalenessLines(probe)) out(line);
        // What the instances logged (warnings and errors only at LOG_LEVEL=warn): a failed catch-up shows here.
        services.forEach((service, i) => {
          const logged = service.log().split('\n').filter(Boolean);
          if (logged.length > 0) out(`  instance ${i} logged ${logged.length} lines, the first: ${logged.slice(0, 3).join(' | ').slice(0, 600)}`);
        });
      } finally {
        await probe.close();
      }
    }
    const trivialCpu = await measureCpu(services, () => trivialQueryRate(urls));
    const trivial = trivialCpu.result;
    // What a request costs the service before any game work: the floor under the CPU a move costs.
    const trivialPerThousand = (trivialCpu.service / trivial.total) * 1000;
    out(
      `ceiling: { __typename }, 50 connections${instances > 1 ? ` over ${instances} instances` : ''}   ${trivial.perSecond.toFixed(0).padStart(7)} req/s   p99 ${trivial.p99} ms   ${trivialPerThousand.toFixed(2)} service CPU-s per 1,000 requests   load average ${trivialCpu.loadAfter}`,
    );
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
    const top = rows.reduce((a, b) => (b.clients > a.clients ? b : a));
    out(`ratios at ${top.clients} clients: ${((top.perSecond / trivial.perSecond) * 100).toFixed(0)}% of the trivial-query rate, ${((top.perSecond / raw) * 100).toFixed(0)}% of the raw insert rate`);
    const memory = services.map((s) => processMemory(s.process.pid!));
    out(`summary${profile ? ' (profiled: slowed by the profiler)' : ''}:`);
    out(`  trivial query       ${trivial.perSecond.toFixed(0).padStart(6)} req/s    p99 ${trivial.p99} ms   ${trivialPerThousand.toFixed(2)} service CPU-s per 1,000 requests`);
    for (const row of rows)
      out(
        `  ${String(row.clients).padStart(2)} clients          ${row.perSecond.toFixed(0).padStart(6)} moves/s  p50 ${ms(row.p50)}   p99 ${ms(row.p99)}   ${row.cpuPerThousand.toFixed(2)} service CPU-s per 1,000 moves   load average ${row.load}`,
      );
    out(`  service memory      ${memory.map((m, i) => `${instances > 1 ? `instance ${i}: ` : ''}RSS ${m ? `${m.rss.toFixed(0)} MiB at the end, peak ${m.peak.toFixed(0)} MiB` : '?'}`).join('; ')}`);
  } finally {
    for (const service of services) service.process.kill('SIGTERM');
    await Promise.all(services.map((s) => s.exited));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
