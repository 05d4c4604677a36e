import type { StoredEvent } from '../core/stream.js';
import type { ConsequenceRows } from '../store/event-store.js';
import type { LiveGame } from './live-games.js';

/**
 * One projection of an aggregate's appends (the webhooks' outbox, the deadlines, the inbox): what
 * a batch of events implies for it, derived from the aggregate before and after them (before:
 * null for a new stream, a game created or scheduled by a tournament's pairing), and stored with
 * the events in the same statement (ConsequenceRows), or not at all.
 */
export interface ConsequenceHandler<S> {
  /** The projection its rows are for: the name its SQL writer was registered under (ProjectionWriters). */
  readonly projection: string;
  /** The rows the events that take the aggregate from `before` (null: none yet) to `after` imply; none: an empty list. */
  rowsOf(before: S | null, after: S, events: readonly StoredEvent[]): Promise<readonly unknown[]>;
  /** The events were stored with `rows` (this handler's, possibly none). */
  stored?(before: S | null, after: S, rows: readonly unknown[]): void;
}

/** What a batch of events implies, derived: the rows to store with them, and `stored` to call once they are. */
export interface Implied {
  rows: readonly ConsequenceRows[];
  stored(): void;
}

/**
 * The consequence handlers of one kind of aggregate, registered by the modules that own their
 * projections. The command path asks it once per append (appendWith) and per new stream; with
 * no handler, an append pays for nothing.
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

  /** What the events imply, to store with them; each handler is told what was stored once `stored` is called (never, if they were not). */
  async implied(before: S | null, after: S, events: readonly StoredEvent[]): Promise<Implied> {
    const handlers = this.handlers;
    const derived = await Promise.all(handlers.map((h) => h.rowsOf(before, after, events)));
    return {
      rows: handlers.flatMap((h, i) => (derived[i].length > 0 ? [{ projection: h.projection, rows: derived[i] }] : [])),
      stored: () => {
        for (const [i, h] of handlers.entries()) h.stored?.(before, after, derived[i]);
      },
    };
  }

  /**
   * Derives what the events imply, has `append` store it with the events (in one statement:
   * both or neither), then tells each handler what was stored. A failed append (a lost race)
   * is thrown, and no handler is told.
   */
  async appendWith(before: S | null, after: S, events: readonly StoredEvent[], append: (rows: readonly ConsequenceRows[]) => Promise<void>): Promise<void> {
    const implied = await this.implied(before, after, events);
    await append(implied.rows);
    implied.stored();
  }
}

/** The games' consequences: the DI token other modules register their handlers with. */
export class GameConsequences extends Consequences<LiveGame> {}
