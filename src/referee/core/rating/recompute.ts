import { canonicalJson } from '../canonical.js';
import { type DraftEvent, foldStream, type StoredEvent } from '../stream.js';
import { type GameRatedPayload, type PoolState, poolDraft, type RatingFamily, poolIdOf, poolOpened, type RatedGame, rateGame, ratingPool } from './pool.js';

/** The command id of a game's rating update: a pool rates a game once, whoever appends it first. */
export const ratingCommandId = (gameId: string): string => `game:${gameId}`;

/** The events that rate `game` in its pool (`pool` null: the pool is new and opens first), the first carrying the command id. */
export function ratingDrafts(pool: PoolState | null, game: RatedGame, createdAt: string): { drafts: DraftEvent[]; rated: GameRatedPayload } {
  const opened = pool ? null : poolOpened(game.kind, game.family);
  const state = pool ?? openPool(game.kind, game.family);
  const rated = rateGame(state, game);
  if (!rated.ok) throw new Error(rated.error.message);
  const drafts: DraftEvent[] = [];
  if (opened) drafts.push(poolDraft({ type: 'PoolOpened', payload: opened }, createdAt));
  drafts.push(poolDraft({ type: 'GameRated', payload: rated.value }, createdAt));
  // The command is the game's rating: its id on the first event (PoolOpened, when the pool is new, belongs to it).
  Object.assign(drafts[0], { moveId: ratingCommandId(game.gameId), bodyHash: game.finalHash });
  return { drafts, rated: rated.value };
}

/** A new pool, before any game. */
export function openPool(kind: string, family: RatingFamily): PoolState {
  const { system, parameters } = poolOpened(kind, family);
  return { poolId: poolIdOf(kind, family), kind, family, system, parameters, players: new Map(), games: new Set() };
}

/** A stored update the recomputation does not reach exactly. */
export interface RatingMismatch {
  poolId: string;
  seq: number;
  gameId: string;
  reason: string;
}

/**
 * Recomputes a pool from its games: every GameRated in the stored order, from the pool as the
 * recomputation left it, compared byte for byte (canonical JSON) with the stored one. `gameOf`
 * gives what a game's bundle says (null: no such finished rated game). The chain is checked too.
 */
export function recomputePool(poolId: string, events: readonly StoredEvent[], gameOf: (gameId: string) => RatedGame | null): RatingMismatch[] {
  const mismatches: RatingMismatch[] = [];
  // The whole chain (every hash and every `before`) once; then each update again from the games.
  foldStream(ratingPool, poolId, events, null, { checkHashes: true });
  let pool: PoolState = foldStream(ratingPool, poolId, events.slice(0, 1), null);
  for (const e of events.slice(1)) {
    const payload = e.payload as unknown as GameRatedPayload;
    const game = gameOf(payload.gameId);
    if (!game) {
      mismatches.push({ poolId, seq: e.seq, gameId: payload.gameId, reason: 'no finished rated game with this id' });
      continue;
    }
    if (game.finalHash !== payload.finalHash) mismatches.push({ poolId, seq: e.seq, gameId: payload.gameId, reason: "the game's final hash is not the one rated" });
    const again = rateGame(pool, game);
    if (!again.ok) {
      mismatches.push({ poolId, seq: e.seq, gameId: payload.gameId, reason: again.error.message });
      continue;
    }
    if (canonicalJson(again.value) !== canonicalJson(payload)) mismatches.push({ poolId, seq: e.seq, gameId: payload.gameId, reason: 'the recomputed ratings differ from the stored ones' });
    const next = ratingPool.evolve(pool, { type: 'GameRated', payload: again.value }, e, null);
    if (!next.ok) throw new Error(next.error.message);
    pool = next.value;
  }
  return mismatches;
}
