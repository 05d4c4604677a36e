import { Logger } from '@nestjs/common';
import { RefereeError } from '../core/errors.js';
import { deadlineOf } from '../core/game/clock.js';
import type { ClaimedDeadline, DeadlineStore, DeadlineWrite } from '../store/deadline-store.js';
import type { Clock } from './clock.js';
import type { LiveGame } from './live-games.js';
import type { RefereeMetrics } from './metrics.port.js';

export interface DeadlineSettings {
  /** Most milliseconds between two looks for due deadlines (sooner when one is due sooner). */
  pollMs: number;
  /** Milliseconds between two sweeps that recompute lost or stale deadlines. */
  sweepMs: number;
}

/** The DI token of the worker's DeadlineSettings (the host's configuration). */
export const DEADLINE_SETTINGS = Symbol('DeadlineSettings');

/** What the worker asks of the referee: a game as stored, and a timeout decided like any command. */
export interface DeadlineReferee {
  /** The game at its stored version `atLeastVersion` or later. */
  game(gameId: string, atLeastVersion: number): Promise<LiveGame>;
  /** TimeOut for `seat`, stamped `at`, through the command path (stored at the expected version, or refused). */
  timeOut(gameId: string, seat: number, at: string): Promise<{ accepted: true } | { accepted: false; code: string }>;
}

/** What the command path tells after each stored move. */
export interface DeadlineTracker {
  /** Keeps the game's deadline row in step with the version just stored (written in the background). */
  track(game: LiveGame): void;
}

/** A referee without a deadline store (unit tests over the in-memory event store): clocks run, nothing times out on its own. */
export const UNTRACKED: DeadlineTracker = { track: () => undefined };

/** Deadlines claimed at once, and decided concurrently (their appends are written in groups). */
const BATCH = 100;
/** How long a claim keeps other instances off a deadline: a process that dies while deciding leaves it to them after that. */
const LEASE_MS = 30_000;
/** Stale games recomputed per query of a sweep. */
const SWEEP_BATCH = 500;
/** Refusals that say nothing about the deadline: give it back, to be decided again. */
const TRANSIENT = new Set(['SHUTTING_DOWN', 'STORAGE_UNAVAILABLE']);
/** Refusals of a game that cannot be played on: its deadline row goes. */
const UNPLAYABLE = new Set(['NOT_FOUND', 'INTEGRITY_ERROR']);
/** Larger than any game version: a removal that wins over every row. */
const ANY_VERSION = 2 ** 31 - 1;

/**
 * Makes deadlines act on their own. The `deadlines` table holds the next deadline of each running
 * game with a clock, written after every stored move of such a game (track). The worker claims
 * the due rows (each goes to one instance; see DeadlineStore.claim) and decides a TimeOut for
 * each through the normal command path, stamped with the deadline itself, so a deadline that
 * passed while no instance ran is applied with its own time. Exactly once: the TimeOut is
 * appended at the game's expected version, so an instance that races for the same deadline (or
 * decides from a stale row) gets a conflict or NOT_TIMED_OUT and stores nothing; the row is then
 * recomputed from the game. A write of the table that was lost (a crash between the append and
 * the write) is repaired by the sweep at start-up and then every `sweepMs`.
 *
 * It wakes at the earliest due time, at most `pollMs` after its last look (another instance's
 * nearer deadline is seen then), and as soon as a nearer deadline is stored here. Time is the
 * injected clock's: tests move it and call tick().
 */
export class DeadlineWorker implements DeadlineTracker {
  private readonly logger = new Logger('Deadlines');
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  /** When the timer fires (clock milliseconds); Infinity when it is not set. */
  private wakeAt = Number.POSITIVE_INFINITY;
  /** Ticks and sweeps run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: DeadlineStore,
    private readonly clock: Clock,
    private readonly referee: DeadlineReferee,
    private readonly metrics: RefereeMetrics,
    private readonly settings: DeadlineSettings,
  ) {}

  /** Repairs the table, applies what fell due while stopped, then keeps watching. */
  start(): void {
    if (this.running) return;
    this.running = true;
    void this.serially(async () => {
      await this.repair();
      return this.apply();
    }).catch((err) => this.failed('the start-up scan', err));
    this.sweeper = setInterval(() => void this.sweep().catch((err) => this.failed('a sweep', err)), this.settings.sweepMs);
    this.sweeper.unref();
  }

  /** Stops watching and waits for the tick or sweep in progress, and for the rows still being written. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    if (this.sweeper) clearInterval(this.sweeper);
    this.timer = this.sweeper = null;
    this.wakeAt = Number.POSITIVE_INFINITY;
    await this.queue.catch(() => undefined);
    await this.store.flushed();
  }

  /** Decides every deadline due now (after the tick or sweep in progress); answers how many timed out. */
  tick(): Promise<number> {
    return this.serially(() => this.apply());
  }

  /** Recomputes the deadlines of running games whose row is missing or stale; answers how many. */
  sweep(): Promise<number> {
    return this.serially(() => this.repair());
  }

  /**
   * Keeps the game's row in step with a move just stored here. The move's answer does not wait
   * for it (waiting for a second statement cost up to 40% of the moves a second at 10 clients,
   * bench/deadlines.ts), and never fails for it: a write that fails or is lost is logged, and
   * the sweep repairs it. A tick waits for the writes queued before it.
   */
  track(game: LiveGame): void {
    if (!game.clock) return;
    const write = this.rowOf(game);
    this.store.write(write).catch((err: Error) => this.logger.warn(`the deadline of game ${game.gameId} at version ${game.version} was not stored (the sweep will): ${err.message}`));
    if (!write.ended && write.dueAt) this.nearer(write.dueAt.getTime());
  }

  private rowOf(game: LiveGame, claimedUntil: Date | null = null): DeadlineWrite {
    if (game.ended) return { gameId: game.gameId, version: game.version, ended: true };
    const next = deadlineOf(game);
    return { gameId: game.gameId, seat: next?.seat ?? null, dueAt: next ? new Date(next.at) : null, version: game.version, claimedUntil };
  }

  private serially<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.catch(() => undefined).then(run);
    this.queue = next;
    return next;
  }

  /** Claims and decides due deadlines, a batch at a time, until none is due; then sets the timer for the next. */
  private async apply(): Promise<number> {
    let timedOut = 0;
    try {
      // The rows as the moves stored here left them.
      await this.store.flushed();
      for (;;) {
        const now = this.clock.now();
        const claimed = await this.store.claim(now, new Date(now.getTime() + LEASE_MS), BATCH);
        const decided = await Promise.all(claimed.map((d) => this.decide(d, now)));
        timedOut += decided.filter(Boolean).length;
        if (claimed.length < BATCH) break;
      }
    } finally {
      await this.schedule();
    }
    return timedOut;
  }

  /**
   * One due deadline: its TimeOut through the command path. When refused (the row was stale: the
   * game moved on, ended, or another instance timed it out first), the row is recomputed from
   * the game, and a deadline of the game that is due after all is decided at once.
   */
  private async decide(claim: ClaimedDeadline, now: Date): Promise<boolean> {
    let target = { seat: claim.seat, at: claim.dueAt.toISOString() };
    let version = claim.version;
    try {
      for (let attempt = 1; ; attempt++) {
        const answer = await this.referee.timeOut(claim.gameId, target.seat, target.at);
        if (answer.accepted) {
          // The command path stored the game's next deadline (track).
          this.metrics.inc('arbiter_timeouts_total');
          this.metrics.observe('arbiter_timeout_delay_seconds', {}, Math.max(0, this.clock.now().getTime() - Date.parse(target.at)) / 1000);
          return true;
        }
        if (TRANSIENT.has(answer.code)) {
          await this.store.release(claim.gameId);
          return false;
        }
        const game = await this.current(claim.gameId, version);
        if (!game) return false;
        const next = game.ended || !game.clock ? null : deadlineOf(game);
        const due = next !== null && Date.parse(next.at) <= now.getTime();
        if (due && attempt === 1 && (next.seat !== target.seat || next.at !== target.at)) {
          [target, version] = [next, game.version];
          continue;
        }
        // A due deadline the referee still refuses stays claimed for a while, not retried at once.
        await this.store.write(game.clock ? this.rowOf(game, due ? new Date(now.getTime() + LEASE_MS) : null) : { gameId: game.gameId, version: ANY_VERSION, ended: true });
        return false;
      }
    } catch (err) {
      this.logger.warn(`the deadline of game ${claim.gameId} (seat ${claim.seat}, due ${claim.dueAt.toISOString()}) was not decided: ${(err as Error).message}`);
      await this.store.release(claim.gameId).catch(() => undefined);
      return false;
    }
  }

  /** The game as stored (at least at `version`); null, its row dropped, when it cannot be played on. */
  private async current(gameId: string, version: number): Promise<LiveGame | null> {
    try {
      return await this.referee.game(gameId, version);
    } catch (err) {
      if (!(err instanceof RefereeError && UNPLAYABLE.has(err.code))) throw err;
      await this.store.write({ gameId, version: ANY_VERSION, ended: true });
      return null;
    }
  }

  /** Rows recomputed from their games, a batch at a time, while there are stale ones and some are fixed. */
  private async repair(): Promise<number> {
    let fixed = 0;
    for (;;) {
      const stale = await this.store.stale(SWEEP_BATCH);
      let written = 0;
      for (const { gameId, version } of stale) {
        try {
          const game = await this.current(gameId, version);
          if (game) await this.store.write(this.rowOf(game));
          written++;
        } catch (err) {
          this.logger.warn(`the deadline of game ${gameId} could not be recomputed: ${(err as Error).message}`);
        }
      }
      fixed += written;
      if (stale.length < SWEEP_BATCH || written === 0) break;
    }
    if (fixed > 0) this.logger.log(`recomputed ${fixed} lost or stale deadline${fixed === 1 ? '' : 's'}`);
    return fixed;
  }

  /** The timer for the earliest unclaimed deadline, capped at pollMs from now. */
  private async schedule(): Promise<void> {
    if (!this.running) return;
    const now = this.clock.now();
    const earliest = await this.store.earliest(now).catch((err) => {
      this.failed('looking for the next deadline', err);
      return null;
    });
    this.setTimer(earliest?.getTime() ?? Number.POSITIVE_INFINITY);
  }

  /** A deadline stored here that is due before the timer fires: wake for it. */
  private nearer(at: number): void {
    if (this.running && at < this.wakeAt) this.setTimer(at);
  }

  /** Wakes at `at` (clock time), or pollMs from now if that is sooner: a timer never waits longer (nor overflows). */
  private setTimer(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    const now = this.clock.now().getTime();
    const delay = Math.min(this.settings.pollMs, Math.max(0, at - now));
    this.wakeAt = now + delay;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wakeAt = Number.POSITIVE_INFINITY;
      void this.tick().catch((err) => this.failed('a tick', err));
    }, delay);
    this.timer.unref();
  }

  private failed(what: string, err: unknown): void {
    this.logger.warn(`deadlines: ${what} failed: ${(err as Error)?.message ?? String(err)}`);
  }
}
