/** Backgammon ruleset advice: options the engine accepts that have no effect, or a surprising one, in this ruleset. */
import type { BackgammonRuleset } from './engine/index.js';
import type { BackgammonRulesetInput } from './dto/ruleset.js';
import { definedOptions } from '../rulesets.js';

/** The typed ruleset as the engine's JSON (an explicit null maxCube means no limit). */
export const backgammonRulesetJson = (input: BackgammonRulesetInput | null | undefined) => definedOptions(input ?? {}, ['maxCube']);

export function backgammonRulesetWarnings(r: BackgammonRuleset): string[] {
  const warnings: string[] = [];
  if (r.holland && r.matchLength === 0) warnings.push('holland has no effect in money play (it restricts doubling after the Crawford game of a match)');
  if (r.holland && r.matchLength > 0 && !r.crawford) warnings.push('holland has no effect without the Crawford rule (it applies after the Crawford game)');
  if (!r.cubeEnabled) {
    const cubeOnly = (
      [
        [r.beavers > 0, 'beavers'],
        [r.raccoons, 'raccoons'],
        [r.automaticDoubles > 0, 'automaticDoubles'],
      ] as const
    ).flatMap(([on, name]) => (on ? [name] : []));
    if (cubeOnly.length > 0) warnings.push(`${cubeOnly.join(', ')} ha${cubeOnly.length === 1 ? 's' : 've'} no effect with the cube disabled`);
    if (r.jacoby) warnings.push('with the Jacoby rule and the cube disabled the cube is never turned, so gammons and backgammons always count single');
  }
  return warnings;
}
