import type { Engine, Outcome } from '../../../engines/kit/index.js';
import { type ClockState, newClock } from './clock.js';
import type { GameCreatedPayload } from './events.js';
import type { Ending } from './outcome-words.js';

/** ABORTED: ended by a seat before any seat moved, with no result. */
export type GameStatus = 'WAITING' | 'ACTIVE' | 'FINISHED' | 'ABORTED';

/** Everything the referee knows of a game from its events (the stream head aside). */
export interface GameState {
  gameId: string;
  kind: string;
  engine: Engine;
  ruleset: unknown;
  rulesetHash: string;
  seatCount: number;
  seatNames: (string | null)[];
  /** The player each seat is bound to (null: none, an anonymous seat token's or open). */
  seatPlayers: (string | null)[];
  /** The engine's state. */
  state: unknown;
  started: boolean;
  mix: string | null;
  /** Next fair-draw counter. */
  counter: number;
  randomSource: 'fair' | 'supplied';
  imported: boolean;
  seedCommitment: string;
  ended: boolean;
  outcome: Outcome | null;
  /** How it ended (a concession, a timeout, the organizer, the rules, an abort); a concession's is known from its event, before GameEnded. */
  ending: Ending | null;
  /** A seat made a move of its own (the referee's forced and auto-played ones aside): the game can no longer be aborted. */
  moved: boolean;
  revealedSeed: string | null;
  /** Fair chance events whose values were recomputed from the seed. */
  fairDrawsChecked: number;
  /** Chance events answered with supplied values (an organizer's deal, an imported record). */
  suppliedUsed: number;
  /** The clocks, for a game created with a time control. */
  clock: ClockState | null;
  /** The game counts for its players' ratings. */
  rated: boolean;
}

/** A game before any event after GameCreated: what a new game and a fold both start from. */
export function genesis(gameId: string, engine: Engine, created: GameCreatedPayload): GameState {
  const state = engine.init(created.ruleset);
  return {
    gameId,
    kind: engine.kind,
    engine,
    ruleset: created.ruleset,
    rulesetHash: created.rulesetHash,
    seatCount: created.seats.length,
    seatNames: created.seats.map((s) => s.name ?? null),
    seatPlayers: created.seats.map((s) => s.player ?? null),
    state,
    started: false,
    mix: null,
    counter: 0,
    randomSource: created.randomSource,
    imported: created.imported,
    seedCommitment: created.seedCommitment,
    ended: false,
    outcome: null,
    ending: null,
    moved: false,
    revealedSeed: null,
    fairDrawsChecked: 0,
    suppliedUsed: 0,
    clock: created.timeControl ? newClock(created.timeControl, created.seats.length, engine.roundOf?.(state) ?? null) : null,
    rated: created.rated === true,
  };
}

export function statusOf(game: Pick<GameState, 'ended' | 'started' | 'ending'>): GameStatus {
  if (game.ended) return game.ending?.reason === 'aborted' ? 'ABORTED' : 'FINISHED';
  return game.started ? 'ACTIVE' : 'WAITING';
}

/** Whether some events must be served to each viewer through the engine's views. */
export const hidesInformation = (engine: Engine): boolean => Boolean(engine.actionView || engine.chanceView);
