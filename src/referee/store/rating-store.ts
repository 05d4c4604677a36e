import type { GameRatedPayload, PlayerRating, RatedGame } from '../core/rating/pool.js';
import type { StoredEvent } from '../core/stream.js';

/** A player's current rating in a pool, as the reads list it. */
export interface RatingRow extends PlayerRating {
  poolId: string;
  playerId: string;
  /** The player's name (accounts). */
  name: string | null;
  kind: string;
  family: string;
  /** The pool's event that set it. */
  seq: number;
}

/** One rated game's change to one player's rating. */
export interface RatingChangeRow {
  poolId: string;
  seq: number;
  playerId: string;
  gameId: string;
  seat: number;
  place: number;
  before: PlayerRating;
  after: PlayerRating;
  createdAt: Date;
}

/** A rated game that ended, waiting to be rated. */
export interface QueuedGame {
  id: string;
  game: RatedGame;
}

/** The projection of a game's end: the queue row its rating comes from. */
export const RATING_QUEUE = 'rating_queue';

/** Where a leaderboard page ends: the last row's rating and player. */
export interface BoardCursor {
  rating: number;
  playerId: string;
}

/**
 * The ratings' storage: one stream per pool (the same row shape as every stream's), appended at
 * an expected version (AppendConflict otherwise) with the rows its events set (the players'
 * ratings, each game's changes) and the queue row of the game it rates deleted, all or nothing.
 */
export abstract class RatingStore {
  /** The pool's events after `events[0].seq - 1` (a new pool: from 1), the rows `rated` sets, and the game's queue row deleted. */
  abstract append(pool: { id: string; kind: string; family: string }, events: StoredEvent[], rated: GameRatedPayload): Promise<void>;
  abstract events(poolId: string, afterSeq?: number): Promise<StoredEvent[]>;
  abstract versions(ids: readonly string[]): Promise<Map<string, number>>;
  /** Every pool's id. */
  abstract pools(): Promise<string[]>;
  /** The oldest games waiting to be rated, at most `limit`. */
  abstract queued(limit: number): Promise<QueuedGame[]>;
  /** A game's queue row, gone (its rating was stored before). */
  abstract dequeue(gameId: string): Promise<void>;
  abstract ratingsOf(playerId: string): Promise<RatingRow[]>;
  /** A pool's ratings, the highest first, after `after`. */
  abstract board(poolId: string, first: number, after?: BoardCursor): Promise<RatingRow[]>;
  /** A player's changes in a pool, the newest first, before the pool's event `beforeSeq`. */
  abstract history(playerId: string, poolId: string, first: number, beforeSeq?: number): Promise<RatingChangeRow[]>;
  abstract changesOfGame(gameId: string): Promise<RatingChangeRow[]>;
}
