import { Logger } from '@nestjs/common';
import type { AppendWatcher, EventStore } from '../store/event-store.js';
import type { HeldStreams } from './held-streams.js';

/** While appends may go untold, stored versions are compared this often. */
const SWEEP_EVERY_MS = 250;

/**
 * Keeps the streams this process holds (games, or tournaments) as fresh as the store, whichever
 * instance stored their events: each told append catches its stream up; while appends may go
 * untold (the listening connection is lost) every held stream is compared with its stored
 * version on a timer, and once more when they are told again.
 */
export class Freshness implements AppendWatcher {
  private readonly logger = new Logger('Freshness');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  /** Whether the last sweep failed: a database that stays away is said once, not every sweep. */
  private failing = false;
  private unwatch: (() => Promise<void>) | null = null;

  constructor(private readonly live: Pick<HeldStreams<never, unknown>, 'catchUp' | 'sweep' | 'has' | 'forget'>) {}

  appended(id: string, version: number): void {
    this.live.catchUp(id, version).catch((err) => this.logger.warn(`${id}: could not catch up to version ${version}: ${(err as Error).message}`));
  }

  /** A stored event was edited or deleted: the held copy is dropped, and the next read checks the log (INTEGRITY_ERROR). */
  altered(id: string): void {
    if (!this.live.has(id)) return;
    this.logger.warn(`${id}: a stored event was updated or deleted; the copy held here is dropped, and its log read again when asked for`);
    this.live.forget(id);
  }

  lost(): void {
    this.timer ??= setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
  }

  restored(): void {
    this.stopSweeping();
    // A sweep under way may have read the stored versions before the listening connection was
    // back: an append stored between its read and the LISTEN would be neither told nor swept, and
    // the stream held here stale until its next command. So one more sweep, after it.
    void (this.sweeping ?? Promise.resolve()).then(() => this.sweep());
  }

  /** Listens to the store's appends, by every instance, from now on. */
  async watch(store: Pick<EventStore, 'watch'>): Promise<void> {
    this.unwatch ??= await store.watch(this);
  }

  /** Listens no more. */
  async stop(): Promise<void> {
    this.stopSweeping();
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
