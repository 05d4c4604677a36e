import { Logger } from '@nestjs/common';
import { RefereeError } from '../core/errors.js';
import { type StreamHead, StreamError } from '../core/stream.js';
import { KeyedLock } from './keyed-lock.js';
import { Lru } from './lru.js';
import { StreamBus } from './stream-bus.js';

/** What the held streams need of one aggregate's stored streams (a game's, a tournament's). */
export interface StreamSource<S extends StreamHead, B> {
  /** The aggregate's name in messages: "game", "tournament". */
  readonly name: string;
  /** The query that says where a stream fails its check, if there is one. */
  readonly verifier?: string;
  /** Whether `id` can name one of its streams (anything else is NOT_FOUND without a read). */
  isId(id: string): boolean;
  idOf(state: S): string;
  /** Whether nothing more can be appended to the stream (a finished game or tournament). */
  isOver(state: S): boolean;
  /** The stream read from the store and folded, every hash checked: NOT_FOUND, or a StreamError where it fails. */
  load(id: string): Promise<S>;
  /**
   * The held stream folded on with the events stored after it, and the batch that tells them;
   * null when there are none. Throws a StreamError when they do not continue it.
   */
  follow(held: S): Promise<{ state: S; batch: B } | null>;
  /** The batch that tells the subscribers of a stream not held here that it moved (they read its log). */
  moved(state: S): B;
  /** The stored versions of these streams (those that exist). */
  versions(ids: readonly string[]): Promise<Map<string, number>>;
}

export interface HeldLimits {
  /** Streams held at most that go on, and that are over (read far less; each read again from its log when asked for). */
  running: number;
  over: number;
  /**
   * Whether every read compares a held stream with its stored version first (streams read
   * rarely, by any instance: tournaments). Otherwise a held stream is served as it is: the
   * store's append notifications keep it fresh (Freshness), and a refusal made from it is
   * confirmed against the stored version.
   */
  readsStoredVersion: boolean;
}

/**
 * One aggregate's streams as this process holds them: folded streams in an LRU (read from their
 * log on a miss, caught up with what other instances stored), one queue per stream so that its
 * commands run one at a time here, and the bus that tells subscribers and workflows what was
 * stored.
 */
export class HeldStreams<S extends StreamHead, B> {
  private readonly logger = new Logger('Referee');
  readonly lock = new KeyedLock();
  readonly bus = new StreamBus<B>();
  private readonly running: Lru<S>;
  private readonly over: Lru<S>;

  constructor(
    private readonly source: StreamSource<S, B>,
    private readonly limits: HeldLimits,
  ) {
    this.running = new Lru(limits.running);
    this.over = new Lru(limits.over);
  }

  get size(): number {
    return this.running.size + this.over.size;
  }

  /** The stream as it stands: held, or read from its log. Never sets off a workflow: a read does not write. */
  async get(id: string): Promise<S> {
    const held = this.cached(id);
    if (held && !this.limits.readsStoredVersion) {
      this.remember(held);
      return held;
    }
    if (!this.source.isId(id)) throw new RefereeError('NOT_FOUND', `no such ${this.source.name}`);
    if (held) {
      const stored = await this.storedVersion(id);
      if (stored !== null && stored <= held.version) {
        this.remember(held);
        return held;
      }
      const followed = stored === null ? null : await this.follow(held);
      if (followed) return this.keep(followed.state);
    }
    return this.keep(await this.load(id));
  }

  /** Whether the stream is held and served without asking the store (a refusal made from it is confirmed first). */
  trusted(id: string): boolean {
    return !this.limits.readsStoredVersion && this.cached(id) !== undefined;
  }

  /**
   * The stream as held, without asking the store for its version (a caller that asked a moment
   * ago, or needs only what does not change: a tournament's organizer, its config); read from its
   * log when not held. The command path asks again before it decides.
   */
  async recent(id: string): Promise<S> {
    const held = this.cached(id);
    if (!held) return this.get(id);
    this.remember(held);
    return held;
  }

  async storedVersion(id: string): Promise<number | null> {
    return (await this.source.versions([id])).get(id) ?? null;
  }

  /**
   * Brings the held stream up to its stored `version` (or the latest, without one): folds on
   * only the events stored after it (checked as on load) and publishes them, as if they had been
   * stored here. A stream not held and followed by nobody is left alone: it is read when asked
   * for. The workflows' steps are awaited outside the stream's queue (a step may command it).
   * Throws if a held stream ends short of `version`: the caller tries again.
   */
  async catchUp(id: string, version?: number): Promise<void> {
    const done = (held: S | undefined) => held !== undefined && (this.source.isOver(held) || (version !== undefined && held.version >= version));
    const known = this.cached(id);
    if (done(known) || (!known && this.bus.listenerCount(id) === 0)) return;
    let reactions: Promise<void> | undefined;
    await this.lock.run(id, async () => {
      const current = this.cached(id);
      if (done(current)) return;
      if (!current) {
        // Its subscribers know where they are: they read what they miss.
        const state = await this.get(id);
        reactions = this.publish(state, this.source.moved(state));
        return;
      }
      const followed = await this.follow(current);
      if (followed) reactions = this.publish(followed.state, followed.batch);
    });
    await reactions;
    // Told it was stored, yet not read: the read went to a server not yet as far (a standby being demoted in a failover).
    const reached = this.cached(id);
    if (version !== undefined && reached && !done(reached)) throw new Error(`read as far as version ${reached.version}, short of the stored ${version}`);
  }

  /** Read-your-writes: a held stream older than `version` (stored by another instance, not told yet) is caught up first. */
  async atLeast(id: string, version: number): Promise<void> {
    const held = this.cached(id);
    if (held && held.version < version) await this.catchUp(id);
  }

  /** Compares every running stream held here, and every stream someone follows, with its stored version, and catches up those behind. */
  async sweep(): Promise<void> {
    const ids = [...new Set([...this.running.keys(), ...(this.bus.eventNames() as string[])])];
    if (ids.length === 0) return;
    const stored = await this.source.versions(ids);
    await Promise.all(
      ids.map((id) => {
        const version = stored.get(id);
        const held = this.cached(id);
        return version !== undefined && (!held || held.version < version) ? this.catchUp(id, version) : undefined;
      }),
    );
  }

  has(id: string): boolean {
    return this.cached(id) !== undefined;
  }

  /** Drops a held stream: the stored one is the truth, read on next use. */
  forget(id: string): void {
    this.running.delete(id);
    this.over.delete(id);
  }

  remember(state: S): void {
    const id = this.source.idOf(state);
    this.forget(id);
    (this.source.isOver(state) ? this.over : this.running).set(id, state);
  }

  /** Holds the stream as stored, and tells its batch: the answer is the promise of the workflows' steps. */
  publish(state: S, batch: B): Promise<void> {
    this.remember(state);
    return this.bus.publish(this.source.idOf(state), batch);
  }

  /** The stream as stored; one that fails its check is refused (INTEGRITY_ERROR), and said in the log. */
  private async load(id: string): Promise<S> {
    try {
      return await this.source.load(id);
    } catch (err) {
      if (!(err instanceof StreamError)) throw err;
      const { name, verifier } = this.source;
      this.logger.error(`${name} ${id} failed its integrity check: ${err.message}`);
      throw new RefereeError('INTEGRITY_ERROR', `this ${name}'s stored history failed verification at event ${err.seq}${verifier ? `; see ${verifier}` : ''}`);
    }
  }

  private cached(id: string): S | undefined {
    return this.running.peek(id) ?? this.over.peek(id);
  }

  /** The newer of the stream given and the one held now (another read or command may have got further meanwhile). */
  private keep(state: S): S {
    const current = this.cached(this.source.idOf(state));
    if (current && current.version >= state.version) return current;
    this.remember(state);
    return state;
  }

  /** The held stream followed on; a stream that does not continue it is dropped, to be read from its log (where the check names the event). */
  private async follow(held: S): Promise<{ state: S; batch: B } | null> {
    try {
      return await this.source.follow(held);
    } catch (err) {
      if (!(err instanceof StreamError)) throw err;
      this.forget(this.source.idOf(held));
      return null;
    }
  }
}
