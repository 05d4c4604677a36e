import { type ClockState, deadlineMs, nextDeadline, stampTime } from '../core/game/clock.js';
import { DEADLINES, type DeadlineWrite } from '../store/deadline-store.js';
import type { Clock } from './clock.js';
import type { ConsequenceHandler } from './consequences.js';
import type { LiveGame } from './live-games.js';
import type { LowTimeListeners } from './low-time.js';

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

/** Games whose stored row this instance knows, at most (the oldest are forgotten: their next move writes its row). */
const MAX_KNOWN_ROWS = 50_000;

/** Larger than any game version: a removal that wins over every row. */
export const ANY_VERSION = 2 ** 31 - 1;

/**
 * The deadlines as a projection of the games' appends: a game's row as of a version (its next
 * deadline, and its next low-time warning), stored with the move that makes it (rowsOf, in the
 * move's one statement, or a new game's). The deadline worker computes its rows
 * here too, and is woken (`wake`) for each row stored here that falls due before its timer.
 */
export class DeadlineRows implements ConsequenceHandler<LiveGame> {
  readonly projection = DEADLINES;
  /** Games whose stored row this instance wrote with a move, and the versions it stands at (see rowsOf). */
  private readonly known = new Map<string, { version: number; wakeAt: number | null }>();

  constructor(
    private readonly clock: Clock,
    private readonly lowTime: LowTimeListeners,
    private readonly wake: (row: DeadlineWrite) => void,
  ) {}

  /**
   * The row the command path stores with a move, as of `after` (a game without a clock has none,
   * and pays for nothing), unless the stored one stands (rowStands): known only when this
   * instance stored the game's row and every move since, so another instance's move, or a move
   * of this one that was not stored, is followed by a written row. Its warning follows the
   * low-time listeners' thresholds as they hold them (the webhooks cache them per game, as for
   * the move's own messages): a registration made or deleted counts from the game's next
   * stored version.
   */
  async rowsOf(before: LiveGame | null, after: LiveGame): Promise<DeadlineWrite[]> {
    if (!after.clock) return [];
    const row = await this.of(after, null);
    const known = this.known.get(after.gameId);
    return before && known?.version === before.version && rowStands(known.wakeAt, wakeOf(row), this.clock.now().getTime()) ? [] : [row];
  }

  /** The move was stored with `rows` (its row, or none when the stored one stood): the worker wakes for the row if it falls due before the worker's timer. */
  stored(before: LiveGame | null, after: LiveGame, rows: readonly unknown[]): void {
    const row = (rows[0] as DeadlineWrite | undefined) ?? null;
    const known = this.known.get(after.gameId);
    this.known.delete(after.gameId);
    if (row === null) {
      // The stored row stood: it is still the one known, now as of this version.
      if (before && known?.version === before.version) this.known.set(after.gameId, { ...known, version: after.version });
    } else if (!row.ended) {
      this.known.set(after.gameId, { version: after.version, wakeAt: wakeOf(row) });
      this.wake(row);
    }
    if (this.known.size > MAX_KNOWN_ROWS) this.known.delete(this.known.keys().next().value!);
  }

  /** The game's row as of its version: its deadline, and its next warning after `told` (see nextWarning). */
  async of(game: LiveGame, told: number | null, claimedUntil: Date | null = null): Promise<DeadlineWrite> {
    if (game.ended || !game.clock) return { gameId: game.gameId, version: game.version, ended: true };
    const next = nextDeadline(game);
    // Nothing to warn of while no clock runs: the listeners are not even asked.
    const warnAt = next && nextWarning(game.clock, await this.lowTime.lowTimeThresholds(game), told);
    return { gameId: game.gameId, seat: next?.seat ?? null, dueAt: next && new Date(next.ms), warnAt: warnAt === null ? null : new Date(warnAt), version: game.version, claimedUntil };
  }
}
