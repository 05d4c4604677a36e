/**
 * Transparency log benchmark: `npm run bench -- bench/transparency-log.js [--postgres URL]
 * [--games 20] [--rounds 3] [--leaves 1000000]` (docs/transparency.md).
 *
 * 1. What the log costs a move: backgammon games played to their end in process (every one ends
 *    with the log's entry in its last append), with and without the log's consequence, phases
 *    alternating (without, with, `--rounds` times: a drift of the machine's speed weighs on both
 *    alike); moves/s, p50/p99 of a move, and the CPU time a move costs this process (steadier than
 *    moves/s on a machine shared with other work).
 * 2. A checkpoint at `--leaves` leaves: that many entries stored at once (as after the migration of
 *    a service with that many finished games), sequenced in the worker's batches (the backlog);
 *    then (once vacuumed, as autovacuum does after such a bulk update) one checkpoint that adds 100
 *    entries to the tree of that size (sequenced and signed, as the worker does every 10 s), and
 *    the signature alone.
 * 3. Proof sizes at that size: an inclusion proof, and a consistency proof from half the size.
 * 4. Running heads: `--running` games in play, each with a head not logged yet; a checkpoint that
 *    logs them all (one leaf each), then one where none moved (what every interval pays to look).
 */
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { backgammonEngine } from '../src/games/backgammon/engine/index.js';
import { GameConsequences } from '../src/referee/application/consequences.js';
import type { RefereeMetrics } from '../src/referee/application/metrics.port.js';
import { RefereeService } from '../src/referee/application/referee.service.js';
import { EngineRegistry } from '../src/referee/core/engine-registry.js';
import { signCheckpoint, signingKeyOf } from '../src/referee/core/tlog/checkpoint.js';
import { consistencyRanges, hashRanges, inclusionRanges, nodesNeeded } from '../src/referee/core/tlog/merkle.js';
import { PostgresEventStore } from '../src/referee/store/postgres-event-store.js';
import { ProjectionWriters } from '../src/referee/store/projections.js';
import { CheckpointWorker } from '../src/transparency/checkpoint-worker.js';
import { GameEntries, LOG_ENTRIES_SQL } from '../src/transparency/log-entries.js';
import { LogStore } from '../src/transparency/log-store.js';
import { benchArgs } from './lib/args.js';
import { benchDatabase } from './lib/database.js';

const { flag, postgresUrl } = benchArgs();
const games = Number(flag('games', '20'));
const rounds = Number(flag('rounds', '3'));
const leaves = Number(flag('leaves', '1000000'));
const running = Number(flag('running', '1000'));

const out = (s: string) => process.stdout.write(`${s}\n`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };

interface Phase {
  ms: number;
  /** This process's CPU time (the service's share of a move; the database server's is not counted). */
  cpuMs: number;
  latencies: number[];
}

/** `games` 1-point matches at once, each played to its end by the first legal move that is neither a resignation nor a double. */
async function play(referee: RefereeService): Promise<Phase> {
  const created = await Promise.all(
    Array.from({ length: games }, async () => {
      const { game, tokens } = await referee.createGame({ kind: 'backgammon', ruleset: { matchLength: 1 }, seats: [{ name: 'a' }, { name: 'b' }] });
      return { id: game.gameId, tokens: tokens.map((t) => t.token) };
    }),
  );
  const started = performance.now();
  const cpu = process.cpuUsage();
  const latencies: number[] = [];
  await Promise.all(
    created.map(async ({ id, tokens }) => {
      for (let m = 0; ; m++) {
        const current = await referee.game(id);
        if (current.ended) return;
        const seat = current.engine.toAct(current.state)[0];
        const legal = referee.answer(current, seat).legalActions as { type: string }[];
        const action = legal.find((a) => a.type !== 'resign' && a.type !== 'double') ?? legal[0];
        const at = performance.now();
        const answer = await referee.act(id, tokens[seat], `m${m}`, action);
        latencies.push(performance.now() - at);
        if (!answer.accepted) throw new Error(`move refused: ${answer.message}`);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, latencies };
}

function summary(phases: Phase[]): string {
  const moves = phases.reduce((n, p) => n + p.latencies.length, 0);
  const ms = phases.reduce((n, p) => n + p.ms, 0);
  const sorted = phases.flatMap((p) => p.latencies).sort((a, b) => a - b);
  const cpuUs = (phases.reduce((n, p) => n + p.cpuMs, 0) / moves) * 1000;
  return `${((moves / ms) * 1000).toFixed(0)} moves/s (${moves} moves), p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, ${cpuUs.toFixed(0)} µs of CPU a move`;
}

async function main(): Promise<void> {
  Logger.overrideLogger(['error']);
  if (![games, rounds, leaves, running].every((n) => Number.isInteger(n) && n > 0)) throw new Error('--games, --rounds, --leaves and --running take whole numbers above 0');
  const { db, drop } = await benchDatabase('tlog', postgresUrl);
  try {
    out(`Arbiter transparency log benchmark: ${postgresUrl ? 'PostgreSQL' : 'embedded PGlite'}`);
    const writers = new ProjectionWriters();
    writers.register(LOG_ENTRIES_SQL);
    const store = new PostgresEventStore(db, writers);
    const registry = EngineRegistry.of([backgammonEngine]);
    const logged = new GameConsequences();
    logged.register(new GameEntries());
    const service = (consequences: GameConsequences) => new RefereeService(store, registry, metrics, undefined, undefined, undefined, undefined, consequences);
    const referees = { without: service(new GameConsequences()), with: service(logged) };
    await play(referees.without); // statements prepared, engines compiled
    const phases: Record<'without' | 'with', Phase[]> = { without: [], with: [] };
    for (let r = 0; r < rounds; r++) for (const which of ['without', 'with'] as const) phases[which].push(await play(referees[which]));
    out(`\n1. Moves, ${games} 1-point backgammon matches at once played to their end, ${rounds} rounds each way (alternating)`);
    out(`   without the log: ${summary(phases.without)}`);
    out(`   with the log:    ${summary(phases.with)}`);

    const key = signingKeyOf('bench.example/log', randomBytes(32));
    const logStore = new LogStore(db);
    const worker = new CheckpointWorker(logStore, key, key.name, 3_600_000);
    await worker.tick();
    const insert = (n: number, from: number) =>
      db.pool.query("INSERT INTO log_entries (kind, stream_id, seq, hash, result) SELECT 'game', 'bench-' || i, 1, md5(i::text), NULL FROM generate_series($1::int, $2::int) AS i", [
        from,
        from + n - 1,
      ]);
    const before = Number((await worker.tick())?.size ?? 0);
    await insert(leaves - before, 1);
    let at = performance.now();
    const backlog = await worker.tick();
    const backlogMs = performance.now() - at;
    out(`\n2. Checkpoints: ${leaves} entries waiting sequenced and signed in ${(backlogMs / 1000).toFixed(1)} s (${((leaves / backlogMs) * 1000).toFixed(0)} leaves/s), tree of ${backlog?.size}`);
    // Sequencing the backlog updated every entry: what autovacuum does next (the waiting entries' index holds them all until then).
    await db.pool.query('VACUUM ANALYZE log_entries');
    await db.pool.query('VACUUM ANALYZE log_nodes');
    const ticks: number[] = [];
    for (let i = 0; i < 5; i++) {
      await insert(100, leaves + i * 100 + 1);
      at = performance.now();
      await worker.tick();
      ticks.push(performance.now() - at);
    }
    out(`   a checkpoint adding 100 entries to the tree of ${leaves}: median ${ticks.sort((a, b) => a - b)[2].toFixed(1)} ms (sequenced, stored, signed)`);
    const root = (await logStore.checkpoint())!.root;
    at = performance.now();
    for (let i = 0; i < 1000; i++) signCheckpoint({ origin: key.name, size: leaves, root }, key);
    out(`   the Ed25519 signature alone: ${((performance.now() - at) / 1000).toFixed(3)} ms`);

    const size = (await logStore.checkpoint())!.size;
    const proofOf = async (ranges: ReturnType<typeof inclusionRanges>) => hashRanges(ranges, await logStore.nodes(nodesNeeded(ranges)));
    at = performance.now();
    const inclusion = await proofOf(inclusionRanges(Math.floor(size / 3), size));
    const inclusionMs = performance.now() - at;
    const consistency = await proofOf(consistencyRanges(Math.floor(size / 2) + 1, size));
    const bytes = (hs: Buffer[]) => `${hs.length} hashes, ${hs.length * 32} bytes (${JSON.stringify(hs.map((h) => h.toString('base64'))).length} as JSON base64)`;
    out(`\n3. Proofs at ${size} leaves: inclusion ${bytes(inclusion)}, made in ${inclusionMs.toFixed(1)} ms; consistency from ${Math.floor(size / 2) + 1}: ${bytes(consistency)}`);

    for (let i = 0; i < running; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, running - i) }, () => referees.with.createGame({ kind: 'backgammon', ruleset: { matchLength: 1 }, seats: [{ name: 'a' }, { name: 'b' }] })));
    }
    at = performance.now();
    const heads = await worker.tick();
    const headsMs = performance.now() - at;
    const idle: number[] = [];
    for (let i = 0; i < 5; i++) {
      at = performance.now();
      await worker.tick();
      idle.push(performance.now() - at);
    }
    out(
      `\n4. Running heads: a checkpoint logging the heads of ${running} games in play: ${heads?.added} leaves, ${headsMs.toFixed(0)} ms; ` +
        `the next ones, nothing moved: median ${idle.sort((a, b) => a - b)[2].toFixed(1)} ms (the look for moved heads, ${size} entries stored)`,
    );
  } finally {
    await drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
