import { Logger } from '@nestjs/common';
import { RefereeError } from '../core/errors.js';
import { deadlineMs, deadlineOf, nextDeadline } from '../core/game/clock.js';
import type { ClaimedDeadline, DeadlineStore, DeadlineWrite } from '../store/deadline-store.js';
import type { Clock } from './clock.js';
import { ANY_VERSION, DeadlineRows, wakeOf } from './deadline-rows.js';
import type { LiveGame } from './live-games.js';
import type { LowTimeListeners } from './low-time.js';
import type { RefereeMetrics } from './metrics.port.js';

export interface DeadlineSettings {
  /** Most milliseconds between two looks for due deadlines (sooner when one is due sooner). */
  pollMs: number;
  /** Milliseconds between two sweeps that recompute lost deadlines. */
  sweepMs: number;
}

/** The DI token of the worker's DeadlineSettings (the host's configuration). */
export const DEADLINE_SETTINGS = Symbol('DeadlineSettings');

/** The DI token of whether this process takes steps in the background (the host's `backgroundWork`; true when absent). */
export const BACKGROUND_WORK = Symbol('BackgroundWork');

/** The games as stored, for the worker (the application's live games). */
export interface GameLoader {
  /** The game at its stored version `atLeastVersion` or later. */
  stored(gameId: string, atLeastVersion: number): Promise<LiveGame>;
}

/** The TimeOut command, decided through the command path (stored at the expected version, or refused). */
export interface TimeOutCommand {
  timeOut(gameId: string, seat: number, at: string): Promise<{ accepted: true } | { accepted: false; code: string }>;
}

/** Deadlines claimed at once, and decided concurrently (their appends are written in groups). */
const BATCH = 100;
/** How long a claim keeps other instances off a deadline: a process that dies while deciding leaves it to them after that. */
const LEASE_MS = 30_000;
/** Games without a row recomputed per query of a sweep. */
const SWEEP_BATCH = 500;
/** Refusals that say nothing about the deadline: give it back, to be decided again. */
const TRANSIENT = new Set(['SHUTTING_DOWN', 'STORAGE_UNAVAILABLE']);
/** Refusals of a game that cannot be played on: its deadline row goes. */
const UNPLAYABLE = new Set(['NOT_FOUND', 'INTEGRITY_ERROR']);

/**
 * Makes deadlines act on their own, and tells low time. The `deadlines` table holds the next
 * deadline of each running game with a clock, and the next time a running seat crosses a
 * low-time threshold a listener asked for (`warnAt`): the rows are a projection of the games'
 * appends (DeadlineRows), stored in the statement that stores each move. The worker claims the
 * rows whose deadline or warning came (each goes to one instance; see DeadlineStore.claim).
 *
 * A deadline: a TimeOut decided through the normal command path, stamped with the deadline
 * itself, so a deadline that passed while no instance ran is applied with its own time. Exactly
 * once: the TimeOut is appended at the game's expected version, so an instance that races for
 * the same deadline (or decides from a stale row) gets a conflict or NOT_TIMED_OUT and stores
 * nothing; the row is then recomputed from the game.
 *
 * A warning: each running seat at or below a threshold of its own is told, from the game as
 * stored and the time now (LowTimeListener.timeRunningLow; the webhooks' tell once per threshold
 * and turn, by message id, so a second instance or a retry adds nothing), and the row gets the
 * next warning after now.
 * One that came while no instance ran is told at start-up if the turn is still on; if the
 * deadline came too, only the timeout is.
 *
 * A stored row may be older than its game: a move that pushed the deadline later left it as it
 * was (see rowStands). It then wakes the worker early, never late: the worker finds nothing due
 * and writes the exact row (timeOut, warn).
 *
 * A missing row is recomputed from its game by the sweep (a new game's, written just after the
 * game, lost to a crash) at start-up and then every `sweepMs`. The worker wakes
 * at the earliest due time, at most `pollMs` after its last look (another instance's nearer one
 * is seen then), and as soon as a nearer one is stored here. Time is the injected clock's: tests
 * move it and call tick().
 */
export class DeadlineWorker {
  private readonly logger = new Logger('Deadlines');
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  /** When the timer fires (clock milliseconds); Infinity when it is not set. */
  private wakeAt = Number.POSITIVE_INFINITY;
  /** Ticks and sweeps run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The deadlines' projection of the games' appends: the rows it stores with the moves, and computes for the worker. */
  readonly rows: DeadlineRows;

  constructor(
    private readonly store: DeadlineStore,
    private readonly clock: Clock,
    private readonly games: GameLoader,
    private readonly commands: TimeOutCommand,
    private readonly lowTime: LowTimeListeners,
    private readonly metrics: RefereeMetrics,
    private readonly settings: DeadlineSettings,
  ) {
    this.rows = new DeadlineRows(clock, lowTime, (row) => this.wakeFor(row));
  }

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

  /** Decides every deadline and warning due now (after the tick or sweep in progress); answers how many timed out. */
  tick(): Promise<number> {
    return this.serially(() => this.apply());
  }

  /** Recomputes the deadlines of running games whose row is missing; answers how many. */
  sweep(): Promise<number> {
    return this.serially(() => this.repair());
  }

  /** Stores the game's row recomputed (see row); a game that has no clock after all loses its row. */
  private async rewrite(game: LiveGame, told: number | null, claimedUntil: Date | null = null): Promise<void> {
    await this.store.write(game.clock ? await this.rows.of(game, told, claimedUntil) : { gameId: game.gameId, version: ANY_VERSION, ended: true });
  }

  private serially<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.catch(() => undefined).then(run);
    this.queue = next;
    return next;
  }

  /** Claims and decides due deadlines and warnings, a batch at a time, until none is due; then sets the timer for the next. */
  private async apply(): Promise<number> {
    let timedOut = 0;
    try {
      // The rows of the games created here so far (started).
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

  /** One claimed row: its deadline if that came (answers whether the game timed out), else its warning. Never throws. */
  private async decide(claim: ClaimedDeadline, now: Date): Promise<boolean> {
    const due = claim.dueAt.getTime() <= now.getTime();
    try {
      if (due) return await this.timeOut(claim, now);
      await this.warn(claim, now);
      return false;
    } catch (err) {
      const what = due ? `deadline (seat ${claim.seat}, due ${claim.dueAt.toISOString()})` : `low-time warning (due ${claim.warnAt?.toISOString()})`;
      this.logger.warn(`the ${what} of game ${claim.gameId} was not decided: ${(err as Error).message}`);
      await this.store.release(claim.gameId).catch(() => undefined);
      return false;
    }
  }

  /**
   * A due deadline: its TimeOut through the command path. When refused (the row was stale: the
   * game moved on, ended, or another instance timed it out first), the row is recomputed from
   * the game, and a deadline of the game that is due after all is decided at once.
   */
  private async timeOut(claim: ClaimedDeadline, now: Date): Promise<boolean> {
    let target = { seat: claim.seat, at: claim.dueAt.toISOString() };
    let version = claim.version;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.commands.timeOut(claim.gameId, target.seat, target.at);
      if (answer.accepted) {
        // The command path stored the game's next row with the TimedOut.
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
      await this.rewrite(game, null, due ? new Date(now.getTime() + LEASE_MS) : null);
      return false;
    }
  }

  /**
   * A warning came: each running seat of the game as stored whose time left now is at or below
   * one of its thresholds is told, then the row gets the next warning after now. A stale row is
   * only a reason to look: a game that moved on is told what its own clocks say. A deadline that
   * came meanwhile is left to its timeout (the row, recomputed, is due at once).
   */
  private async warn(claim: ClaimedDeadline, now: Date): Promise<void> {
    // No listener (webhooks not running yet, or any more): the claim lapses after its lease, and the warning is told then.
    if (!this.lowTime.listening) return;
    const game = await this.current(claim.gameId, claim.version);
    if (!game) return;
    const next = game.clock && !game.ended ? nextDeadline(game) : null;
    if (!next || next.ms <= now.getTime()) return this.rewrite(game, null);
    const clock = game.clock!;
    const thresholds = await this.lowTime.lowTimeThresholds(game);
    for (let seat = 0; seat < clock.running.length; seat++) {
      const deadline = deadlineMs(clock, seat);
      const left = deadline === null ? null : deadline - now.getTime();
      if (left !== null && (thresholds[seat] ?? []).some((t) => left <= t * 1000)) await this.lowTime.timeRunningLow(game, seat, left);
    }
    return this.rewrite(game, now.getTime());
  }

  /** The game as stored (at least at `version`); null, its row dropped, when it cannot be played on. */
  private async current(gameId: string, version: number): Promise<LiveGame | null> {
    try {
      return await this.games.stored(gameId, version);
    } catch (err) {
      if (!(err instanceof RefereeError && UNPLAYABLE.has(err.code))) throw err;
      await this.store.write({ gameId, version: ANY_VERSION, ended: true });
      return null;
    }
  }

  /** Rows recomputed from their games, a batch at a time, while some are missing and some are fixed. */
  private async repair(): Promise<number> {
    let fixed = 0;
    for (;;) {
      const missing = await this.store.missing(SWEEP_BATCH);
      let written = 0;
      for (const { gameId, version } of missing) {
        try {
          const game = await this.current(gameId, version);
          if (game) await this.rewrite(game, null);
          written++;
        } catch (err) {
          this.logger.warn(`the deadline of game ${gameId} could not be recomputed: ${(err as Error).message}`);
        }
      }
      fixed += written;
      if (missing.length < SWEEP_BATCH || written === 0) break;
    }
    if (fixed > 0) this.logger.log(`recomputed ${fixed} lost deadline${fixed === 1 ? '' : 's'}`);
    return fixed;
  }

  /** The timer for the earliest unclaimed deadline or warning, capped at pollMs from now. */
  private async schedule(): Promise<void> {
    if (!this.running) return;
    const now = this.clock.now();
    const earliest = await this.store.earliest(now).catch((err) => {
      this.failed('looking for the next deadline', err);
      return null;
    });
    this.setTimer(earliest?.getTime() ?? Number.POSITIVE_INFINITY);
  }

  /** A row stored here: wake for its deadline or warning if that is due before the timer fires. */
  private wakeFor(row: DeadlineWrite): void {
    const at = wakeOf(row);
    if (this.running && at !== null && at < this.wakeAt) this.setTimer(at);
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
