import type { StoredEvent } from '../core/stream.js';
import type { ConsequenceRows } from './event-store.js';
import type { FeedRow } from './player-feed-store.js';

/** A challenge's row: what its lists page by, and its stream's head. */
export interface ChallengeRow {
  id: string;
  challengerId: string;
  challengedId: string | null;
  kind: string;
  /** OPEN, ACCEPTED, DECLINED or CANCELLED (never EXPIRED: that is read from expiresAt). */
  status: string;
  expiresAt: Date;
  gameId: string | null;
  version: number;
  headHash: string;
  createdAt: Date;
}

/** Which challenges a list holds: a player's incoming or outgoing ones, or the open ones anyone may accept (open and unexpired at `now`). */
export type ChallengeList = { incoming: string } | { outgoing: string } | { open: true };

/** A status to list by, as of `now` (OPEN: not expired; EXPIRED: OPEN and past its expiry). */
export interface ChallengeFilter {
  status?: 'OPEN' | 'ACCEPTED' | 'DECLINED' | 'CANCELLED' | 'EXPIRED';
  now: Date;
}

/** Where a page ends: the last challenge's time and id (newest first). */
export interface ChallengeCursor {
  at: string;
  id: string;
}

/**
 * The challenges' storage: streams of the same row shape as accounts', and the row their lists
 * read, written in the same transaction as the events. An append is all or nothing at an
 * expected version (AppendConflict otherwise): of two acceptances of one challenge, one is stored.
 * The players' notices the events make (the feed's rows) are stored in the same transaction.
 */
export abstract class ChallengeStore {
  /** A new challenge, its events, the players' notices they make and the rows they imply (its consequences), all stored or none. */
  abstract create(row: Omit<ChallengeRow, 'createdAt'>, events: StoredEvent[], notices: readonly FeedRow[], consequences: readonly ConsequenceRows[]): Promise<void>;
  /** Events after `events[0].seq - 1` (the expected version), the row they change, their notices and the rows they imply, all stored or none. */
  abstract append(
    id: string,
    events: StoredEvent[],
    head: Pick<ChallengeRow, 'version' | 'headHash' | 'status' | 'gameId'>,
    notices: readonly FeedRow[],
    consequences: readonly ConsequenceRows[],
  ): Promise<void>;
  abstract events(id: string, afterSeq?: number): Promise<StoredEvent[]>;
  abstract versions(ids: readonly string[]): Promise<Map<string, number>>;
  /** A page of challenges, newest first, after `after`. */
  abstract page(list: ChallengeList, filter: ChallengeFilter, first: number, after?: ChallengeCursor): Promise<ChallengeRow[]>;
  /** Accepted challenges whose game is not stored (a process stopped between the acceptance and the game), at most `limit`. */
  abstract acceptedWithoutGame(limit: number): Promise<string[]>;
}
