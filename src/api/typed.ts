/**
 * Typed answers of the generic API: the unions over the games (state, legal moves, outcome
 * detail, actions) and the typed detail of each event. Each game builds its members (see
 * src/games/typed-game.ts); the JSON fields (`view`, `legalActions`, `result`, `payload`) stay
 * for generic clients.
 */
import { Field, Float, Int, ObjectType, createUnionType } from '@nestjs/graphql';
import { backgammonEngine } from '../engines/backgammon/index.js';
import { cerkeEngine } from '../engines/cerke/index.js';
import { chickenFootEngine } from '../engines/chicken-foot/index.js';
import type { Outcome } from '../engines/kit/index.js';
import { BackgammonActionTaken, BackgammonLegalActions, BackgammonOutcome } from '../games/backgammon/dto/answers.js';
import { BackgammonPosition } from '../games/backgammon/dto/position.js';
import { backgammonTyped } from '../games/backgammon/typed.js';
import { CerkeLegalAction, CerkeLegalActions } from '../games/cerke/dto/actions.js';
import { CerkeOutcome, CerkeStateModel } from '../games/cerke/dto/state.model.js';
import { cerkeTyped } from '../games/cerke/typed.js';
import { ChickenFootActionTaken, ChickenFootLegalActions, ChickenFootOutcome } from '../games/chicken-foot/dto/answers.js';
import { ChickenFootTable } from '../games/chicken-foot/dto/table.js';
import { chickenFootTyped } from '../games/chicken-foot/typed.js';
import { type TypedGame, typedAs } from '../games/typed-game.js';
import { hashOf } from '../referee/core/canonical.js';
import { decodeServedEvent } from '../referee/core/game/views.js';
import type { StoredEvent } from '../referee/core/stream.js';
import type { GameAnswer, GameSnapshot } from '../referee/application/game-answer.js';
import { JSONScalar } from './json.scalar.js';

/** The games with typed answers, by kind; another kind (a test engine) answers null in the typed fields and JSON as ever. */
type Typed = TypedGame<typeof GameState, typeof LegalMoves, typeof OutcomeDetail, typeof GameAction>;
const TYPED: Readonly<Record<string, Typed>> = {
  [backgammonEngine.kind]: backgammonTyped,
  [chickenFootEngine.kind]: chickenFootTyped,
  [cerkeEngine.kind]: cerkeTyped,
};
const typedGame = (kind: string): Typed | null => (Object.hasOwn(TYPED, kind) ? TYPED[kind] : null);

/** Every member is built as an instance of its class (typedAs): the class names the member. */
const byClass = (value: object) => value.constructor as never;

export const GameState = createUnionType({
  name: 'GameState',
  description: "A game as the caller may see it, typed per game (the same as the game's own query: backgammonPosition, chickenFootTable, cerkeState)",
  types: () => [BackgammonPosition, ChickenFootTable, CerkeStateModel] as const,
  resolveType: byClass,
});

export const LegalMoves = createUnionType({
  name: 'LegalMoves',
  description: "What the caller's seat may do now, typed per game (empty for spectators and out of turn)",
  types: () => [BackgammonLegalActions, ChickenFootLegalActions, CerkeLegalActions] as const,
  resolveType: byClass,
});

export const OutcomeDetail = createUnionType({
  name: 'OutcomeDetail',
  description: 'How a game ended, in its own terms',
  types: () => [BackgammonOutcome, ChickenFootOutcome, CerkeOutcome] as const,
  resolveType: byClass,
});

export const GameAction = createUnionType({
  name: 'GameAction',
  description: 'An action a seat took, typed per game, as the viewer may see it',
  types: () => [BackgammonActionTaken, ChickenFootActionTaken, CerkeLegalAction] as const,
  resolveType: byClass,
});

@ObjectType({ description: 'How a finished game ended' })
export class GameOutcome {
  @Field(() => [Int], { description: 'Seat indexes that won (several on a tie; none when nobody won)' }) winners: number[];
  @Field(() => [Int], { description: "Final score per seat, in the game's own unit (match points, round totals, Cerke points)" }) points: number[];
  @Field({ description: 'One line a person can read' }) summary: string;
  @Field(() => OutcomeDetail, { nullable: true, description: 'The game-specific detail, typed' }) detail: typeof OutcomeDetail | null;
}

// ------------------------------------------------------------------ event details

@ObjectType({ description: 'The game was created' })
export class GameCreatedDetail {
  @Field({ description: 'The game kind' }) kind: string;
  @Field(() => JSONScalar, { description: 'The complete ruleset (engine spelling)' }) ruleset: unknown;
  @Field({ description: 'SHA-256 of the canonical ruleset' }) rulesetHash: string;
  @Field(() => [String], { nullable: 'items', description: 'Seat names, seat 0 first (null: unnamed)' }) seatNames: (string | null)[];
  @Field({ description: 'SHA-256 of the server seed' }) seedCommitment: string;
  @Field({ description: '"fair" (drawn by the referee) or "supplied" (organizer deal or imported record)' }) randomSource: string;
  @Field({ description: 'The game was imported from a record' }) imported: boolean;
}

@ObjectType({ description: 'A player took an open seat' })
export class SeatJoinedDetail {
  @Field(() => Int, { description: 'The seat taken' }) seat: number;
  @Field(() => String, { nullable: true, description: "The player's name, if given" }) name: string | null;
}

@ObjectType({ description: 'Every seat was taken: play began' })
export class GameStartedDetail {
  @Field(() => [String], { nullable: 'items', description: 'Client seeds mixed into the randomness, per seat (null: none given)' }) clientSeeds: (string | null)[];
}

@ObjectType({ description: 'A seat acted' })
export class ActionTakenDetail {
  @Field(() => Int, { description: 'The seat that acted' }) seat: number;
  @Field(() => GameAction, { nullable: true, description: 'The action, typed per game, as the viewer may see it (null for a game without typed answers)' })
  action: typeof GameAction | null;
}

@ObjectType({ description: 'A seat conceded the whole game' })
export class ResignedDetail {
  @Field(() => Int, { description: 'The seat that resigned' }) seat: number;
}

@ObjectType({ description: 'The referee drew random values for the game (dice, a shuffle, a stick cast)' })
export class ChanceDrawnDetail {
  @Field({ description: 'What was drawn: backgammon OpeningRoll, DiceRolled; Chicken Foot FirstDealerDrawn, TilesShuffled; Cerke FirstMoverCast, SticksCast (the stored event type)' })
  label: string;
  @Field(() => [Int], {
    nullable: true,
    description:
      "The values in the game's own terms: backgammon pips 1-6 (OpeningRoll: White's die, then Black's); Cerke sticks, 1 for the marked face (FirstMoverCast: IA's five, then A's five); Chicken Foot the first dealer's seat, or a shuffle's Fisher-Yates picks. Null while hidden (a shuffle, until the game ends). The stored payload keeps the drawn values (0 to range - 1)",
  })
  values: number[] | null;
  @Field(() => String, { nullable: true, description: 'For a hidden draw: SHA-256 of the canonical JSON of the drawn values, to check them once they are revealed' })
  commitment: string | null;
  @Field({ description: 'The values are hidden from the players while the game runs' }) hidden: boolean;
  @Field({ description: '"fair" (drawn from the seed) or "supplied" (organizer deal or imported record)' }) source: string;
  @Field(() => JSONScalar, { nullable: true, description: 'What the viewer is shown of a hidden draw while the game runs (Chicken Foot: the deal, with its own hand for a seat)' })
  seen: unknown;
}

@ObjectType({ description: 'The game is over' })
export class GameEndedDetail {
  @Field(() => GameOutcome, { description: 'How it ended' }) outcome: GameOutcome;
  @Field(() => String, { nullable: true, description: 'Why the organizer decided the outcome (a tournament result entered over the board, a forfeit); null when the rules ended the game' })
  adjudication: string | null;
}

@ObjectType({ description: 'The server seed was revealed: every fair draw can now be recomputed' })
export class SeedRevealedDetail {
  @Field({ description: 'The server seed (hex); its SHA-256 is the seed commitment' }) serverSeed: string;
}

@ObjectType({ description: "A seat's time ran out" })
export class TimedOutDetail {
  @Field(() => Int, { description: 'The seat out of time' }) seat: number;
  @Field({ description: 'What the ruleset makes of it: "concede" (the seat lost the game) or "autoPlay" (the referee plays for it until the round ends)' }) rule: string;
}

@ObjectType({ description: 'Time was added to a seat' })
export class TimeAddedDetail {
  @Field(() => Int, { description: 'The seat that got the time' }) seat: number;
  @Field(() => Float, { description: 'Milliseconds added' }) ms: number;
  @Field(() => Int, { nullable: true, description: "The seat that gave it (its own vacation, or a gift); null: the organizer of the game's tournament" }) bySeat: number | null;
  @Field({ description: "The seat's own vacation (correspondence), taken from its vacation allowance" }) vacation: boolean;
}

@ObjectType({ description: 'A seat asked to pause the clocks (they pause once every seat asked)' })
export class PauseRequestedDetail {
  @Field(() => Int, { description: 'The seat that asked' }) seat: number;
}

@ObjectType({ description: "A seat asked to resume the seats' pause (the clocks run once every seat asked)" })
export class ResumeRequestedDetail {
  @Field(() => Int, { description: 'The seat that asked' }) seat: number;
}

@ObjectType({ description: 'The clocks stopped' })
export class ClockPausedDetail {
  @Field({ description: '"organizer" (the organizer of the game\'s tournament paused them) or "seats" (every seat asked)' }) by: string;
}

@ObjectType({ description: 'The clocks run again' })
export class ClockResumedDetail {
  @Field({ description: '"organizer" (the organizer of the game\'s tournament resumed them) or "seats" (every seat asked)' }) by: string;
}

export const GameEventDetail = createUnionType({
  name: 'GameEventDetail',
  description: 'An event, typed: what happened in it, as the viewer may see it',
  types: () =>
    [
      GameCreatedDetail,
      SeatJoinedDetail,
      GameStartedDetail,
      ActionTakenDetail,
      ResignedDetail,
      ChanceDrawnDetail,
      GameEndedDetail,
      SeedRevealedDetail,
      TimedOutDetail,
      TimeAddedDetail,
      PauseRequestedDetail,
      ResumeRequestedDetail,
      ClockPausedDetail,
      ClockResumedDetail,
    ] as const,
  resolveType: byClass,
});

// ------------------------------------------------------------------ building them

/** The game as its answer shows it to the caller, typed; null for a game without typed answers. */
export function typedState(game: GameSnapshot, answer: GameAnswer): typeof GameState | null {
  return typedGame(game.kind)?.state(game, answer) ?? null;
}

/** The caller's legal actions, typed. */
export function typedLegalMoves(game: GameSnapshot, answer: GameAnswer): typeof LegalMoves | null {
  return typedGame(game.kind)?.legalMoves(game, answer) ?? null;
}

export function typedOutcome(kind: string, outcome: Outcome): GameOutcome {
  const detail = typedGame(kind)?.outcomeDetail(outcome) ?? null;
  return typedAs(GameOutcome, { winners: outcome.winners, points: outcome.points, summary: outcome.summary, detail });
}

/** An event as served to a viewer (a hidden draw as its commitment, an action through the engine's action view), typed; null for a row that is none of a game's events. */
export function eventDetail(kind: string, stored: StoredEvent): typeof GameEventDetail | null {
  const decoded = decodeServedEvent(stored);
  if (!decoded.ok) return null;
  const e = decoded.value;
  const game = typedGame(kind);
  switch (e.type) {
    case 'GameCreated': {
      const { ruleset, rulesetHash, seats, seedCommitment, randomSource, imported } = e.payload;
      return typedAs(GameCreatedDetail, { kind: e.payload.kind, ruleset, rulesetHash, seatNames: seats.map((s) => s.name), seedCommitment, randomSource, imported });
    }
    case 'SeatJoined':
      return typedAs(SeatJoinedDetail, e.payload);
    case 'GameStarted':
      return typedAs(GameStartedDetail, { clientSeeds: e.payload.clientSeeds });
    case 'ActionTaken':
      return typedAs(ActionTakenDetail, { seat: e.actor, action: game?.action(e.payload.action) ?? null });
    case 'Resigned':
      return typedAs(ResignedDetail, { seat: e.actor });
    case 'ChanceDrawn': {
      const { chance, seen } = e.payload;
      const hidden = chance.hidden === true;
      // Served hidden, a draw has no values but its commitment; once the game is over it is served whole (its commitment recomputed).
      const values = chance.values ? (game?.chanceValues?.(chance.values) ?? chance.values) : null;
      const commitment = chance.commitment ?? (hidden && chance.values ? hashOf(chance.values) : null);
      return typedAs(ChanceDrawnDetail, { label: e.label, values, commitment, hidden, source: chance.source, seen });
    }
    case 'GameEnded':
      return typedAs(GameEndedDetail, { outcome: typedOutcome(kind, e.payload.outcome), adjudication: e.payload.adjudication?.reason ?? null });
    case 'SeedRevealed':
      return typedAs(SeedRevealedDetail, e.payload);
    case 'TimedOut':
      return typedAs(TimedOutDetail, e.payload);
    case 'TimeAdded': {
      const { seat, ms, by, vacation } = e.payload;
      return typedAs(TimeAddedDetail, { seat, ms, bySeat: by === 'organizer' ? null : by, vacation });
    }
    case 'PauseRequested':
      return typedAs(PauseRequestedDetail, e.payload);
    case 'ResumeRequested':
      return typedAs(ResumeRequestedDetail, e.payload);
    case 'ClockPaused':
      return typedAs(ClockPausedDetail, e.payload);
    case 'ClockResumed':
      return typedAs(ClockResumedDetail, e.payload);
  }
}
