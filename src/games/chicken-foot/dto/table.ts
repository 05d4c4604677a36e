import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { JSONScalar } from '../../../api/json.scalar.js';
import type { BoardPhase, ChickenFootView, Preset, RoundEnd } from '../engine/index.js';
import { GameShown } from '../../typed-game.js';
import { ChickenFootPhase, ChickenFootPreset, ChickenFootRoundEnd, ChickenFootStatus } from './enums.js';

@ObjectType({ description: "The hub: the round's starting double and how many arms it has, needs and takes" })
export class ChickenFootHub {
  @Field({ description: 'The starting double, e.g. "9-9"' }) tile: string;
  @Field(() => Int, { description: 'Arms (lines) attached to the hub so far' }) arms: number;
  @Field(() => Int, { description: 'Arms the hub needs before any arm may be extended (the OPENING phase lasts until then)' }) requiredArms: number;
  @Field(() => Int, { description: 'The most arms the hub takes; the hub is no target once it has them' }) capacity: number;
}

@ObjectType({ description: 'A chicken foot still waiting for its toes: nothing else may be played until it has them' })
export class ChickenFootOpenFoot {
  @Field({ description: 'The double on the table that opened the chicken foot' }) tile: string;
  @Field(() => Int, { description: 'Toes played on it so far' }) toes: number;
  @Field(() => Int, { description: "Toes it needs before play goes on elsewhere (the ruleset's toesPerFoot)" }) needed: number;
}

@ObjectType({ description: 'The round in play, as everyone at the table sees it' })
export class ChickenFootRound {
  @Field(() => Int, { description: 'The round number, from 1' }) number: number;
  @Field(() => Int, { description: 'The seat that dealt this round' }) dealer: number;
  @Field({ description: "The round's starting double, the hub" }) startDouble: string;
  @Field(() => Int, { description: 'The seat that found (set aside) or placed (from hand) the starting double' }) starter: number;
  @Field(() => [Int], { description: 'Tiles each seat drew into its hand while searching for the starting double' }) searchDraws: number[];
  @Field(() => ChickenFootPhase, { description: 'OPENING (the hub needs arms), OPEN, or FOOT_OPEN (a chicken foot needs its toes first)' }) phase: BoardPhase;
  @Field(() => ChickenFootHub, { description: 'The hub: the starting double and its arms' }) hub: ChickenFootHub;
  @Field(() => ChickenFootOpenFoot, { nullable: true, description: 'The chicken foot still waiting for its toes; null when none is' }) openFoot: ChickenFootOpenFoot | null;
  @Field(() => JSONScalar, { description: 'The table as a tree from the hub: { tile, kind: hub|line|foot, value (the pip a tile must match there), open, children }' })
  table: unknown;
  @Field(() => [String], { description: 'Where a tile may be played now: "hub" or a tile on the table' }) targets: string[];
  @Field(() => [Int], { description: "Tiles in each seat's hand" }) handSizes: number[];
  @Field(() => Int, { description: 'Tiles left in the yard (the boneyard), reserve included; their order stays hidden until the round ends' }) yardSize: number;
  @Field(() => Int, { description: 'Tiles that may still be drawn (the yard above its reserve)' }) drawable: number;
  @Field(() => Int, { description: 'Tiles the seat to act has drawn this turn' }) drawsThisTurn: number;
}

@ObjectType({ description: 'A round that is over: everything about it is public, including the shuffle values behind its deal' })
export class ChickenFootFinishedRound {
  @Field(() => Int, { description: 'The round number, from 1' }) number: number;
  @Field(() => Int, { description: 'The seat that dealt the round' }) dealer: number;
  @Field({ description: "The round's starting double, the hub" }) startDouble: string;
  @Field(() => Int, { description: 'The seat that found (set aside) or placed (from hand) the starting double' }) starter: number;
  @Field(() => [Int], { description: 'Tiles each seat drew into its hand while searching for the starting double' }) searchDraws: number[];
  @Field(() => ChickenFootRoundEnd, { description: 'How the round ended: domino, blocked or abandoned' }) end: RoundEnd;
  @Field(() => Int, { nullable: true, description: 'The seat that played its last tile; null when the round was blocked or abandoned' }) wentOut: number | null;
  @Field(() => [Int], { nullable: true, description: 'Points per seat for the round; null for an abandoned round' }) scores: number[] | null;
  @Field(() => [Int], { description: 'Seats with the lowest round score' }) roundWinners: number[];
  @Field(() => [Int], { description: "The round's TilesShuffled values; their SHA-256 commitment was served with the deal" }) shuffle: number[];
  @Field(() => [String], { description: 'The order of the whole set those values produced' }) order: string[];
  @Field(() => [[String]], { description: 'Hands as dealt, seat 0 first' }) dealtHands: string[][];
  @Field(() => [[String]], { description: 'Hands at the end of the round' }) handsLeft: string[][];
  @Field(() => [String], { description: 'The yard (boneyard) left at the end of the round, the next tile to draw first' }) yardLeft: string[];
  @Field(() => JSONScalar, { description: 'The final table as a tree from the hub' }) table: unknown;
}

@ObjectType({ description: 'A Chicken Foot game as the caller may see it: its own hand only, every other hand as a count until the round ends' })
export class ChickenFootTable extends GameShown {
  @Field(() => ID, { description: 'The game' }) gameId: string;
  @Field(() => Int, { description: 'Pass it as expectedVersion' }) version: number;
  @Field(() => ChickenFootStatus, { description: 'DEALING (waiting for a round to be dealt, or for seats), PLAYING a round, or FINISHED' }) status: ChickenFootView['status'];
  @Field(() => Int, { nullable: true, description: "The caller's seat; null for spectators" }) seat: number | null;
  @Field(() => [String], { nullable: true, description: "The caller's hand; null for spectators and between rounds" }) hand: string[] | null;
  @Field(() => Int, { description: 'Number of seats, 2 to 8' }) players: number;
  @Field(() => ChickenFootPreset, { description: 'The ruleset preset: CLASSIC or MALTA_CROSS' }) preset: Preset;
  @Field(() => Int, { nullable: true, description: 'Null until drawn' }) firstDealer: number | null;
  @Field(() => Int, { description: 'The round in play, or the next one to be dealt' }) roundNumber: number;
  @Field(() => Int, { nullable: true, description: 'The seat to act; null when nobody may act', deprecationReason: 'Use toAct (the same seat, as a list like every game answers it)' })
  turn: number | null;
  @Field(() => [Int], { description: 'Seat indexes that may act now, as Game.toAct answers them: the seat whose turn it is; empty between rounds, while seats are open and once the game is over' })
  toAct: number[];
  @Field(() => ChickenFootRound, { nullable: true, description: 'The round in play; null between rounds and once the game is over' }) round: ChickenFootRound | null;
  @Field(() => [Int], { description: 'Running totals per seat (lowest wins)' }) totals: number[];
  @Field(() => [ChickenFootFinishedRound], { description: 'The rounds played so far, in order, each in full (hands, yard and shuffle included)' }) finishedRounds: ChickenFootFinishedRound[];
  @Field(() => JSONScalar, { nullable: true, description: 'The outcome, once the game is over (typed: Game.outcome)' }) result: unknown;
}
