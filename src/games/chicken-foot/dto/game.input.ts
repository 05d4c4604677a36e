import { Field, InputType, Int } from '@nestjs/graphql';
import { JSONScalar } from '../../../api/json.scalar.js';
import { SeatInput, TimeControlled } from '../../../api/models.js';
import type { ChickenFootRuleset, Preset } from '../engine/index.js';
import { ChickenFootDrawPolicy, ChickenFootPreset } from './enums.js';

@InputType({ description: 'Chicken Foot ruleset: a preset, the number of players and the options people change most; `overrides` takes any other option by its ruleset name' })
export class ChickenFootRulesetInput {
  @Field(() => ChickenFootPreset, { nullable: true, description: 'Default CLASSIC' }) preset?: Preset | null;
  @Field(() => Int, { description: '2 to 8 players' }) players: number;
  @Field(() => Int, { nullable: true, description: 'N of the double-N set (6 to 18; default 9)' }) setMax?: number | null;
  @Field(() => Int, { nullable: true, description: "Tiles dealt to each player (default: the preset's size for this many players)" }) handSize?: number | null;
  @Field(() => Int, { nullable: true, description: 'The seat that deals round 1; omitted: drawn at random' }) firstDealer?: number | null;
  @Field(() => Int, { nullable: true, description: 'Arms the hub needs before any arm is extended (classic: one per player; malta-cross: 4)' }) hubRequiredArms?: number | null;
  @Field(() => Int, { nullable: true, description: 'Toes a chicken foot needs before play goes on elsewhere (default 3)' }) toesPerFoot?: number | null;
  @Field(() => ChickenFootDrawPolicy, { nullable: true, description: 'Default ONE' }) drawPolicy?: ChickenFootRuleset['drawPolicy'] | null;
  @Field(() => Boolean, { nullable: true, description: 'A drawn tile that fits must be played (classic: yes)' }) mustPlayDrawn?: boolean | null;
  @Field(() => Int, { nullable: true, description: "The game ends after the round in which someone's total reaches this score; omitted: after the 0-0 round" })
  targetScore?: number | null;
  @Field(() => JSONScalar, { nullable: true, description: 'Any other ruleset option by name, e.g. { "doubleBlankValue": 50, "lastTileCall": { "enabled": true } }' })
  overrides?: Record<string, unknown> | null;
}

@InputType({ description: "An organizer's deal for one round: each seat's hand, the yard, and with a set-aside starting double the seat that finds it" })
export class ChickenFootDealInput {
  @Field(() => [[String]], { description: 'One hand per seat, seat 0 first, tiles in any order' }) hands: string[][];
  @Field(() => [String], { description: 'The yard, the next tile drawn first' }) yard: string[];
  @Field(() => Int, {
    nullable: true,
    description: "Only when the starting double is set aside (classic): the seat whose search turns it up, who leads the round. The round's starting double is the one tile in neither hands nor yard",
  })
  finder?: number | null;
}

@InputType({ description: 'A new Chicken Foot game: its ruleset, seats, clock and, optionally, organizer deals' })
export class ChickenFootGameInput extends TimeControlled {
  @Field(() => ChickenFootRulesetInput, { description: 'The preset, the number of players and any options changed' }) ruleset: ChickenFootRulesetInput;
  @Field(() => [SeatInput], { nullable: true, description: 'One per seat; omitted: every seat taken by the creator' }) seats?: SeatInput[] | null;
  @Field(() => [ChickenFootDealInput], { nullable: true, description: 'Organizer deals for rounds 1, 2, ... in order; rounds beyond them are dealt by the referee' })
  deals?: ChickenFootDealInput[] | null;
  @Field(() => Int, { nullable: true, description: 'With deals and a random first dealer: the seat the organizer drew to deal round 1' })
  drawnFirstDealer?: number | null;
}
