/**
 * Typed answers of the generic API that every game shares: an outcome and the typed detail of
 * each event. What is typed per game (the unions over the games: state, legal moves, outcome
 * detail, actions) is served by src/api/typed-answers.module.ts over the games the service is
 * built with; the JSON fields (`view`, `legalActions`, `result`, `payload`) stay for generic
 * clients.
 */
import { Field, Float, Int, ObjectType, createUnionType } from '@nestjs/graphql';
import type { Outcome } from '../engines/kit/index.js';
import type { TypedAnswers } from '../games/typed-game.js';
import { decodeServedEvent, hashOf, type StoredEvent } from '../referee/index.js';
import { JSONScalar } from './json.scalar.js';

/** `data` as an instance of its GraphQL class: a union's resolveType names the class of what it is given. */
export const typedAs = <T extends object>(cls: abstract new () => T, data: T): T => Object.assign(Object.create(cls.prototype) as T, data);

/** Every union member is built as an instance of its class (typedAs): the class names the member. */
export const byClass = (value: object) => value.constructor as never;

/** How a finished game ended; its typed `detail` is its game's (src/api/typed-answers.module.ts). */
@ObjectType({ description: 'How a finished game ended' })
export class GameOutcome {
  @Field(() => [Int], { description: 'Seat indexes that won (several on a tie; none when nobody won)' }) winners: number[];
  @Field(() => [Int], { description: "Final score per seat, in the game's own unit (match points, round totals, Cerke points)" }) points: number[];
  @Field({ description: 'One line a person can read' }) summary: string;
  /** Not fields: the game's kind and the outcome's game-specific details, for `detail`. */
  kind: string;
  details: unknown;
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

/** A seat's action; its typed `action` is its game's (src/api/typed-answers.module.ts). */
@ObjectType({ description: 'A seat acted' })
export class ActionTakenDetail {
  @Field(() => Int, { description: 'The seat that acted' }) seat: number;
  /** Not fields: the game's kind and the action as served, for `action`. */
  kind: string;
  served: unknown;
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

@ObjectType({ description: "A seat declined the other seats' request to pause: every request withdrawn, the clocks run on" })
export class PauseDeclinedDetail {
  @Field(() => Int, { description: 'The seat that declined' }) seat: number;
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

@ObjectType({ description: 'A seat aborted the game before any seat moved: it ended with no result' })
export class GameAbortedDetail {
  @Field(() => Int, { description: 'The seat that aborted it' }) seat: number;
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
      PauseDeclinedDetail,
      ResumeRequestedDetail,
      ClockPausedDetail,
      ClockResumedDetail,
      GameAbortedDetail,
    ] as const,
  resolveType: byClass,
});

// ------------------------------------------------------------------ building them

export function typedOutcome(kind: string, outcome: Outcome): GameOutcome {
  return typedAs(GameOutcome, { winners: outcome.winners, points: outcome.points, summary: outcome.summary, kind, details: outcome.details });
}

/**
 * An event as served to a viewer (a hidden draw as its commitment, an action through the
 * engine's action view), typed, read in the terms of its game (`typed`: null for a game without
 * typed answers); null for a row that is none of a game's events.
 */
export function eventDetail(kind: string, typed: TypedAnswers | null, stored: StoredEvent): typeof GameEventDetail | null {
  const decoded = decodeServedEvent(stored);
  if (!decoded.ok) return null;
  const e = decoded.value;
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
      return typedAs(ActionTakenDetail, { seat: e.actor, kind, served: e.payload.action });
    case 'Resigned':
      return typedAs(ResignedDetail, { seat: e.actor });
    case 'ChanceDrawn': {
      const { chance, seen } = e.payload;
      const hidden = chance.hidden === true;
      // Served hidden, a draw has no values but its commitment; once the game is over it is served whole (its commitment recomputed).
      const values = chance.values ? (typed?.chanceValues?.(chance.values) ?? chance.values) : null;
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
    case 'PauseDeclined':
      return typedAs(PauseDeclinedDetail, e.payload);
    case 'ClockPaused':
      return typedAs(ClockPausedDetail, e.payload);
    case 'ClockResumed':
      return typedAs(ClockResumedDetail, e.payload);
    case 'GameAborted':
      return typedAs(GameAbortedDetail, e.payload);
  }
}
