import { RefereeError } from '../core/errors.js';
import type { StoredEvent } from '../core/stream.js';
import { cursorOf, cursorText, type FeedCursor, type FeedPage, type FeedRow, PLAYER_FEED, type PlayerFeedStore } from '../store/player-feed-store.js';
import type { ConsequenceHandler } from './consequences.js';
import type { GameSnapshot } from './game-answer.js';
import { NOTICE_TYPES, noticesOf } from './game-notices.js';
import type { TournamentState } from '../core/tournament/state.js';
import { feedRowsOf, tournamentNoticesOf } from './tournament-notices.js';

/** Notices read at most per query. */
const PAGE = 100;

/** One player's feed as a reader follows it: where it starts, its pages, and its wake-ups. */
export interface FeedReader {
  /** Where the reader starts: after this notice's id (null: from the player's first notice). */
  readonly after: string | null;
  /** The notices after the id `after` (null: from the first), a page at a time. */
  read(after: string | null): Promise<FeedPage>;
  /** Calls `wake` each time notices of the player are stored by this instance, until the returned function is called. */
  onWritten(wake: () => void): () => void;
}

/** The cursor a client sent (`after`, `Last-Event-ID`): INVALID_INPUT when it is none the feed gave. */
function feedCursorOf(text: string | null): FeedCursor | null {
  if (text === null || text === '') return null;
  const cursor = cursorOf(text);
  if (!cursor) throw new RefereeError('INVALID_INPUT', "after must be the id of a notice the stream gave (or omitted: from the player's first)");
  return cursor;
}

/**
 * The players' feed: per player, the notices meant for them (game started, your turn, game over,
 * challenges), read in the order they were stored, resumable after any notice's id. A game's
 * notices are a projection of its appends: one row per notice and seat bound to a player,
 * stored with the events that make them (rowsOf), in the statement that appends or creates them.
 */
export class PlayerFeed implements ConsequenceHandler<GameSnapshot> {
  readonly projection = PLAYER_FEED;

  constructor(private readonly store: PlayerFeedStore) {}

  async rowsOf(before: GameSnapshot | null, after: GameSnapshot, events: readonly StoredEvent[]): Promise<FeedRow[]> {
    if (!after.seatPlayers.some(Boolean)) return [];
    const createdAt = new Date(events.at(-1)?.createdAt ?? after.createdAt);
    return noticesOf(before, after, events).flatMap(({ type, to, ...told }, n) =>
      to.flatMap((mySeat) => {
        const playerId = after.seatPlayers[mySeat];
        if (!playerId) return [];
        // A batch's notices are the same however often it is derived: its version and place name each.
        const dedupeKey = `game ${after.gameId} ${after.version} ${n} ${mySeat}`;
        return [{ playerId, dedupeKey, type: NOTICE_TYPES[type], data: { gameId: after.gameId, kind: after.kind, mySeat, ...told }, createdAt }];
      }),
    );
  }

  /** The rows were committed: this instance's readers of their players read at once. */
  stored(_before: GameSnapshot | null, _after: GameSnapshot, rows: readonly unknown[]): void {
    if (rows.length > 0) this.store.written(rows as FeedRow[]);
  }

  /** The player's feed after `after` (a notice's id; INVALID_INPUT when it is none). */
  reader(playerId: string, after: string | null): FeedReader {
    const start = feedCursorOf(after);
    return {
      after: start && cursorText(start),
      read: (from) => this.store.after(playerId, feedCursorOf(from), PAGE),
      onWritten: (wake) => this.store.onWritten(playerId, wake),
    };
  }
}

/**
 * The players' notices a tournament's appends make (tournament-notices.ts): one row for each
 * notice to a participant that is a player, stored with the events that make it.
 */
export class TournamentFeed implements ConsequenceHandler<TournamentState> {
  readonly projection = PLAYER_FEED;

  constructor(private readonly store: PlayerFeedStore) {}

  async rowsOf(_before: TournamentState | null, after: TournamentState, events: readonly StoredEvent[]): Promise<FeedRow[]> {
    return after.participants.some((p) => p.player) ? feedRowsOf(tournamentNoticesOf(after, events)) : [];
  }

  /** The rows were committed: this instance's readers of their players read at once. */
  stored(_before: TournamentState | null, _after: TournamentState, rows: readonly unknown[]): void {
    if (rows.length > 0) this.store.written(rows as FeedRow[]);
  }
}
