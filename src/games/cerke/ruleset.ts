/** Cerke ruleset advice: each flag set otherwise than its profile sets it (a game that is then neither profile). */
import { type CerkeRuleset, PROFILES } from './engine/index.js';

export function cerkeRulesetWarnings(r: CerkeRuleset): string[] {
  const profile = PROFILES[r.profile];
  return (Object.keys(profile) as (keyof typeof profile)[])
    .filter((flag) => r[flag] !== profile[flag])
    .map((flag) => `${flag} is ${JSON.stringify(r[flag])}, not the ${r.profile} profile's ${JSON.stringify(profile[flag])}: the game plays neither profile exactly`);
}
