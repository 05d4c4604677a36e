import { RefereeError } from '../core/errors.js';
import type { StoredEvent, StreamHead } from '../core/stream.js';
import type { StreamSource } from './held-streams.js';

/** An aggregate's store as its streams need it: a stream's events after a version, and the streams' stored versions. */
export interface EventLog {
  events(id: string, afterSeq?: number): Promise<StoredEvent[]>;
  versions(ids: readonly string[]): Promise<Map<string, number>>;
}

/** How one aggregate's streams are named, told apart and folded. */
export interface StreamShape<S, B> {
  /** The aggregate's name in messages: "challenge". */
  name: string;
  /** What an unknown id names none of: "no <what> with id …". */
  what: string;
  isId(id: string): boolean;
  idOf(state: S): string;
  isOver(state: S): boolean;
  /** The state after `events`, from `from` (none: the stream's first event). */
  fold(id: string, events: readonly StoredEvent[], from?: S): S;
  /** The batch that tells subscribers of `events`. */
  batch(id: string, events: StoredEvent[]): B;
}

/**
 * The held streams' source for an aggregate whose store keeps its events and little else (a
 * player's or app's account, a challenge): a stream is loaded by folding its log, and followed
 * by folding the events stored after the held version.
 */
export class StoredStreams<S extends StreamHead, B> implements StreamSource<S, B> {
  readonly name: string;

  constructor(
    private readonly log: EventLog,
    private readonly shape: StreamShape<S, B>,
  ) {
    this.name = shape.name;
  }

  isId(id: string): boolean {
    return this.shape.isId(id);
  }

  idOf(state: S): string {
    return this.shape.idOf(state);
  }

  isOver(state: S): boolean {
    return this.shape.isOver(state);
  }

  moved(state: S): B {
    return this.shape.batch(this.shape.idOf(state), []);
  }

  versions(ids: readonly string[]): Promise<Map<string, number>> {
    return this.log.versions(ids);
  }

  async load(id: string): Promise<S> {
    const events = await this.log.events(id);
    if (events.length === 0) throw new RefereeError('NOT_FOUND', `no ${this.shape.what} with id ${id}`);
    return this.shape.fold(id, events);
  }

  async follow(held: S): Promise<{ state: S; batch: B } | null> {
    const id = this.shape.idOf(held);
    const events = await this.log.events(id, held.version);
    if (events.length === 0) return null;
    return { state: this.shape.fold(id, events, held), batch: this.shape.batch(id, events) };
  }
}
