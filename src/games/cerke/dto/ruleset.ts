/** Cerke's typed ruleset: every option of the engine's parser (src/games/cerke/engine/ruleset.ts), its input and its resolved form. */
import { Field, InputType, Int, ObjectType } from '@nestjs/graphql';
import { SeatInput, TimeControlled } from '../../../api/models.js';
import { type CerkeRuleset, PROFILES, type Profile } from '../engine/index.js';
import { RulesetCheckFields } from '../../rulesets.js';
import { CerkeCastAnnouncement, CerkeProfile, CerkeTamAfterTamMoved, CerkeTamMunMok } from './enums.js';

/** One description per option, shared by the input (with its defaults) and the resolved options. */
const ABOUT = {
  profile: "The rule profile: cerke_online's rules (ONLINE) or the strict standardized rules (STRICT); it sets the default of every flag below",
  seasons: 'Seasons in the game: 1, 2 or 4',
  stepTamIsAHand: 'Stepping on Tam2 is the negative hand The Stepping (撃皇, −5); false: it costs 5 × the stake at once',
  tamItselfIsTamHue: "A piece stepping on Tam2 continues as from a square in Tam2's field (tam2 hue)",
  movingTamImmediatelyAfterTamHasMoved: 'Moving Tam2 on the turn right after the opponent moved it',
  tamMunMok: 'Tam2 ending its move on the square it started from',
  failureToCompleteTheMoveMeansExemptFromKut2Tam2: 'Stepping on Tam2 costs nothing when the move is then abandoned or fails the water test',
  whatToSayBeforeCastingSticks: "What the mover names before the sticks limit a stepping move's second leg",
  allowKut2Tam2: "Tam2's square may be stepped on (used as a via square)",
  scorePileWithNegativeHand:
    'When a declarer ends the season having made only negative hands this turn: true scores the whole pile as well (§12.3), false just the negative hands (the Rust reference)',
} as const satisfies Record<keyof CerkeRuleset, string>;

/** "Default: online X, strict Y", read from the engine's profiles so the schema never disagrees with them. */
const byProfile = (flag: keyof (typeof PROFILES)[Profile], show: (v: unknown) => string = (v) => JSON.stringify(v)) =>
  `Default: ONLINE ${show(PROFILES.online[flag])}, STRICT ${show(PROFILES.strict[flag])}`;
const word = (enumeration: Record<string, unknown>) => (v: unknown) => Object.keys(enumeration).find((k) => enumeration[k] === v) ?? String(v);

@InputType({ description: 'A Cerke ruleset: a profile, the seasons, and any rule flag to set otherwise than the profile does; omitted options take their default' })
export class CerkeRulesetInput {
  @Field(() => CerkeProfile, { nullable: true, description: `${ABOUT.profile}. Default ONLINE` }) profile?: Profile | null;
  @Field(() => Int, { nullable: true, description: `${ABOUT.seasons}. Default 4` }) seasons?: number | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.stepTamIsAHand}. ${byProfile('stepTamIsAHand')}` }) stepTamIsAHand?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.tamItselfIsTamHue}. ${byProfile('tamItselfIsTamHue')}` }) tamItselfIsTamHue?: boolean | null;
  @Field(() => CerkeTamAfterTamMoved, {
    nullable: true,
    description: `${ABOUT.movingTamImmediatelyAfterTamHasMoved}. ${byProfile('movingTamImmediatelyAfterTamHasMoved', word(CerkeTamAfterTamMoved))}`,
  })
  movingTamImmediatelyAfterTamHasMoved?: CerkeRuleset['movingTamImmediatelyAfterTamHasMoved'] | null;
  @Field(() => CerkeTamMunMok, { nullable: true, description: `${ABOUT.tamMunMok}. ${byProfile('tamMunMok', word(CerkeTamMunMok))}` }) tamMunMok?: CerkeRuleset['tamMunMok'] | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.failureToCompleteTheMoveMeansExemptFromKut2Tam2}. ${byProfile('failureToCompleteTheMoveMeansExemptFromKut2Tam2')}` })
  failureToCompleteTheMoveMeansExemptFromKut2Tam2?: boolean | null;
  @Field(() => CerkeCastAnnouncement, {
    nullable: true,
    description: `${ABOUT.whatToSayBeforeCastingSticks}. ${byProfile('whatToSayBeforeCastingSticks', word(CerkeCastAnnouncement))}`,
  })
  whatToSayBeforeCastingSticks?: CerkeRuleset['whatToSayBeforeCastingSticks'] | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.allowKut2Tam2}. ${byProfile('allowKut2Tam2')}` }) allowKut2Tam2?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: `${ABOUT.scorePileWithNegativeHand}. ${byProfile('scorePileWithNegativeHand')}` }) scorePileWithNegativeHand?: boolean | null;
}

@ObjectType({ description: 'A Cerke ruleset with every option resolved' })
export class CerkeRulesetOptions {
  @Field(() => CerkeProfile, { description: ABOUT.profile }) profile: Profile;
  @Field(() => Int, { description: ABOUT.seasons }) seasons: number;
  @Field({ description: ABOUT.stepTamIsAHand }) stepTamIsAHand: boolean;
  @Field({ description: ABOUT.tamItselfIsTamHue }) tamItselfIsTamHue: boolean;
  @Field(() => CerkeTamAfterTamMoved, { description: ABOUT.movingTamImmediatelyAfterTamHasMoved })
  movingTamImmediatelyAfterTamHasMoved: CerkeRuleset['movingTamImmediatelyAfterTamHasMoved'];
  @Field(() => CerkeTamMunMok, { description: ABOUT.tamMunMok }) tamMunMok: CerkeRuleset['tamMunMok'];
  @Field({ description: ABOUT.failureToCompleteTheMoveMeansExemptFromKut2Tam2 }) failureToCompleteTheMoveMeansExemptFromKut2Tam2: boolean;
  @Field(() => CerkeCastAnnouncement, { description: ABOUT.whatToSayBeforeCastingSticks }) whatToSayBeforeCastingSticks: CerkeRuleset['whatToSayBeforeCastingSticks'];
  @Field({ description: ABOUT.allowKut2Tam2 }) allowKut2Tam2: boolean;
  @Field({ description: ABOUT.scorePileWithNegativeHand }) scorePileWithNegativeHand: boolean;
}

@ObjectType({ description: 'A Cerke ruleset checked without creating a game' })
export class CerkeRulesetCheck extends RulesetCheckFields {
  @Field(() => CerkeRulesetOptions, { nullable: true, description: 'The resolved options, typed; null when the ruleset is invalid' }) options: CerkeRulesetOptions | null;
}

@InputType({ description: 'A new Cerke game: its ruleset, seats and clock' })
export class CerkeGameInput extends TimeControlled {
  @Field(() => CerkeRulesetInput, { nullable: true, description: 'Omitted: the online profile, four seasons' }) ruleset?: CerkeRulesetInput | null;
  @Field(() => [SeatInput], { nullable: true, description: 'Two seats: IA (seat 0) then A (seat 1); omitted: both taken by the creator' }) seats?: SeatInput[] | null;
}
