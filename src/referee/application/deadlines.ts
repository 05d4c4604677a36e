import { Logger } from '@nestjs/common';
import { RefereeError } from '../core/errors.js';
import { type ClockState, deadlineMs, deadlineOf, nextDeadline, stampTime } from '../core/game/clock.js';
import { type ClaimedDeadline, DEADLINES, type DeadlineStore, type DeadlineWrite } from '../store/deadline-store.js';
import type { Clock } from './clock.js';
import type { ConsequenceHandler } from './consequences.js';
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

/** The games as stored, for the worker (the application's live games). */
export interface GameLoader {
  /** The game at its stored version `atLeastVersion` or later. */
  stored(gameId: string, atLeastVersion: number): Promise<LiveGame>;
}

/** The TimeOut command, decided through the command path (stored at the expected version, or refused). */
export interface TimeOutCommand {
  timeOut(gameId: string, seat: number, at: string): Promise<{ accepted: true } | { accepted: false; code: string }>;
}

/**
 * How far off a stored row's time must be for a move to leave it as it is. No instance claims a
 * row before its time (by its own clock), so one this far off cannot be claimed, or rewritten by
 * a worker, while the move is stored: instances' clocks must agree within this margin.
 */
export const STANDING_MARGIN_MS = 5 * 60_000;

/** When a row wakes the worker: its deadline or its warning, whichever comes first; null: neither. */
export function wakeOf(row: DeadlineWrite): number | null {
  if (row.ended) return null;
  const times = [row.dueAt, row.warnAt ?? null].flatMap((d) => (d ? [d.getTime()] : []));
  return times.length > 0 ? Math.min(...times) : null;
}

/**
 * Whether a game's stored row, which wakes the worker at `stored` (known to this instance: it
 * stored that row, and every move of the game since), may stay as it is after a move whose own
 * row would wake it at `next`: it wakes the worker no later (the worker, finding nothing due
 * then, writes the exact row), and it is too far off for any instance to be deciding it now.
 * Most moves of a long game push its deadline later (time passes, increments, refills): they
 * write nothing. A row that would wake the worker sooner, a pause (no time), or a row near its
 * time is written with the move.
 */
export function rowStands(stored: number | null, next: number | null, now: number): boolean {
  return stored !== null && next !== null && stored <= next && stored > now + STANDING_MARGIN_MS;
}

/** Games whose stored row this instance knows, at most (the oldest are forgotten: their next move writes its row). */
const MAX_KNOWN_ROWS = 50_000;

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
/** Larger than any game version: a removal that wins over every row. */
const ANY_VERSION = 2 ** 31 - 1;

/**
 * When a running seat next crosses one of its low-time thresholds (`thresholds[seat]`, seconds
 * left), in clock milliseconds; null when none will (no clock runs, or no threshold is wanted).
 * Crossings up to `told` (a time) were told already. Without `told` (a row computed afresh for a
 * version), nothing is known to be told: a threshold the seat is below already is due at once,
 * at the version's time. Telling it again is harmless: a message is one per threshold and turn.
 */
export function nextWarning(clock: ClockState, thresholds: readonly (readonly number[])[], told: number | null = null): number | null {
  if (clock.at === null) return null;
  const from = stampTime(clock.at);
  let next: number | null = null;
  for (let seat = 0; seat < clock.running.length; seat++) {
    const deadline = deadlineMs(clock, seat);
    if (deadline === null) continue;
    for (const seconds of thresholds[seat] ?? []) {
      const crossing = deadline - seconds * 1000;
      if (told !== null && crossing <= told) continue;
      const at = Math.max(crossing, from);
      if (next === null || at < next) next = at;
    }
  }
  return next;
}

/**
 * Makes deadlines act on their own, and tells low time. The `deadlines` table holds the next
 * deadline of each running game with a clock, and the next time a running seat crosses a
 * low-time threshold a listener asked for (`warnAt`): the worker is a consequence handler of the
 * games, so the row is stored in the statement that stores the move (rowsOf). The worker claims
 * the rows whose deadline or warning came (each goes to one instance; see DeadlineStore.claim).
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
export class DeadlineWorker implements ConsequenceHandler<LiveGame> {
  readonly projection = DEADLINES;
  private readonly logger = new Logger('Deadlines');
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  /** When the timer fires (clock milliseconds); Infinity when it is not set. */
  private wakeAt = Number.POSITIVE_INFINITY;
  /** Ticks and sweeps run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Games whose stored row this instance wrote with a move, and the versions it stands at (see rowsOf). */
  private readonly known = new Map<string, { version: number; wakeAt: number | null }>();

  constructor(
    private readonly store: DeadlineStore,
    private readonly clock: Clock,
    private readonly games: GameLoader,
    private readonly commands: TimeOutCommand,
    private readonly lowTime: LowTimeListeners,
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

  /** Decides every deadline and warning due now (after the tick or sweep in progress); answers how many timed out. */
  tick(): Promise<number> {
    return this.serially(() => this.apply());
  }

  /** Recomputes the deadlines of running games whose row is missing; answers how many. */
  sweep(): Promise<number> {
    return this.serially(() => this.repair());
  }

  /**
   * The row the command path stores with a move, as of `after` (a game without a clock has none,
   * and pays for nothing), unless the stored one stands (rowStands): known only when this
   * instance stored the game's row and every move since, so another instance's move, or a move
   * of this one that was not stored, is followed by a written row. Its warning follows the
   * low-time listeners' thresholds as they hold them (the webhooks cache them per game, as for
   * the move's own messages): a registration made or deleted counts from the game's next
   * stored version.
   */
  async rowsOf(before: LiveGame, after: LiveGame): Promise<DeadlineWrite[]> {
    if (!after.clock) return [];
    const row = await this.row(after, null);
    const known = this.known.get(after.gameId);
    return known?.version === before.version && rowStands(known.wakeAt, wakeOf(row), this.clock.now().getTime()) ? [] : [row];
  }

  /** The move was stored with `rows` (its row, or none when the stored one stood): the worker wakes for the row if it falls due before the worker's timer. */
  stored(before: LiveGame, after: LiveGame, rows: readonly unknown[]): void {
    const row = (rows[0] as DeadlineWrite | undefined) ?? null;
    const known = this.known.get(after.gameId);
    this.known.delete(after.gameId);
    if (row === null) {
      // The stored row stood: it is still the one known, now as of this version.
      if (known?.version === before.version) this.known.set(after.gameId, { ...known, version: after.version });
    } else if (!row.ended) {
      this.known.set(after.gameId, { version: after.version, wakeAt: wakeOf(row) });
      this.wakeFor(row);
    }
    if (this.known.size > MAX_KNOWN_ROWS) this.known.delete(this.known.keys().next().value!);
  }

  /**
   * The first row of a game stored without one (a creation, a tournament's pairing: far fewer
   * than moves), written after it. Nothing waits for it, and it never fails anything: a write
   * that fails or is lost is logged, and the sweep repairs it. A tick waits for the writes
   * queued before it.
   */
  started(game: LiveGame): void {
    this.store
      .writeComputed(game.clock ? this.row(game, null) : Promise.resolve(null))
      .then((row) => row && this.wakeFor(row))
      .catch((err: Error) => this.logger.warn(`the deadline of game ${game.gameId} at version ${game.version} was not stored (the sweep will): ${err.message}`));
  }

  /** The game's row as of its version: its deadline, and its next warning after `told` (see nextWarning). */
  private async row(game: LiveGame, told: number | null, claimedUntil: Date | null = null): Promise<DeadlineWrite> {
    if (game.ended || !game.clock) return { gameId: game.gameId, version: game.version, ended: true };
    const next = nextDeadline(game);
    // Nothing to warn of while no clock runs: the listeners are not even asked.
    const warnAt = next && nextWarning(game.clock, await this.lowTime.lowTimeThresholds(game), told);
    return { gameId: game.gameId, seat: next?.seat ?? null, dueAt: next && new Date(next.ms), warnAt: warnAt === null ? null : new Date(warnAt), version: game.version, claimedUntil };
  }

  /** Stores the game's row recomputed (see row); a game that has no clock after all loses its row. */
  private async rewrite(game: LiveGame, told: number | null, claimedUntil: Date | null = null): Promise<void> {
    await this.store.write(game.clock ? await this.row(game, told, claimedUntil) : { gameId: game.gameId, version: ANY_VERSION, ended: true });
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
