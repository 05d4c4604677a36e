import type { Outcome, Seat } from '../../engines/kit/index.js';
import { clockView, deadlineMs, isoOf, type TimeoutRule } from '../core/game/clock.js';
import { decodeGameEvent } from '../core/game/events.js';
import type { Ending } from '../core/game/outcome-words.js';
import type { StoredEvent } from '../core/stream.js';
import { type GameSnapshot, resultOf, seatsToAct } from './game-answer.js';

/** How a game ended, as a notice names it. */
export type EndReason = 'by_rule' | 'resigned' | 'on_time' | 'adjudicated' | 'aborted';

const REASONS: Record<Ending['reason'], EndReason> = { rules: 'by_rule', resigned: 'resigned', time: 'on_time', adjudicated: 'adjudicated', aborted: 'aborted' };

/**
 * What a batch of a game's events tells its seats, each notice with the seats it is for (`to`):
 * the players' stream and webhooks send it to whoever holds those seats.
 */
export type GameNotice =
  /** Every seat is taken and play began. */
  | { type: 'GAME_STARTED'; to: Seat[] }
  /** The seat is now to act (and was not before): its deadline and time left, if its clock runs. */
  | { type: 'YOUR_TURN'; to: Seat[]; seat: Seat; deadline: string | null; remainingMs: number | null }
  | { type: 'TIMED_OUT'; to: Seat[]; seat: Seat; rule: TimeoutRule }
  /** The game is over: why, and its result in words (none for an aborted game). */
  | { type: 'GAME_OVER'; to: Seat[]; reason: EndReason; result: Outcome | null }
  /** The seat asks to pause the clocks: the others are asked to agree. */
  | { type: 'PAUSE_REQUESTED'; to: Seat[]; seat: Seat }
  /** Time was given to the seat, by another seat (bySeat) or the organizer (null). */
  | { type: 'TIME_GIVEN'; to: Seat[]; seat: Seat; ms: number; bySeat: Seat | null }
  /** The seat took vacation (correspondence): the others' wait is longer by `ms`. */
  | { type: 'OPPONENT_ON_VACATION'; to: Seat[]; seat: Seat; ms: number };

/** A notice's type as the players' stream and the webhooks name it (Standard Webhooks: dotted, lower case). */
export const NOTICE_TYPES: Record<GameNotice['type'], string> = {
  GAME_STARTED: 'game.started',
  YOUR_TURN: 'game.your_turn',
  TIMED_OUT: 'game.timed_out',
  GAME_OVER: 'game.over',
  PAUSE_REQUESTED: 'game.pause_requested',
  TIME_GIVEN: 'game.time_given',
  OPPONENT_ON_VACATION: 'game.opponent_on_vacation',
};

/**
 * The notices the events that take a game from `before` (null: a new game, created or paired)
 * to `after` imply, in order: what the events themselves tell (time given, a pause asked for,
 * a timeout), then the start, the seats now to act, and the end.
 */
export function noticesOf(before: GameSnapshot | null, after: GameSnapshot, events: readonly StoredEvent[]): GameNotice[] {
  const all = after.seats.map((s) => s.index);
  const others = (seat: Seat) => all.filter((s) => s !== seat);
  const notices = events.flatMap((stored): GameNotice[] => {
    const e = decodeGameEvent(stored);
    if (!e.ok) return [];
    const event = e.value;
    switch (event.type) {
      case 'TimeAdded': {
        const { seat, ms, by, vacation } = event.payload;
        if (vacation) return [{ type: 'OPPONENT_ON_VACATION', to: others(seat), seat, ms }];
        return by === seat ? [] : [{ type: 'TIME_GIVEN', to: [seat], seat, ms, bySeat: by === 'organizer' ? null : by }];
      }
      case 'PauseRequested':
        return [{ type: 'PAUSE_REQUESTED', to: others(event.payload.seat), seat: event.payload.seat }];
      case 'TimedOut':
        return [{ type: 'TIMED_OUT', to: all, seat: event.payload.seat, rule: event.payload.rule }];
      default:
        return [];
    }
  });
  if (after.started && !before?.started) notices.push({ type: 'GAME_STARTED', to: all });
  const wasToAct = before ? seatsToAct(before) : [];
  const at = events.at(-1)?.createdAt;
  const clocks = after.clock && at ? clockView(after, at) : null;
  for (const seat of seatsToAct(after)) {
    if (wasToAct.includes(seat)) continue;
    const due = after.clock ? deadlineMs(after.clock, seat) : null;
    notices.push({ type: 'YOUR_TURN', to: [seat], seat, deadline: due === null ? null : isoOf(due), remainingMs: clocks?.remainingMs[seat] ?? null });
  }
  if (after.ended && !before?.ended) notices.push({ type: 'GAME_OVER', to: all, reason: REASONS[after.ending?.reason ?? 'rules'], result: resultOf(after) });
  return notices;
}
