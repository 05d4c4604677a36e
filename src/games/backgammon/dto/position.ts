import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import type { GameEnd, Phase, PendingDouble, ResignationLevel } from '../engine/index.js';
import { BackgammonCubeStage, BackgammonGameEnd, BackgammonPhase, BackgammonResignationLevel } from './enums.js';
import { GameShown } from '../../typed-game.js';
import { BackgammonCheckerMove } from './play.js';

const SEAT = 'Seat 0 is White, seat 1 is Black';

@ObjectType({ description: "One player's checkers, in that player's own numbering (he moves from 24 towards 1)" })
export class BackgammonSide {
  @Field(() => [Int], { description: "points[i] = this player's checkers on his point i + 1 (24 entries)" }) points: number[];
  @Field(() => Int, { description: 'Checkers on the bar, waiting to enter' }) bar: number;
  @Field(() => Int, { description: 'Checkers borne off' }) off: number;
  @Field(() => Int, { description: 'Pips still to travel to bear everything off (a checker on the bar counts 25)' }) pipCount: number;
}

@ObjectType({ description: 'Where every checker stands' })
export class BackgammonBoard {
  @Field(() => [BackgammonSide], { description: `Per seat. ${SEAT}` }) sides: BackgammonSide[];
  @Field(() => [Int], { description: "White's numbering, points 1-24: a positive count is White checkers, a negative count Black checkers" }) absolute: number[];
}

@ObjectType({ description: 'The doubling cube' })
export class BackgammonCube {
  @Field(() => Int, { description: 'The stake: each game is worth this times its level' }) value: number;
  @Field(() => Int, { nullable: true, description: 'The seat that owns the cube and alone may redouble; null while the cube is in the middle' }) owner: number | null;
  @Field(() => Int, { description: 'The highest value the cube may reach in this game' }) max: number;
  @Field({ description: 'The player on roll may double now, before rolling' }) mayDouble: boolean;
}

@ObjectType({ description: 'A double (or beaver, raccoon) waiting for the other player to answer' })
export class BackgammonPendingDouble {
  @Field(() => Int, { description: 'The seat that turned the cube; the other seat answers' }) by: number;
  @Field(() => Int, { description: 'The stake if taken; a drop gives `by` half of it' }) value: number;
  @Field(() => Int, { description: 'Who owns the cube if it is taken' }) owner: number;
  @Field(() => BackgammonCubeStage, { description: 'Which cube turn awaits the answer: the double, a beaver or a raccoon' }) stage: PendingDouble['stage'];
}

@ObjectType({ description: 'A resignation waiting for the other player to accept or reject it' })
export class BackgammonResignationOffer {
  @Field(() => Int, { description: 'The seat that offers to resign' }) by: number;
  @Field(() => BackgammonResignationLevel, { description: 'What accepting concedes: a single game, a gammon or a backgammon (times the cube)' }) level: ResignationLevel;
}

@ObjectType({ description: 'What the last turn did' })
export class BackgammonTurn {
  @Field(() => Int, { description: `The seat that played the turn. ${SEAT}` }) seat: number;
  @Field(() => [Int], { nullable: true, description: 'The dice thrown, pips 1-6 each; null when the roll was skipped against a closed board' }) dice: number[] | null;
  @Field(() => [BackgammonCheckerMove], { description: "The checker moves played, in the mover's own numbering, hits marked; empty for a pass" }) moves: BackgammonCheckerMove[];
  @Field({ description: 'The play as gnubg writes it; empty for a pass' }) notation: string;
  @Field({ description: 'No checker could move' }) passed: boolean;
}

@ObjectType({ description: 'A finished game of the match' })
export class BackgammonGameResult {
  @Field(() => Int, { description: 'Game number in the match, from 1' }) game: number;
  @Field(() => Int, { description: `The seat that won the game. ${SEAT}` }) winner: number;
  @Field(() => Int, { description: 'Points scored: the cube times the level (a dropped double scores the cube before it was turned)' }) points: number;
  @Field(() => BackgammonResignationLevel, { description: 'Single game, gammon or backgammon' }) level: ResignationLevel;
  @Field(() => BackgammonGameEnd, { description: 'How the game ended: bear-off, a dropped double, an accepted resignation or a forfeit (resignGame)' }) endedBy: GameEnd;
  @Field(() => Int, { description: 'The cube value when the game ended' }) cube: number;
  @Field({ description: 'It was the Crawford game' }) crawford: boolean;
  @Field(() => [Int], { description: 'The match score after this game, per seat' }) scoreAfter: number[];
}

@ObjectType({ description: 'A backgammon game as anyone may see it: the board, the dice, the cube, the score and whose turn it is, with the gnubg IDs' })
export class BackgammonPosition extends GameShown {
  @Field(() => ID, { description: 'The game' }) gameId: string;
  @Field(() => Int, { description: 'seq of the last event; pass it as expectedVersion' }) version: number;
  @Field(() => Int, { description: '0 for a money game, else the match length in points' }) matchLength: number;
  @Field(() => [Int], { description: `Score per seat before the current game (the final score once the match is over). ${SEAT}` }) score: number[];
  @Field(() => Int, { description: 'The game being played, from 1' }) gameNumber: number;
  @Field({ description: 'This is the Crawford game: nobody may double' }) crawfordGame: boolean;
  @Field({ description: 'The Crawford game has been played' }) postCrawford: boolean;
  @Field(() => BackgammonPhase, { description: 'Where the turn stands (opening roll, awaiting roll, rolling, double offered, awaiting play, match over)' }) phase: Phase;
  @Field(() => Int, {
    description: `The player whose turn it is (he rolls and plays the dice). Not always a seat that may act now: while he waits for the answer to his double or resignation, toAct names the answerer. ${SEAT}`,
  })
  playerOnRoll: number;
  @Field(() => [Int], {
    description:
      'Seat indexes that may act now, as Game.toAct answers them: the answerer of a double or resignation, else the player on roll; empty while dice are rolled, seats are open or the match is over',
  })
  toAct: number[];
  @Field(() => [Int], { nullable: true, description: "The dice of the current turn as thrown, pips 1-6 each (the opening roll: the starter's die first); null before the roll" }) dice: number[] | null;
  @Field(() => BackgammonCube, { description: 'The doubling cube: its value, owner and whether the player on roll may double' }) cube: BackgammonCube;
  @Field(() => BackgammonPendingDouble, { nullable: true, description: 'The double, beaver or raccoon awaiting an answer; null when none does' }) pendingDouble: BackgammonPendingDouble | null;
  @Field(() => BackgammonResignationOffer, { nullable: true, description: 'The resignation offer awaiting an answer; null when none does' }) resignation: BackgammonResignationOffer | null;
  @Field(() => BackgammonBoard, { description: "Every checker: per seat in the seat's own numbering (points, bar, borne off, pip count), and in White's numbering" }) board: BackgammonBoard;
  @Field({ description: 'GNU Backgammon Position ID (the checkers), seen from the player on roll' }) positionId: string;
  @Field({ description: 'GNU Backgammon Match ID (cube, dice, score, whose turn)' }) matchId: string;
  @Field({ description: '"PositionID:MatchID", as gnubg prints and reads it' }) gnubgId: string;
  @Field(() => BackgammonTurn, { nullable: true, description: 'The last turn played in the match (it carries over into the next game); null before the first turn' }) lastTurn: BackgammonTurn | null;
  @Field(() => [BackgammonGameResult], { description: 'Games finished so far' }) games: BackgammonGameResult[];
  @Field(() => Int, { nullable: true, description: 'The seat that won the match, once it is over' }) matchWinner: number | null;
}
