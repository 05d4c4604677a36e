import { RefereeError } from '../core/errors.js';
import { cursorOf, cursorText, type FeedCursor, type FeedPage, type PlayerFeedStore } from '../store/player-feed-store.js';

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
 * challenges), read in the order they were stored, resumable after any notice's id.
 */
export class PlayerFeed {
  constructor(private readonly store: PlayerFeedStore) {}

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
