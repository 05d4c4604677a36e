import type { StoredEvent } from '../core/stream.js';
import type { ConsequenceRows } from '../store/event-store.js';
import type { LiveGame } from './live-games.js';

/**
 * One projection of an aggregate's appends (the webhooks' outbox, the deadlines): what a batch
 * of events implies for it, derived from the aggregate before and after them, and stored with
 * the events in the same statement (ConsequenceRows), or not at all.
 */
export interface ConsequenceHandler<S> {
  /** The projection its rows are for: the name its SQL writer was registered under (ProjectionWriters). */
  readonly projection: string;
  /** The rows the events that take the aggregate from `before` to `after` imply; none: an empty list. */
  rowsOf(before: S, after: S, events: readonly StoredEvent[]): Promise<readonly unknown[]>;
  /** The events were stored with `rows` (this handler's, possibly none). */
  stored?(before: S, after: S, rows: readonly unknown[]): void;
  /**
   * A new stream was stored (a game created, or scheduled by a tournament's pairing), with no rows
   * of this projection. A promise is waited for by whoever stored the stream (a creation is
   * answered once it is settled); it must not reject.
   */
  started?(state: S): void | Promise<void>;
}

/**
 * The consequence handlers of one kind of aggregate, registered by the modules that own their
 * projections. The command path asks it once per append (appendWith); with no handler, an
 * append pays for nothing.
 */
export class Consequences<S> {
  private handlers: readonly ConsequenceHandler<S>[] = [];

  /** Derives `handler`'s rows for every append from now on, until the returned function is called. */
  register(handler: ConsequenceHandler<S>): () => void {
    this.handlers = [...this.handlers, handler];
    return () => {
      this.handlers = this.handlers.filter((h) => h !== handler);
    };
  }

  /**
   * Derives what the events imply, has `append` store it with the events (in one statement:
   * both or neither), then tells each handler what was stored. A failed append (a lost race)
   * is thrown, and no handler is told.
   */
  async appendWith(before: S, after: S, events: readonly StoredEvent[], append: (rows: readonly ConsequenceRows[]) => Promise<void>): Promise<void> {
    const handlers = this.handlers;
    const derived = await Promise.all(handlers.map((h) => h.rowsOf(before, after, events)));
    await append(handlers.flatMap((h, i) => (derived[i].length > 0 ? [{ projection: h.projection, rows: derived[i] }] : [])));
    for (const [i, h] of handlers.entries()) h.stored?.(before, after, derived[i]);
  }

  /** A new stream was stored: each handler may write its first rows; settled once those a handler waits for are. */
  async started(state: S): Promise<void> {
    await Promise.all(this.handlers.map((h) => h.started?.(state)));
  }
}

/** The games' consequences: the DI token other modules register their handlers with. */
export class GameConsequences extends Consequences<LiveGame> {}
