/** Backgammon's typed answers on the generic API: legal actions, an action taken, and the outcome. */
import { Field, Int, ObjectType } from '@nestjs/graphql';
import type { BackgammonAction, ResignationLevel } from '../engine/index.js';
import { BackgammonActionType, BackgammonResignationLevel } from './enums.js';
import { BackgammonPlay } from './play.js';
import { BackgammonGameResult } from './position.js';

@ObjectType({ description: "What the caller's seat may do now (all empty for spectators and out of turn)" })
export class BackgammonLegalActions {
  @Field(() => Int, { nullable: true, description: "The caller's seat; null for spectators" }) seat: number | null;
  @Field(() => [BackgammonActionType], { description: 'Every kind of action open now, each with its mutation (PLAY: one of `plays`; RESIGN: one of `resignLevels`)' })
  types: BackgammonAction['type'][];
  @Field(() => [BackgammonPlay], { description: 'Every legal play of the dice, one per distinct resulting position; empty unless the caller has dice to play' })
  plays: BackgammonPlay[];
  @Field(() => [BackgammonResignationLevel], { description: 'The levels the caller may offer to resign at now' }) resignLevels: ResignationLevel[];
}

@ObjectType({ description: 'One checker move of a play, as the player sent it (to: 0 is borne off; from: 25 is the bar)' })
export class BackgammonMoveSent {
  @Field(() => Int, { description: "The point the checker left, in the mover's numbering: 1-24, or 25 for the bar" }) from: number;
  @Field(() => Int, { description: "The point it reached, in the mover's numbering: 1-24, or 0 when borne off" }) to: number;
}

@ObjectType({ description: 'A backgammon action as a seat took it' })
export class BackgammonActionTaken {
  @Field(() => BackgammonActionType, { description: 'What the seat did' }) type: BackgammonAction['type'];
  @Field(() => [BackgammonMoveSent], { nullable: true, description: 'PLAY: the checker moves, one per die used; null for other actions (lastTurn in the position tells the hits)' })
  moves: BackgammonMoveSent[] | null;
  @Field(() => BackgammonResignationLevel, { nullable: true, description: 'RESIGN: the level offered; null for other actions' }) level: ResignationLevel | null;
}

@ObjectType({ description: 'How a backgammon match (or money game) ended' })
export class BackgammonOutcome {
  @Field(() => Int, { description: '0 for a money game, else the match length in points' }) matchLength: number;
  @Field(() => [Int], { description: 'Final score per seat (seat 0 White, seat 1 Black)' }) finalScore: number[];
  @Field(() => [BackgammonGameResult], { description: 'Every game played, in order' }) games: BackgammonGameResult[];
}
