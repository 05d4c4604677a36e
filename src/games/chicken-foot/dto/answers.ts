import { Field, Int, ObjectType } from '@nestjs/graphql';
import type { ChickenFootAction, RoundEnd } from '../engine/index.js';
import { RulesetCheckFields } from '../../rulesets.js';
import { ChickenFootActionType, ChickenFootRoundEnd } from './enums.js';

@ObjectType({ description: 'One legal play: this tile on this target' })
export class ChickenFootLegalPlay {
  @Field({ description: 'A tile from your hand, as "a-b" with a <= b (e.g. "5-8")' }) tile: string;
  @Field({ description: '"hub" or the tile on the table to attach to (send both to chickenFootPlay)' }) target: string;
  @Field({ description: 'True when the play takes you to one tile and the ruleset wants "last tile" called' }) announce: boolean;
}

@ObjectType({ description: "What the caller's seat may do now: its legal plays, or draw, or pass (all empty when it is not its turn)" })
export class ChickenFootLegalActions {
  @Field(() => Int, { nullable: true, description: "The caller's seat; null for spectators" }) seat: number | null;
  @Field(() => [ChickenFootLegalPlay], { description: 'Every tile-and-target play open to the caller now; empty when none (or not its turn)' }) plays: ChickenFootLegalPlay[];
  @Field({ description: 'The caller may draw a tile from the yard now (chickenFootDraw)' }) canDraw: boolean;
  @Field({ description: 'The caller may pass now (chickenFootPass): no play and no tile it may draw' }) canPass: boolean;
}

@ObjectType({ description: 'A ruleset checked without creating a game' })
export class ChickenFootRulesetCheck extends RulesetCheckFields {}

@ObjectType({ description: 'The round an action ended' })
export class ChickenFootRoundEndNote {
  @Field(() => Int, { description: 'The round number, from 1' }) number: number;
  @Field(() => ChickenFootRoundEnd, { description: 'How the round ended' }) end: RoundEnd;
  @Field(() => Int, { nullable: true, description: 'The seat that played its last tile; null when the round was blocked or abandoned' }) wentOut: number | null;
  @Field(() => [Int], { nullable: true, description: 'Points per seat for the round; null for an abandoned round' }) scores: number[] | null;
}

@ObjectType({
  description:
    'A Chicken Foot action as the viewer may see it: while the game runs, a tile drawn is shown to its drawer only (and penalty tiles to their taker); once the game is over, each action as it was sent',
})
export class ChickenFootActionTaken {
  @Field(() => ChickenFootActionType, { description: 'What the seat did' }) type: ChickenFootAction['type'];
  @Field(() => String, { nullable: true, description: 'PLAY: the tile played. DRAW: the tile drawn, for its drawer while the game runs; null for everyone else' })
  tile: string | null;
  @Field(() => String, { nullable: true, description: 'PLAY: "hub" or the tile on the table the tile was attached to' }) target: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'PLAY: the tile is a double, so it opened a chicken foot (the referee announces it); null while unknown (a finished game serves actions as sent)',
  })
  chickenFoot: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'PLAY: "last tile" was called with the play; null when it was not, or while the game runs' }) announce: boolean | null;
  @Field(() => [String], { nullable: true, description: 'PLAY: penalty tiles the player had to take, shown to that player (and to all once the round is over)' })
  penaltyTiles: string[] | null;
  @Field(() => Int, { nullable: true, description: 'PLAY: how many penalty tiles the player took, for the other seats and spectators' }) penaltyDraws: number | null;
  @Field(() => ChickenFootRoundEndNote, { nullable: true, description: 'The round this action ended, if it ended one' }) roundEnded: ChickenFootRoundEndNote | null;
}

@ObjectType({ description: 'How a Chicken Foot game ended' })
export class ChickenFootOutcome {
  @Field({ description: '"completed" (every round played) or "resigned" (a seat conceded)' }) reason: string;
  @Field(() => Int, { nullable: true, description: 'The seat that resigned, if one did' }) resigned: number | null;
  @Field({ description: 'What decided the winners: "total" (the lowest total), a tie break ("zeroRounds", "lowestPositiveRound"), or "shared" (still tied)' })
  decidedBy: string;
  @Field(() => Int, { description: 'Rounds scored' }) roundsPlayed: number;
  @Field(() => [[Int]], { description: 'Per scored round, the points of each seat' }) roundScores: number[][];
  @Field(() => [Int], { description: 'Total points per seat (lowest wins)' }) totals: number[];
}
