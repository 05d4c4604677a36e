/**
 * Ratings recomputation benchmark: `npm run bench -- bench/ratings.js [--games N]` (default
 * 100,000). Builds the pools' streams of N rated games as the service appends them (Glicko-2
 * backgammon and Cerke matches between 2,000 players, Weng-Lin Chicken Foot tables of four, from
 * a fixed pseudo-random sequence), then times what `npm run ratings:recompute` does with them
 * once the games are read: every stream's chain checked and every update rated again from its
 * game and compared byte for byte (recomputePool). Prints games/s; exits 1 on any mismatch.
 */
import type { PoolState, RatedGame, RatingFamily } from '../src/referee/core/rating/pool.js';
import { ratingPool } from '../src/referee/core/rating/pool.js';
import { ratingDrafts, recomputePool } from '../src/referee/core/rating/recompute.js';
import { chainEvents, GENESIS_HASH, type StoredEvent } from '../src/referee/core/stream.js';
import { benchArgs } from './lib/args.js';

const { flag } = benchArgs();
const total = Number(flag('games', '100000'));
if (!Number.isInteger(total) || total < 1) throw new Error('--games must be a positive whole number');

const PLAYERS = 2000;
/** A fixed linear congruential sequence: the same games on every run and machine. */
let seed = 20261206;
const next = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};

const POOLS: { kind: string; family: RatingFamily; share: number; seats: number }[] = [
  { kind: 'backgammon', family: 'live', share: 0.4, seats: 2 },
  { kind: 'cerke', family: 'correspondence', share: 0.3, seats: 2 },
  { kind: 'chicken-foot', family: 'untimed', share: 0.3, seats: 4 },
];

function gameOf(kind: string, family: RatingFamily, seats: number, i: number): RatedGame {
  const players = new Set<number>();
  while (players.size < seats) players.add(next(PLAYERS));
  const places = seats === 2 ? (next(10) === 0 ? [1, 1] : next(2) === 0 ? [1, 2] : [2, 1]) : [...players].map(() => 1 + next(seats));
  return {
    gameId: `${kind}-${i}`,
    kind,
    family,
    finalHash: i.toString(16).padStart(64, '0'),
    endedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    seats: [...players].map((p, s) => ({ player: `pl-${p}`, place: places[s] })),
  };
}

/** A pool's stream of `count` games, appended one by one as the service does. */
function buildPool(kind: string, family: RatingFamily, seats: number, count: number) {
  const poolId = `ratings:${kind}:${family}`;
  const games = new Map<string, RatedGame>();
  const events: StoredEvent[] = [];
  let pool: PoolState | null = null;
  let head = { version: 0, lastHash: GENESIS_HASH };
  for (let i = 0; i < count; i++) {
    const game = gameOf(kind, family, seats, i);
    games.set(game.gameId, game);
    const { drafts } = ratingDrafts(pool, game, game.endedAt);
    const chained = chainEvents(poolId, head, drafts);
    for (const e of chained) {
      if (e.type === 'PoolOpened') {
        const opened = ratingPool.decode(e);
        if (!opened.ok) throw new Error(opened.error.message);
        const founded = ratingPool.found(poolId, opened.value, null);
        if (!founded.ok) throw new Error(founded.error.message);
        pool = founded.value;
      } else {
        const rated = ratingPool.decode(e);
        if (!rated.ok || !pool) throw new Error('bad event');
        const evolved = ratingPool.evolve(pool, rated.value, e, null);
        if (!evolved.ok) throw new Error(evolved.error.message);
        pool = evolved.value;
      }
      events.push(e);
    }
    head = { version: chained.at(-1)!.seq, lastHash: chained.at(-1)!.hash };
  }
  return { poolId, events, games };
}

const built = POOLS.map((p, i) => {
  const count = i === POOLS.length - 1 ? total - POOLS.slice(0, -1).reduce((n, q) => n + Math.floor(total * q.share), 0) : Math.floor(total * p.share);
  return buildPool(p.kind, p.family, p.seats, count);
});

const started = performance.now();
let mismatches = 0;
for (const { poolId, events, games } of built) mismatches += recomputePool(poolId, events, (id) => games.get(id) ?? null).length;
const seconds = (performance.now() - started) / 1000;
for (const [i, b] of built.entries()) process.stdout.write(`${b.poolId}: ${b.games.size} games (${POOLS[i].seats} seats)\n`);
process.stdout.write(`recomputed ${total} rated games in ${seconds.toFixed(2)} s: ${Math.round(total / seconds)} games/s, ${mismatches === 0 ? 'every update agrees' : `${mismatches} differ`}\n`);
process.exit(mismatches === 0 ? 0 : 1);
