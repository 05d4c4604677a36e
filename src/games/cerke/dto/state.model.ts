/** What `cerkeState` answers: the game as the engine's view shows it, typed. */
import { Field, ID, Int, ObjectType, createUnionType } from '@nestjs/graphql';
import { JSONScalar } from '../../../api/json.scalar.js';
import { GameStatusEnum } from '../../../api/models.js';
import type { Colour, GameResult, HandName, Kind, NegativeHand, Phase, Profile, SeasonResult, Side, StickCast } from '../engine/index.js';
import { GameShown } from '../../typed-game.js';
import { CerkeCastPurpose, CerkeColour, CerkeGameEndReason, CerkeHandName, CerkeKind, CerkePhase, CerkeProfile, CerkeSeasonEndCause, CerkeSide } from './enums.js';

@ObjectType({ description: 'A piece on the board' })
export class CerkePiece {
  @Field({ description: 'Column letter then row name, e.g. ZO, ZAI' }) square: string;
  @Field(() => CerkeKind, { description: "The piece's kind" }) kind: Kind;
  @Field(() => CerkeColour, { description: "The piece's colour, red or black (it never changes)" }) colour: Colour;
  @Field(() => CerkeSide, { description: 'Its owner now: a captured piece dropped back changes side, never colour' }) side: Side;
}

@ObjectType({ description: 'A piece in a captured pile (hop1zuo1)' })
export class CerkeCapturedPiece {
  @Field(() => CerkeKind, { description: "The piece's kind" }) kind: Kind;
  @Field(() => CerkeColour, { description: "The piece's colour, red or black (hands count flashes by it)" }) colour: Colour;
}

@ObjectType({ description: 'A hand (役) and what it is worth; [strict] negative hands are worth less than nothing' })
export class CerkeHand {
  @Field(() => CerkeHandName, { description: 'Which hand' }) name: HandName | NegativeHand['name'];
  @Field({ description: 'All of one colour (同色): worth 2 more. Always true for the King hand, false for negative hands' }) flash: boolean;
  @Field(() => Int, { description: 'Its value: the base value, plus 2 for a flash; negative for a negative hand' }) value: number;
}

@ObjectType({ description: "A side's captured pile (hop1zuo1) and the hands it forms now" })
export class CerkeCapturedPile {
  @Field(() => [CerkeCapturedPiece], { description: 'The pieces the side captured (it may drop them back as its own)' }) pieces: CerkeCapturedPiece[];
  @Field(() => [CerkeHand], { description: 'The hands (役) the pile forms now' }) hands: CerkeHand[];
  @Field(() => Int, { description: "The hands' total value" }) score: number;
}

@ObjectType({ description: 'Both captured piles, by side' })
export class CerkeCapturedPiles {
  @Field(() => CerkeCapturedPile, { description: "IA's pile (seat 0)" }) IA: CerkeCapturedPile;
  @Field(() => CerkeCapturedPile, { description: "A's pile (seat 1)" }) A: CerkeCapturedPile;
}

@ObjectType({ description: 'Points by side; they always sum to 40' })
export class CerkePoints {
  @Field(() => Int, { description: "IA's points (seat 0), 0 to 40" }) IA: number;
  @Field(() => Int, { description: "A's points (seat 1), 0 to 40" }) A: number;
}

@ObjectType({ description: 'The season being played (a game has 1, 2 or 4: Spring, Summer, Autumn, Winter)' })
export class CerkeSeason {
  @Field(() => Int, { description: '1-based' }) number: number;
  @Field({ description: 'Spring, Summer, Autumn or Winter' }) name: string;
  @Field(() => CerkeSide, { nullable: true, description: 'Who moves first this season; null until the sticks decide it' }) firstMover: Side | null;
}

@ObjectType({ description: "One side's five sticks" })
export class CerkeSideCast {
  @Field(() => CerkeSide, { description: 'The side that cast' }) side: Side;
  @Field(() => [Int], { description: 'Each stick: 1 shows the marked face' }) sticks: number[];
  @Field(() => Int, { description: 'The count: how many sticks show the marked face' }) value: number;
}

@ObjectType({ description: 'A stick cast as the referee drew it' })
export class CerkeStickCast {
  @Field(() => CerkeCastPurpose, { description: 'Why the sticks were cast: the first mover, a stepping leg or a water entry' }) purpose: StickCast['purpose'];
  @Field(() => [CerkeSideCast], { description: "Both sides for the first-mover cast (IA first), else the mover's" }) casts: CerkeSideCast[];
}

@ObjectType({ description: 'The mover made a new hand: ty mok1 (cerkeDeclareContinue) or ta xot1 (cerkeDeclareEndSeason)' })
export class CerkeDeclarationPending {
  @Field(() => CerkeSide, { description: 'The side that made the new hand and must declare' }) side: Side;
  @Field(() => [CerkeHand], { description: 'What ending the season now would score' }) hands: CerkeHand[];
  @Field(() => Int, { description: "The hands' total value" }) handValue: number;
  @Field(() => Int, { description: 'handValue × stake' }) pointsIfSeasonEnds: number;
  @Field(() => Int, { description: 'The stake after ty mok1 (doubled, at most 64)' }) stakeIfContinued: number;
}

@ObjectType({ description: 'After the stepping cast: cerkeCompleteStep on one of `completions`, or cerkeAbandonStep' })
export class CerkeStepCompletionPending {
  @Field(() => CerkeSide, { description: 'The side completing its stepping move' }) side: Side;
  @Field({ description: "The moving piece's square" }) from: string;
  @Field({ description: 'The occupied square it stepped on' }) via: string;
  @Field({ description: 'The square (or direction) named before the cast' }) planned: string;
  @Field(() => Int, { description: 'The count cast: the most squares the second leg may go' }) cast: number;
  @Field(() => [String], { description: 'The squares cerkeCompleteStep may end the leg on (empty: only cerkeAbandonStep)' }) completions: string[];
}

export const CerkePendingDecision = createUnionType({
  name: 'CerkePendingDecision',
  description: 'A decision the side to move owes before anything else',
  types: () => [CerkeDeclarationPending, CerkeStepCompletionPending] as const,
  resolveType: (v: object) => ('completions' in v ? CerkeStepCompletionPending : CerkeDeclarationPending),
});

@ObjectType({ description: '[online] 5 × stake paid at once for stepping on Tam2' })
export class CerkeSteppingPayment {
  @Field(() => CerkeSide, { description: 'Who stepped on Tam2 and paid' }) side: Side;
  @Field(() => Int, { description: 'Points actually paid (after clamping to 0-40)' }) points: number;
}

@ObjectType({ description: 'What ended a season, and the side it concerns' })
export class CerkeSeasonEnd {
  @Field(() => CerkeSeasonEndCause, { description: 'How the season ended' }) how: SeasonResult['endedBy']['how'];
  @Field(() => CerkeSide, { description: 'The side that declared, stepped on Tam2, resigned or had no legal action' }) side: Side;
}

@ObjectType({ description: 'How a season ended and what it scored' })
export class CerkeSeasonResult {
  @Field(() => Int, { description: '1-based' }) season: number;
  @Field({ description: 'Spring, Summer, Autumn or Winter' }) name: string;
  @Field(() => CerkeSide, { nullable: true, description: 'Who moved first in the season; null if it ended before the sticks decided' }) firstMover: Side | null;
  @Field(() => CerkeSeasonEnd, { description: 'What ended the season' }) endedBy: CerkeSeasonEnd;
  @Field(() => [CerkeHand], { description: 'Hands scored by the side that ended the season' }) hands: CerkeHand[];
  @Field(() => Int, { description: "The scored hands' total value (0 when the season ended without ta xot1)" }) handValue: number;
  @Field(() => Int, { description: 'The stake (rate) of the season when it ended: ×1 … ×64' }) stake: number;
  @Field(() => Int, { description: 'handValue × stake for the declarer, before clamping' }) pointsDeclared: number;
  @Field(() => Int, { description: 'Points that actually moved to the declarer (negative: it paid)' }) pointsMoved: number;
  @Field(() => [CerkeSteppingPayment], { description: '[online] stepping-on-Tam2 payments made during the season' }) steppingOnTam2: CerkeSteppingPayment[];
  @Field(() => CerkePoints, { description: 'Points by side after the season' }) pointsAfter: CerkePoints;
}

@ObjectType({ description: 'How a Cerke game ended' })
export class CerkeGameResult {
  @Field(() => [CerkeSide], { description: 'Both on a draw' }) winners: Side[];
  @Field(() => CerkeGameEndReason, { description: 'Why the game ended' }) reason: GameResult['reason'];
  @Field(() => CerkeSide, { nullable: true, description: 'The side that resigned; null unless one did' }) resignedBy: Side | null;
}

@ObjectType('CerkeState', { description: 'A Cerke game now. Everything in Cerke is public, so every caller sees the same, bar `viewerSide`.' })
export class CerkeStateModel extends GameShown {
  @Field(() => ID, { description: 'The game' }) gameId: string;
  @Field(() => Int, { description: "The game's version; pass it as expectedVersion" }) version: number;
  @Field(() => GameStatusEnum, { description: 'WAITING for seats, ACTIVE or FINISHED' }) status: GameStatusEnum;
  @Field(() => CerkeSide, { nullable: true, description: "The caller's side, if the token holds a seat" }) viewerSide: Side | null;
  @Field(() => CerkeProfile, { description: 'The rule profile: ONLINE or STRICT' }) profile: Profile;
  @Field(() => JSONScalar, { description: 'The complete ruleset: profile, seasons and every rule flag' }) ruleset: unknown;
  @Field(() => Int, { description: 'Seasons in the game: 1, 2 or 4' }) seasonCount: number;
  @Field(() => CerkeSeason, { description: 'The season being played (the last one once the game is over)' }) season: CerkeSeason;
  @Field(() => Int, { description: 'The stake (rate) of this season: ×1 … ×64' }) stake: number;
  @Field(() => CerkePoints, { description: 'Points by side, always summing to 40 (20 each at the start)' }) points: CerkePoints;
  @Field(() => CerkeSide, {
    nullable: true,
    description:
      'The side (not a seat) whose turn it is, or who owes a decision, also while the sticks are cast for its move; null during the first-mover cast and once the game is over. The seats that may act now are toAct',
  })
  toMove: Side | null;
  @Field(() => [Int], {
    description: 'Seat indexes that may act now, as Game.toAct answers them (seat 0 is IA, seat 1 is A); empty while the sticks are cast, while seats are open and once the game is over',
  })
  toAct: number[];
  @Field(() => CerkePhase, { description: 'What the game waits for' }) phase: Phase['name'];
  @Field(() => [CerkePiece], { description: 'Every piece on the board, Tam2 excepted (see tam2)' }) board: CerkePiece[];
  @Field(() => String, { nullable: true, description: "Tam2's square" }) tam2: string | null;
  @Field(() => CerkeCapturedPiles, { description: 'Both captured piles (hop1zuo1) and the hands they form, by side' }) capturedPiles: CerkeCapturedPiles;
  @Field(() => CerkePendingDecision, { nullable: true, description: 'A declaration or a step completion the side to move owes; null when none is owed' }) pendingDecision:
    | typeof CerkePendingDecision
    | null;
  @Field(() => CerkeStickCast, { nullable: true, description: 'The last stick cast of the game' }) lastCast: CerkeStickCast | null;
  @Field({ description: 'Whether the last turn moved Tam2' }) tam2MovedLastTurn: boolean;
  @Field(() => [CerkeSteppingPayment], { description: '[online] stepping-on-Tam2 payments this season' }) steppingOnTam2ThisSeason: CerkeSteppingPayment[];
  @Field(() => [CerkeSeasonResult], { description: 'Every season played to its end, in order' }) seasonResults: CerkeSeasonResult[];
  @Field(() => CerkeGameResult, { nullable: true, description: 'Set once the game is over' }) result: CerkeGameResult | null;
}

@ObjectType({ description: 'How a Cerke game ended' })
export class CerkeOutcome {
  @Field(() => [CerkeSide], { description: 'The winning sides; both on a draw' }) winners: Side[];
  @Field(() => CerkeGameEndReason, { description: 'Why the game ended' }) reason: GameResult['reason'];
  @Field(() => CerkeSide, { nullable: true, description: 'The side that resigned, if one did' }) resignedBy: Side | null;
  @Field(() => CerkePoints, { description: 'Final points by side' }) points: CerkePoints;
  @Field(() => [CerkeSeasonResult], { description: 'Every season played, in order' }) seasons: CerkeSeasonResult[];
}
