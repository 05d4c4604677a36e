/** What `cerkeState` answers: the game as the engine's view shows it, typed. */
import { Field, ID, Int, ObjectType, createUnionType } from '@nestjs/graphql';
import { JSONScalar } from '../../../api/json.scalar.js';
import { GameStatusEnum } from '../../../api/models.js';
import type { Colour, GameResult, HandName, Kind, NegativeHand, Phase, Profile, SeasonResult, Side, StickCast } from '../../../engines/cerke/index.js';
import { CerkeCastPurpose, CerkeColour, CerkeGameEndReason, CerkeHandName, CerkeKind, CerkePhase, CerkeProfile, CerkeSeasonEndCause, CerkeSide } from './enums.js';

@ObjectType({ description: 'A piece on the board' })
export class CerkePiece {
  @Field({ description: 'Column letter then row name, e.g. ZO, ZAI' }) square: string;
  @Field(() => CerkeKind) kind: Kind;
  @Field(() => CerkeColour) colour: Colour;
  @Field(() => CerkeSide, { description: 'Its owner now: a captured piece dropped back changes side, never colour' }) side: Side;
}

@ObjectType({ description: 'A piece in a captured pile (hop1zuo1)' })
export class CerkeCapturedPiece {
  @Field(() => CerkeKind) kind: Kind;
  @Field(() => CerkeColour) colour: Colour;
}

@ObjectType({ description: 'A hand (役) and what it is worth; [strict] negative hands are worth less than nothing' })
export class CerkeHand {
  @Field(() => CerkeHandName) name: HandName | NegativeHand['name'];
  @Field({ description: 'All of one colour (同色): worth 2 more. Always true for the King hand, false for negative hands' }) flash: boolean;
  @Field(() => Int) value: number;
}

@ObjectType({ description: "A side's captured pile (hop1zuo1) and the hands it forms now" })
export class CerkeCapturedPile {
  @Field(() => [CerkeCapturedPiece]) pieces: CerkeCapturedPiece[];
  @Field(() => [CerkeHand]) hands: CerkeHand[];
  @Field(() => Int, { description: "The hands' total value" }) score: number;
}

@ObjectType({ description: 'Both captured piles, by side' })
export class CerkeCapturedPiles {
  @Field(() => CerkeCapturedPile) IA: CerkeCapturedPile;
  @Field(() => CerkeCapturedPile) A: CerkeCapturedPile;
}

@ObjectType({ description: 'Points by side; they always sum to 40' })
export class CerkePoints {
  @Field(() => Int) IA: number;
  @Field(() => Int) A: number;
}

@ObjectType()
export class CerkeSeason {
  @Field(() => Int, { description: '1-based' }) number: number;
  @Field({ description: 'Spring, Summer, Autumn or Winter' }) name: string;
  @Field(() => CerkeSide, { nullable: true, description: 'Who moves first this season; null until the sticks decide it' }) firstMover: Side | null;
}

@ObjectType({ description: "One side's five sticks" })
export class CerkeSideCast {
  @Field(() => CerkeSide) side: Side;
  @Field(() => [Int], { description: 'Each stick: 1 shows the marked face' }) sticks: number[];
  @Field(() => Int, { description: 'The count: how many sticks show the marked face' }) value: number;
}

@ObjectType({ description: 'A stick cast as the referee drew it' })
export class CerkeStickCast {
  @Field(() => CerkeCastPurpose) purpose: StickCast['purpose'];
  @Field(() => [CerkeSideCast], { description: "Both sides for the first-mover cast (IA first), else the mover's" }) casts: CerkeSideCast[];
}

@ObjectType({ description: 'The mover made a new hand: ty mok1 (cerkeDeclareContinue) or ta xot1 (cerkeDeclareEndSeason)' })
export class CerkeDeclarationPending {
  @Field(() => CerkeSide) side: Side;
  @Field(() => [CerkeHand], { description: 'What ending the season now would score' }) hands: CerkeHand[];
  @Field(() => Int) handValue: number;
  @Field(() => Int, { description: 'handValue × stake' }) pointsIfSeasonEnds: number;
  @Field(() => Int, { description: 'The stake after ty mok1 (doubled, at most 64)' }) stakeIfContinued: number;
}

@ObjectType({ description: 'After the stepping cast: cerkeCompleteStep on one of `completions`, or cerkeAbandonStep' })
export class CerkeStepCompletionPending {
  @Field(() => CerkeSide) side: Side;
  @Field() from: string;
  @Field() via: string;
  @Field({ description: 'The square (or direction) named before the cast' }) planned: string;
  @Field(() => Int, { description: 'The count cast: the most squares the second leg may go' }) cast: number;
  @Field(() => [String]) completions: string[];
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

@ObjectType()
export class CerkeSeasonEnd {
  @Field(() => CerkeSeasonEndCause) how: SeasonResult['endedBy']['how'];
  @Field(() => CerkeSide) side: Side;
}

@ObjectType({ description: 'How a season ended and what it scored' })
export class CerkeSeasonResult {
  @Field(() => Int, { description: '1-based' }) season: number;
  @Field() name: string;
  @Field(() => CerkeSide, { nullable: true }) firstMover: Side | null;
  @Field(() => CerkeSeasonEnd) endedBy: CerkeSeasonEnd;
  @Field(() => [CerkeHand], { description: 'Hands scored by the side that ended the season' }) hands: CerkeHand[];
  @Field(() => Int) handValue: number;
  @Field(() => Int) stake: number;
  @Field(() => Int, { description: 'handValue × stake for the declarer, before clamping' }) pointsDeclared: number;
  @Field(() => Int, { description: 'Points that actually moved to the declarer (negative: it paid)' }) pointsMoved: number;
  @Field(() => [CerkeSteppingPayment]) steppingOnTam2: CerkeSteppingPayment[];
  @Field(() => CerkePoints) pointsAfter: CerkePoints;
}

@ObjectType()
export class CerkeGameResult {
  @Field(() => [CerkeSide], { description: 'Both on a draw' }) winners: Side[];
  @Field(() => CerkeGameEndReason) reason: GameResult['reason'];
  @Field(() => CerkeSide, { nullable: true }) resignedBy: Side | null;
}

@ObjectType('CerkeState', { description: 'A Cerke game now. Everything in Cerke is public, so every caller sees the same, bar `viewerSide`.' })
export class CerkeStateModel {
  @Field(() => ID) gameId: string;
  @Field(() => Int, { description: "The game's version; pass it as expectedVersion" }) version: number;
  @Field(() => GameStatusEnum) status: GameStatusEnum;
  @Field(() => CerkeSide, { nullable: true, description: "The caller's side, if the token holds a seat" }) viewerSide: Side | null;
  @Field(() => CerkeProfile) profile: Profile;
  @Field(() => JSONScalar, { description: 'The complete ruleset: profile, seasons and every rule flag' }) ruleset: unknown;
  @Field(() => Int, { description: 'Seasons in the game: 1, 2 or 4' }) seasonCount: number;
  @Field(() => CerkeSeason) season: CerkeSeason;
  @Field(() => Int, { description: 'The stake (rate) of this season: ×1 … ×64' }) stake: number;
  @Field(() => CerkePoints) points: CerkePoints;
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
  @Field(() => CerkePhase) phase: Phase['name'];
  @Field(() => [CerkePiece]) board: CerkePiece[];
  @Field(() => String, { nullable: true, description: "Tam2's square" }) tam2: string | null;
  @Field(() => CerkeCapturedPiles) capturedPiles: CerkeCapturedPiles;
  @Field(() => CerkePendingDecision, { nullable: true }) pendingDecision: typeof CerkePendingDecision | null;
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
