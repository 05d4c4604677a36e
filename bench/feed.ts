/**
 * The players' feed's cost per move: `npm run bench -- bench/feed.js [--pglite | --postgres URL]
 * [--games 50] [--moves 20] [--rounds 3]`.
 *
 * Plays `--games` backgammon games at once (each seat bound to a player of its own, so every move
 * tells a player something: your turn, time given...), `--moves` moves a game, through the referee
 * as the service runs it (the event store's one statement per append, group commit, the inbox's
 * rows), once with the players' feed registered as a consequence of the appends and once
 * without, alternating `--rounds` times, and prints the time per move of each (wall time over
 * moves, creations aside, and p50/p99 of a move's own latency) and the feed's rows per move. The database is a
 * new one (PostgreSQL: a database made for the run on the server of `--postgres`, dropped after;
 * PGlite: a new data folder), migrated as the service migrates it.
 */
import { Logger } from '@nestjs/common';
import { backgammonEngine } from '../src/games/backgammon/engine/index.js';
import { KeyDirectory, type KeyHolder, type PlayerCard } from '../src/referee/application/key-holders.js';
import type { RefereeMetrics } from '../src/referee/application/metrics.port.js';
import { RefereeService } from '../src/referee/application/referee.service.js';
import { EngineRegistry } from '../src/referee/core/engine-registry.js';
import { PlayerFeedStore } from '../src/referee/store/player-feed-store.js';
import { PlayerGamesStore } from '../src/referee/store/player-games-store.js';
import { PostgresEventStore } from '../src/referee/store/postgres-event-store.js';
import { ProjectionWriters } from '../src/referee/store/projections.js';
import { benchArgs } from './lib/args.js';
import { benchDatabase } from './lib/database.js';

const { flag, postgresUrl } = benchArgs();
const usePglite = !postgresUrl;
const games = Number(flag('games', '50'));
const moves = Number(flag('moves', '20'));
const rounds = Number(flag('rounds', '3'));

const out = (s: string) => process.stdout.write(`${s}\n`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };

/** Every key is its player's, with every scope: `arbk_<player id>`. */
class BenchKeys extends KeyDirectory {
  async holder(token: string): Promise<KeyHolder | null> {
    const id = token.slice('arbk_'.length);
    return { owner: 'player', ownerId: id, keyId: `k-${id}`, scopes: ['read', 'play'] };
  }
  async player(id: string): Promise<PlayerCard | null> {
    return { id, name: id, appId: null };
  }
}

interface Phase {
  ms: number;
  moves: number;
  latencies: number[];
}

/**
 * `games` games created, then played at once, `moves` moves each (fewer if one ends first): the
 * seat to act plays its first legal action but resign and double. Timed: the moves.
 */
async function play(referee: RefereeService, label: string): Promise<Phase> {
  const created = await Promise.all(
    Array.from({ length: games }, async (_, g) => {
      const players = [`pl-${label}-${g}-a`, `pl-${label}-${g}-b`];
      const { game } = await referee.createGame({ kind: 'backgammon', seats: players.map((player) => ({ name: player, player })) });
      return { id: game.gameId, players };
    }),
  );
  const started = performance.now();
  const latencies: number[] = [];
  await Promise.all(
    created.map(async ({ id, players }) => {
      for (let m = 0; m < moves; m++) {
        const current = await referee.game(id);
        if (current.ended) break;
        const seat = current.engine.toAct(current.state)[0];
        const legal = referee.answer(current, seat).legalActions as { type: string }[];
        const action = legal.find((a) => a.type !== 'resign' && a.type !== 'double') ?? legal[0];
        const at = performance.now();
        const answer = await referee.act(id, `arbk_${players[seat]}`, `m${m}`, action);
        latencies.push(performance.now() - at);
        if (!answer.accepted) throw new Error(`move refused: ${answer.message}`);
      }
    }),
  );
  return { ms: performance.now() - started, moves: latencies.length, latencies };
}

async function main(): Promise<void> {
  Logger.overrideLogger(['error']);
  if (![games, moves, rounds].every((n) => Number.isInteger(n) && n > 0)) throw new Error('--games, --moves and --rounds take whole numbers above 0');
  const { db, drop } = await benchDatabase('feed', postgresUrl);
  try {
    const writers = new ProjectionWriters();
    const store = new PostgresEventStore(db, writers);
    const registry = EngineRegistry.of([backgammonEngine]);
    const inbox = new PlayerGamesStore(db, writers);
    const feed = new PlayerFeedStore(db, writers);
    const keys = new BenchKeys();
    // Two services over the same stores, as the service runs: with the inbox, with and without the feed.
    const service = (withFeed: boolean) =>
      new RefereeService(store, registry, metrics, undefined, undefined, undefined, undefined, undefined, undefined, undefined, keys, inbox, withFeed ? feed : null);
    const referees = { without: service(false), with: service(true) };
    out(`Arbiter feed benchmark: ${usePglite ? 'embedded PGlite' : 'PostgreSQL'}, ${games} backgammon games at once (${2 * games} players), ${moves} moves a game, ${rounds} rounds each way`);
    await play(referees.without, 'warm'); // statements prepared, engines compiled
    const phases: Record<'without' | 'with', Phase[]> = { without: [], with: [] };
    for (let r = 0; r < rounds; r++) {
      for (const which of ['without', 'with'] as const) phases[which].push(await play(referees[which], `${which}-${r}`));
    }
    // The rows of the moves (a creation's one row a player, game.started, aside).
    const { rows } = await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM player_feed WHERE type <> 'game.started'`);
    const perMove: Record<string, number> = {};
    for (const which of ['without', 'with'] as const) {
      const all = phases[which];
      const total = all.reduce((s, p) => s + p.moves, 0);
      const ms = all.reduce((s, p) => s + p.ms, 0);
      const latencies = all.flatMap((p) => p.latencies).sort((a, b) => a - b);
      perMove[which] = ms / total;
      out(
        `  feed ${which.padEnd(7)}  ${total} moves in ${(ms / 1000).toFixed(2)} s: ${(ms / total).toFixed(3)} ms a move (${Math.round((total * 1000) / ms)} moves/s); a move's latency p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`,
      );
    }
    const feedMoves = phases.with.reduce((s, p) => s + p.moves, 0);
    out(
      `  the feed costs ${(perMove.with - perMove.without).toFixed(3)} ms a move (${(((perMove.with - perMove.without) / perMove.without) * 100).toFixed(1)} %), storing ${(Number(rows[0].n) / feedMoves).toFixed(2)} notices a move`,
    );
  } finally {
    await drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
