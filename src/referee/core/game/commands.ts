import type { ImportedRecord, Outcome, Result, Seat } from '../../../engines/kit/index.js';
import type { Aggregate, DraftEvent } from '../stream.js';
import type { ClockActor, TimeControl } from './clock.js';
import type { GameEvent } from './events.js';
import type { GameState } from './state.js';

/** What a game's decider takes and gives. */

export interface SeatPlan {
  name: string | null;
  clientSeed: string | null;
  /** Whether the seat has its player now (an open seat is joined later). */
  taken: boolean;
  /** The player (id) the seat is bound to, if any: that player's key acts as the seat. */
  player?: string | null;
}

export type GameCommand =
  /** Without `seats`, every seat is taken now, unnamed. `timeControl` as parseTimeControl gives it; absent or null: no clock. */
  /** `rated`: the game counts for its players' ratings; every seat must be bound to a player (RATED_NEEDS_PLAYERS). */
  | { type: 'CreateGame'; gameId: string; kind: string; ruleset: unknown; seats: SeatPlan[] | null; timeControl?: TimeControl | null; rated?: boolean }
  /** An imported record carries no clock: the game has no time control. */
  | { type: 'ImportGame'; gameId: string; kind: string; record: ImportedRecord }
  /** `seats` as they are before the join; without `seat`, the first open one. */
  | { type: 'JoinSeat'; seat: Seat | null; name: string | null; clientSeed: string | null; seats: SeatPlan[]; player?: string | null }
  | { type: 'TakeAction'; seat: Seat; moveId: string; bodyHash: string; action: unknown; expectedVersion: number | null }
  | { type: 'Resign'; seat: Seat; moveId: string; bodyHash: string; expectedVersion: number | null }
  /** A tournament organizer's result for the game: it ends with that outcome (never by a seat). */
  | { type: 'Adjudicate'; outcome: Outcome; reason: string; entry?: Record<string, unknown> }
  /** The referee's deadline worker: the seat's time ran out `at` (its deadline; the events are stamped then, not now). */
  | { type: 'TimeOut'; seat: Seat; at: string }
  /** Time for `seat`: from the organizer, a gift from another seat, or a vacation the seat takes (correspondence). */
  | { type: 'AddTime'; seat: Seat; ms: number; by: ClockActor; vacation: boolean }
  /** A seat asks to pause (the clock pauses once every seat asked), or the organizer pauses it. */
  | { type: 'PauseClock'; by: ClockActor }
  /** A seat asks to resume the seats' pause (it resumes once every seat asked), or the organizer resumes any pause. */
  | { type: 'ResumeClock'; by: ClockActor }
  /** The seat declines the other seats' request to pause: the requests are withdrawn, the clocks run on. */
  | { type: 'DeclinePause'; seat: Seat }
  /** The seat ends a game nobody moved in yet, with no result (refused once a seat moved: ABORT_TOO_LATE). */
  | { type: 'AbortGame'; seat: Seat };

export interface DecideContext {
  /** When the referee decides (ISO 8601): every event is stamped with it (a TimeOut's with its `at`). */
  now: string;
  serverSeed: string;
  /** Chance values to use, in order, before fair draws (an organizer's deal). */
  supplied: readonly number[][];
}

/** An event decided, with the states around it (to serve it to each viewer). */
export interface DecidedEvent {
  draft: DraftEvent;
  before: unknown;
  after: unknown;
}

export interface Decision {
  game: GameState;
  steps: DecidedEvent[];
  /** The seat a JoinSeat took. */
  seat?: Seat;
}

/** What folding needs: the referee's own seed (its live check) or the revealed one (offline); null skips recomputing draws. */
export interface EvolveContext {
  serverSeed: string | null;
}

/** The game aggregate: what folding needs, and decide. */
export interface GameDecider extends Aggregate<GameState, GameEvent, EvolveContext> {
  decide(command: GameCommand, game: (GameState & { version: number }) | null, ctx: DecideContext): Result<Decision>;
  /** The same, pausing between slices of a long record's import (see foldInSlices). */
  decideInSlices(command: GameCommand, game: (GameState & { version: number }) | null, ctx: DecideContext): Generator<void, Result<Decision>>;
}
