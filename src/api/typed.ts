/**
 * Typed answers of the generic API: the unions over the games (state, legal moves, outcome
 * detail, actions) and the typed detail of each event. Each game builds its members (see
 * src/games/typed-game.ts); the JSON fields (`view`, `legalActions`, `result`, `payload`) stay
 * for generic clients.
 */
import { Field, Int, ObjectType, createUnionType } from '@nestjs/graphql';
import { backgammonEngine } from '../engines/backgammon/index.js';
import { cerkeEngine } from '../engines/cerke/index.js';
import { chickenFootEngine } from '../engines/chicken-foot/index.js';
import type { Outcome, Viewer } from '../engines/kit/index.js';
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
import { hashOf, isChanceType, type LiveGame } from '../referee/index.js';
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

/** Each game's typed state (each has its `clock`: src/api/typed.resolver.ts). */
export const TYPED_STATES = [BackgammonPosition, ChickenFootTable, CerkeStateModel] as const;

export const GameState = createUnionType({
  name: 'GameState',
  description: "A game as the caller may see it, typed per game (the same as the game's own query: backgammonPosition, chickenFootTable, cerkeState)",
  types: () => TYPED_STATES,
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

export const GameEventDetail = createUnionType({
  name: 'GameEventDetail',
  description: 'An event, typed: what happened in it, as the viewer may see it',
  types: () => [GameCreatedDetail, SeatJoinedDetail, GameStartedDetail, ActionTakenDetail, ResignedDetail, ChanceDrawnDetail, GameEndedDetail, SeedRevealedDetail] as const,
  resolveType: byClass,
});

// ------------------------------------------------------------------ building them

/** The game as `view` (the engine's view for `viewer`) shows it, typed; null for a game without typed answers. */
export function typedState(game: LiveGame, view: unknown): typeof GameState | null {
  return typedGame(game.kind)?.state(game, view) ?? null;
}

/** The viewer's legal actions (as the referee lists them), typed. */
export function typedLegalMoves(game: LiveGame, viewer: Viewer, actions: unknown[]): typeof LegalMoves | null {
  return typedGame(game.kind)?.legalMoves(game, viewer, actions) ?? null;
}

export function typedOutcome(kind: string, outcome: Outcome | null): GameOutcome | null {
  if (!outcome) return null;
  const detail = typedGame(kind)?.outcomeDetail(outcome) ?? null;
  return typedAs(GameOutcome, { winners: outcome.winners, points: outcome.points, summary: outcome.summary, detail });
}

type Payload = Record<string, unknown>;
type ServedChance = { ranges: number[]; values?: number[]; source: string; hidden?: boolean; commitment?: string };

/** An event as served to a viewer (a hidden draw as its commitment, an action through the engine's action view), typed. */
export function eventDetail(kind: string, e: { type: string; actor: number | null; payload: unknown }): typeof GameEventDetail | null {
  const p = (e.payload ?? {}) as Payload;
  const game = typedGame(kind);
  switch (e.type) {
    case 'GameCreated': {
      const seats = (p.seats ?? []) as { name?: string | null }[];
      const { ruleset, rulesetHash, seedCommitment, randomSource } = p as Record<string, string>;
      return typedAs(GameCreatedDetail, { kind: p.kind as string, ruleset, rulesetHash, seatNames: seats.map((s) => s.name ?? null), seedCommitment, randomSource, imported: p.imported === true });
    }
    case 'SeatJoined':
      return typedAs(SeatJoinedDetail, { seat: p.seat as number, name: (p.name as string | null) ?? null });
    case 'GameStarted':
      return typedAs(GameStartedDetail, { clientSeeds: (p.clientSeeds ?? []) as (string | null)[] });
    case 'ActionTaken':
      return typedAs(ActionTakenDetail, { seat: e.actor as number, action: game?.action(p.action) ?? null });
    case 'Resigned':
      return typedAs(ResignedDetail, { seat: e.actor as number });
    case 'GameEnded':
      return typedAs(GameEndedDetail, { outcome: typedOutcome(kind, p.outcome as Outcome)!, adjudication: (p.adjudication as { reason?: string } | undefined)?.reason ?? null });
    case 'SeedRevealed':
      return typedAs(SeedRevealedDetail, { serverSeed: p.serverSeed as string });
  }
  if (!isChanceType(e.type) || typeof p.chance !== 'object' || p.chance === null) return null;
  const chance = p.chance as ServedChance;
  const hidden = chance.hidden === true;
  // Served hidden, a draw has no values but its commitment; once the game is over it is served whole (its commitment recomputed).
  const values = chance.values ? (game?.chanceValues?.(chance.values) ?? chance.values) : null;
  const commitment = chance.commitment ?? (hidden && chance.values ? hashOf(chance.values) : null);
  return typedAs(ChanceDrawnDetail, { label: e.type, values, commitment, hidden, source: chance.source, seen: p.view ?? null });
}
