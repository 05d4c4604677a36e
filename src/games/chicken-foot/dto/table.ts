import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { JSONScalar } from '../../../api/json.scalar.js';
import type { BoardPhase, ChickenFootView, Preset, RoundEnd } from '../../../engines/chicken-foot/index.js';
import { ChickenFootPhase, ChickenFootPreset, ChickenFootRoundEnd, ChickenFootStatus } from './enums.js';

@ObjectType({ description: "The hub: the round's starting double and how many arms it has, needs and takes" })
export class ChickenFootHub {
  @Field() tile: string;
  @Field(() => Int) arms: number;
  @Field(() => Int) requiredArms: number;
  @Field(() => Int) capacity: number;
}

@ObjectType({ description: 'A chicken foot still waiting for its toes: nothing else may be played until it has them' })
export class ChickenFootOpenFoot {
  @Field() tile: string;
  @Field(() => Int) toes: number;
  @Field(() => Int) needed: number;
}

@ObjectType({ description: 'The round in play, as everyone at the table sees it' })
export class ChickenFootRound {
  @Field(() => Int) number: number;
  @Field(() => Int) dealer: number;
  @Field({ description: "The round's starting double, the hub" }) startDouble: string;
  @Field(() => Int, { description: 'The seat that found (set aside) or placed (from hand) the starting double' }) starter: number;
  @Field(() => [Int], { description: 'Tiles each seat drew into its hand while searching for the starting double' }) searchDraws: number[];
  @Field(() => ChickenFootPhase) phase: BoardPhase;
  @Field(() => ChickenFootHub) hub: ChickenFootHub;
  @Field(() => ChickenFootOpenFoot, { nullable: true }) openFoot: ChickenFootOpenFoot | null;
  @Field(() => JSONScalar, { description: 'The table as a tree from the hub: { tile, kind: hub|line|foot, value (the pip a tile must match there), open, children }' })
  table: unknown;
  @Field(() => [String], { description: 'Where a tile may be played now: "hub" or a tile on the table' }) targets: string[];
  @Field(() => [Int], { description: "Tiles in each seat's hand" }) handSizes: number[];
  @Field(() => Int) yardSize: number;
  @Field(() => Int, { description: 'Tiles that may still be drawn (the yard above its reserve)' }) drawable: number;
  @Field(() => Int, { description: 'Tiles the seat to act has drawn this turn' }) drawsThisTurn: number;
}

@ObjectType({ description: 'A round that is over: everything about it is public, including the shuffle values behind its deal' })
export class ChickenFootFinishedRound {
  @Field(() => Int) number: number;
  @Field(() => Int) dealer: number;
  @Field() startDouble: string;
  @Field(() => Int) starter: number;
  @Field(() => [Int]) searchDraws: number[];
  @Field(() => ChickenFootRoundEnd) end: RoundEnd;
  @Field(() => Int, { nullable: true, description: 'The seat that played its last tile' }) wentOut: number | null;
  @Field(() => [Int], { nullable: true, description: 'Points per seat for the round; null for an abandoned round' }) scores: number[] | null;
  @Field(() => [Int], { description: 'Seats with the lowest round score' }) roundWinners: number[];
  @Field(() => [Int], { description: "The round's TilesShuffled values; their SHA-256 commitment was served with the deal" }) shuffle: number[];
  @Field(() => [String], { description: 'The order of the whole set those values produced' }) order: string[];
  @Field(() => [[String]], { description: 'Hands as dealt, seat 0 first' }) dealtHands: string[][];
  @Field(() => [[String]], { description: 'Hands at the end of the round' }) handsLeft: string[][];
  @Field(() => [String]) yardLeft: string[];
  @Field(() => JSONScalar, { description: 'The final table as a tree from the hub' }) table: unknown;
}

@ObjectType({ description: 'A Chicken Foot game as the caller may see it: its own hand only, every other hand as a count until the round ends' })
export class ChickenFootTable {
  @Field(() => ID) gameId: string;
  @Field(() => Int, { description: 'Pass it as expectedVersion' }) version: number;
  @Field(() => ChickenFootStatus) status: ChickenFootView['status'];
  @Field(() => Int, { nullable: true, description: "The caller's seat; null for spectators" }) seat: number | null;
  @Field(() => [String], { nullable: true, description: "The caller's hand; null for spectators and between rounds" }) hand: string[] | null;
  @Field(() => Int) players: number;
  @Field(() => ChickenFootPreset) preset: Preset;
  @Field(() => Int, { nullable: true, description: 'Null until drawn' }) firstDealer: number | null;
  @Field(() => Int, { description: 'The round in play, or the next one to be dealt' }) roundNumber: number;
  @Field(() => Int, { nullable: true, description: 'The seat to act; null when nobody may act', deprecationReason: 'Use toAct (the same seat, as a list like every game answers it)' })
  turn: number | null;
  @Field(() => [Int], { description: 'Seat indexes that may act now, as Game.toAct answers them: the seat whose turn it is; empty between rounds, while seats are open and once the game is over' })
  toAct: number[];
  @Field(() => ChickenFootRound, { nullable: true }) round: ChickenFootRound | null;
  @Field(() => [Int], { description: 'Running totals per seat (lowest wins)' }) totals: number[];
  @Field(() => [ChickenFootFinishedRound]) finishedRounds: ChickenFootFinishedRound[];
  @Field(() => JSONScalar, { nullable: true, description: 'The outcome, once the game is over (typed: Game.outcome)' }) result: unknown;
}
