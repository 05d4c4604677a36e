/** A tournament's ruleset as the games' create mutations take it: the same typed inputs, presets and checks. */
import { Field, InputType } from '@nestjs/graphql';
import { RefereeError } from '../referee/index.js';
import { BackgammonRulesetInput } from './backgammon/dto/ruleset.js';
import { backgammonRulesetJson, backgammonRulesetWarnings } from './backgammon/ruleset.js';
import { CerkeRulesetInput } from './cerke/dto/ruleset.js';
import { cerkeRulesetWarnings } from './cerke/ruleset.js';
import { ChickenFootRulesetInput } from './chicken-foot/dto/game.input.js';
import { rulesetWarnings as chickenFootRulesetWarnings } from './chicken-foot/engine/index.js';
import { rulesetOf } from './chicken-foot/setup.js';
import { normaliseRuleset } from './index.js';
import { definedOptions } from './rulesets.js';

/** The typed ruleset fields a tournament input has: one per game, each that game's create-mutation input. */
@InputType({ isAbstract: true })
export abstract class TypedRulesets {
  @Field(() => BackgammonRulesetInput, { nullable: true, description: 'kind "backgammon": the ruleset as createBackgammonGame takes it (check it with backgammonRulesetCheck)' })
  backgammonRuleset?: BackgammonRulesetInput | null;
  @Field(() => CerkeRulesetInput, { nullable: true, description: 'kind "cerke": the ruleset as createCerkeGame takes it (check it with cerkeRulesetCheck)' })
  cerkeRuleset?: CerkeRulesetInput | null;
  @Field(() => ChickenFootRulesetInput, {
    nullable: true,
    description: 'kind "chicken-foot": the ruleset as createChickenFootGame takes it, players being the table size (check it with chickenFootRulesetCheck)',
  })
  chickenFootRuleset?: ChickenFootRulesetInput | null;
}

/** Each typed field's game, its engine JSON as that game's create mutation makes it, and the advice that game's ruleset check gives. */
const TYPED: readonly { field: keyof TypedRulesets; kind: string; json: (input: never) => Record<string, unknown>; warnings: (ruleset: never) => string[] }[] = [
  { field: 'backgammonRuleset', kind: 'backgammon', json: (input: BackgammonRulesetInput) => backgammonRulesetJson(input), warnings: backgammonRulesetWarnings },
  { field: 'cerkeRuleset', kind: 'cerke', json: (input: CerkeRulesetInput) => definedOptions(input), warnings: cerkeRulesetWarnings },
  { field: 'chickenFootRuleset', kind: 'chicken-foot', json: (input: ChickenFootRulesetInput) => rulesetOf(input), warnings: chickenFootRulesetWarnings },
];

/** The advice the game's own ruleset check gives for a resolved ruleset (none for a game without one). */
export const tournamentRulesetWarnings = (kind: string, ruleset: unknown): string[] => TYPED.find((t) => t.kind === kind)?.warnings(ruleset as never) ?? [];

/**
 * A tournament's ruleset JSON: its game's typed ruleset, or the JSON form (a choice in either
 * spelling); a typed ruleset for another game, or both forms at once, is refused.
 */
export function tournamentRuleset(kind: string, json: unknown, typed: TypedRulesets): unknown {
  const given = TYPED.filter((t) => typed[t.field] !== null && typed[t.field] !== undefined);
  if (given.length === 0) return normaliseRuleset(kind, json);
  const [one, ...more] = given;
  if (more.length > 0) throw new RefereeError('INVALID_INPUT', `give one ruleset: ${given.map((t) => t.field).join(' and ')} are both given`);
  if (one.kind !== kind) throw new RefereeError('INVALID_INPUT', `${one.field} is for kind "${one.kind}"; this tournament's kind is "${kind}"`);
  if (json !== null && json !== undefined) throw new RefereeError('INVALID_INPUT', `give the ruleset once: as ${one.field} or as the JSON ruleset, not both`);
  return one.json(typed[one.field] as never);
}
