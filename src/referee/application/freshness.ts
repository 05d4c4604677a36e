import { Logger } from '@nestjs/common';
import type { AppendWatcher, EventStore } from '../store/event-store.js';
import type { HeldStreams } from './held-streams.js';

/** While appends may go untold, stored versions are compared this often; a told append not caught up is tried again as often. */
const SWEEP_EVERY_MS = 250;
/** Tries at a told append before it is left to the stream's next command or sweep (a version the store never reached: a commit lost in a failover). */
const CATCH_UP_TRIES = 40;

/**
 * Keeps the streams this process holds (games, or tournaments) as fresh as the store, whichever
 * instance stored their events: each told append catches its stream up; while appends may go
 * untold (the listening connection is lost) every held stream is compared with its stored
 * version on a timer, and once more when they are told again. A told append whose catching up
 * failed (the database away for a moment, or read from a server not yet as far: a failover) is
 * tried again: told once, it is not told again.
 */
export class Freshness implements AppendWatcher {
  private readonly logger = new Logger('Freshness');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  /** Whether the last sweep failed: a database that stays away is said once, not every sweep. */
  private failing = false;
  /** Whether appends are told (the listening connection is up): then sweeping stops at the first sweep that succeeds. */
  private listening = true;
  private unwatch: (() => Promise<void>) | null = null;
  /** Told appends not caught up yet: the version owed, and the tries left. */
  private readonly owed = new Map<string, { version: number; tries: number }>();
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly live: Pick<HeldStreams<never, unknown>, 'catchUp' | 'sweep' | 'has' | 'forget'>) {}

  appended(id: string, version: number): void {
    const owed = this.owed.get(id);
    if (owed) owed.version = Math.max(owed.version, version);
    this.catchUp(id, version, owed?.tries ?? CATCH_UP_TRIES);
  }

  private catchUp(id: string, version: number, tries: number): void {
    this.live.catchUp(id, version).then(
      () => {
        const owed = this.owed.get(id);
        if (owed && owed.version <= version) this.owed.delete(id);
      },
      (err) => {
        const owed = this.owed.get(id);
        if (owed && owed.version > version) return;
        if (tries <= 1) {
          this.owed.delete(id);
          this.logger.warn(`${id}: could not catch up to version ${version}, ${CATCH_UP_TRIES} tries (left to its next command or sweep): ${(err as Error).message}`);
          return;
        }
        if (!owed) this.logger.warn(`${id}: could not catch up to version ${version} (trying again): ${(err as Error).message}`);
        this.owed.set(id, { version, tries: tries - 1 });
        this.retry ??= setTimeout(() => this.catchUpOwed(), SWEEP_EVERY_MS);
      },
    );
  }

  private catchUpOwed(): void {
    this.retry = null;
    for (const [id, { version, tries }] of this.owed) this.catchUp(id, version, tries);
  }

  /** A stored event was edited or deleted: the held copy is dropped, and the next read checks the log (INTEGRITY_ERROR). */
  altered(id: string): void {
    if (!this.live.has(id)) return;
    this.logger.warn(`${id}: a stored event was updated or deleted; the copy held here is dropped, and its log read again when asked for`);
    this.live.forget(id);
  }

  lost(): void {
    this.listening = false;
    this.sweepOften();
  }

  restored(): void {
    this.listening = true;
    this.stopSweeping();
    // A sweep under way may have read the stored versions before the listening connection was
    // back: an append stored between its read and the LISTEN would be neither told nor swept, and
    // the stream held here stale until its next command. So one more sweep, after it; and, should
    // that one fail (the pool's connections still coming back), more until one succeeds.
    void (this.sweeping ?? Promise.resolve())
      .then(() => this.sweep())
      .then(() => {
        if (this.failing) this.sweepOften();
      });
  }

  private sweepOften(): void {
    this.timer ??= setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
  }

  /** Listens to the store's appends, by every instance, from now on. */
  async watch(store: Pick<EventStore, 'watch'>): Promise<void> {
    this.unwatch ??= await store.watch(this);
  }

  /** Listens no more. */
  async stop(): Promise<void> {
    this.stopSweeping();
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.owed.clear();
    const unwatch = this.unwatch;
    this.unwatch = null;
    await unwatch?.();
  }

  private stopSweeping(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One sweep at a time: a slow database must not pile them up. */
  sweep(): Promise<void> {
    this.sweeping ??= this.live
      .sweep()
      .then(() => {
        this.failing = false;
        if (this.listening) this.stopSweeping();
      })
      .catch((err) => {
        if (!this.failing) this.logger.warn(`could not compare stored versions (trying again): ${(err as Error).message}`);
        this.failing = true;
      })
      .finally(() => {
        this.sweeping = null;
      });
    return this.sweeping;
  }
}
