import type { ImportedRecord, Outcome, Result, Seat } from '../../../engines/kit/index.js';
import type { Aggregate, DraftEvent } from '../stream.js';
import type { GameEvent } from './events.js';
import type { GameState } from './state.js';

/** What a game's decider takes and gives. */

export interface SeatPlan {
  name: string | null;
  clientSeed: string | null;
  /** Whether the seat has its player now (an open seat is joined later). */
  taken: boolean;
}

export type GameCommand =
  /** Without `seats`, every seat is taken now, unnamed. */
  | { type: 'CreateGame'; gameId: string; kind: string; ruleset: unknown; seats: SeatPlan[] | null }
  | { type: 'ImportGame'; gameId: string; kind: string; record: ImportedRecord }
  /** `seats` as they are before the join; without `seat`, the first open one. */
  | { type: 'JoinSeat'; seat: Seat | null; name: string | null; clientSeed: string | null; seats: SeatPlan[] }
  | { type: 'TakeAction'; seat: Seat; moveId: string; bodyHash: string; action: unknown; expectedVersion: number | null }
  | { type: 'Resign'; seat: Seat; moveId: string; bodyHash: string; expectedVersion: number | null }
  /** A tournament organizer's result for the game: it ends with that outcome (never by a seat). */
  | { type: 'Adjudicate'; outcome: Outcome; reason: string };

export interface DecideContext {
  /** When the referee decides (ISO 8601): every event is stamped with it. */
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
