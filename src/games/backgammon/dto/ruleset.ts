/** Backgammon's typed ruleset: every option of the engine's parser (src/games/backgammon/engine/parse.ts), its input and its resolved form. */
import { Field, InputType, Int, ObjectType } from '@nestjs/graphql';
import { SeatInput, TimeControlled } from '../../../api/models.js';
import type { BackgammonRuleset } from '../engine/index.js';
import { RulesetCheckFields } from '../../rulesets.js';
import { BackgammonOpeningRoll, BackgammonResignWhen } from './enums.js';

const MONEY = 'Money play only (matchLength 0)';

/** One description per option, shared by the input (with its default) and the resolved options. */
const ABOUT = {
  matchLength: '0 for one money game, else a match to this many points (1-32767)',
  crawford: 'Crawford rule: nobody may double in the game after a player first reaches match point minus one',
  holland: 'Holland rule: after the Crawford game the trailer may double only after both players have rolled twice',
  cubeEnabled: 'The doubling cube is in play',
  maxCube: 'The highest cube value, a power of two from 1 to 32768; null for no limit (up to 32768, what a Match ID holds)',
  jacoby: `Jacoby rule: gammons and backgammons count single unless the cube was turned. ${MONEY}`,
  beavers: `Beavers allowed per game (0-15): the taker redoubles at once, keeping the cube. ${MONEY}`,
  raccoons: `Raccoons: the doubler answers a beaver by redoubling again (needs beavers). ${MONEY}`,
  automaticDoubles: `Automatic doubles per game (0-15): equal opening dice double the cube in the middle. ${MONEY}`,
  openingRoll: 'What the starter does after the opening roll',
  autoRoll: 'Roll for a player automatically when he may not double (no backgammonRoll needed)',
  skipRollWhenClosedOut: 'Skip the roll of a player on the bar against a closed board (his turn passes)',
  backgammonIncludesBar: "A checker on the bar counts towards a backgammon (as well as one in the winner's home board)",
  resignWhen: 'When a player may offer to resign',
  forbidRepeatLowerResignation: 'Once a resignation is rejected, its player may offer only a higher level in the same turn',
  jacobyAppliesToResignations: 'With the Jacoby rule, a resignation at gammon or backgammon level also counts single while the cube is in the middle',
  autoPlayForced: 'The referee plays a roll that leaves exactly one legal final position at once, as its own event (marked forced)',
} as const satisfies Record<keyof BackgammonRuleset, string>;

@InputType({ description: 'A backgammon ruleset; every option may be omitted for its default' })
export class BackgammonRulesetInput {
  @Field(() => Int, { nullable: true, description: `${ABOUT.matchLength}. Default 0` }) matchLength?: number | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.crawford}. Default true` }) crawford?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.holland}. Default false` }) holland?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.cubeEnabled}. Default true` }) cubeEnabled?: boolean | null;
  @Field(() => Int, { nullable: true, description: `${ABOUT.maxCube}. Omitted: 64; an explicit null: no limit` }) maxCube?: number | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.jacoby}. Default true for money play, false (and refused) in a match` }) jacoby?: boolean | null;
  @Field(() => Int, { nullable: true, description: `${ABOUT.beavers}. Default 0` }) beavers?: number | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.raccoons}. Default false` }) raccoons?: boolean | null;
  @Field(() => Int, { nullable: true, description: `${ABOUT.automaticDoubles}. Default 0` }) automaticDoubles?: number | null;
  @Field(() => BackgammonOpeningRoll, { nullable: true, description: `${ABOUT.openingRoll}. Default USE_OPENING_DICE` }) openingRoll?: BackgammonRuleset['openingRoll'] | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.autoRoll}. Default false` }) autoRoll?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.skipRollWhenClosedOut}. Default false` }) skipRollWhenClosedOut?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.backgammonIncludesBar}. Default true` }) backgammonIncludesBar?: boolean | null;
  @Field(() => BackgammonResignWhen, { nullable: true, description: `${ABOUT.resignWhen}. Default OWN_TURN` }) resignWhen?: BackgammonRuleset['resignWhen'] | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.forbidRepeatLowerResignation}. Default true` }) forbidRepeatLowerResignation?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.jacobyAppliesToResignations}. Default false` }) jacobyAppliesToResignations?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.autoPlayForced}. Default false` }) autoPlayForced?: boolean | null;
}

@ObjectType({ description: 'A backgammon ruleset with every option resolved' })
export class BackgammonRulesetOptions {
  @Field(() => Int, { description: ABOUT.matchLength }) matchLength: number;
  @Field({ description: ABOUT.crawford }) crawford: boolean;
  @Field({ description: ABOUT.holland }) holland: boolean;
  @Field({ description: ABOUT.cubeEnabled }) cubeEnabled: boolean;
  @Field(() => Int, { nullable: true, description: ABOUT.maxCube }) maxCube: number | null;
  @Field({ description: ABOUT.jacoby }) jacoby: boolean;
  @Field(() => Int, { description: ABOUT.beavers }) beavers: number;
  @Field({ description: ABOUT.raccoons }) raccoons: boolean;
  @Field(() => Int, { description: ABOUT.automaticDoubles }) automaticDoubles: number;
  @Field(() => BackgammonOpeningRoll, { description: ABOUT.openingRoll }) openingRoll: BackgammonRuleset['openingRoll'];
  @Field({ description: ABOUT.autoRoll }) autoRoll: boolean;
  @Field({ description: ABOUT.skipRollWhenClosedOut }) skipRollWhenClosedOut: boolean;
  @Field({ description: ABOUT.backgammonIncludesBar }) backgammonIncludesBar: boolean;
  @Field(() => BackgammonResignWhen, { description: ABOUT.resignWhen }) resignWhen: BackgammonRuleset['resignWhen'];
  @Field({ description: ABOUT.forbidRepeatLowerResignation }) forbidRepeatLowerResignation: boolean;
  @Field({ description: ABOUT.jacobyAppliesToResignations }) jacobyAppliesToResignations: boolean;
  @Field({ description: ABOUT.autoPlayForced }) autoPlayForced: boolean;
}

@ObjectType({ description: 'A backgammon ruleset checked without creating a game' })
export class BackgammonRulesetCheck extends RulesetCheckFields {
  @Field(() => BackgammonRulesetOptions, { nullable: true, description: 'The resolved options, typed; null when the ruleset is invalid' }) options: BackgammonRulesetOptions | null;
}

@InputType({ description: 'A new backgammon game: its ruleset, seats and clock' })
export class BackgammonGameInput extends TimeControlled {
  @Field(() => BackgammonRulesetInput, { nullable: true, description: 'Omitted: one money game with the default options' }) ruleset?: BackgammonRulesetInput | null;
  @Field(() => [SeatInput], { nullable: true, description: 'Two seats, White (seat 0) then Black; omitted: both taken by the creator' }) seats?: SeatInput[] | null;
}
