/**
 * Ruleset JSON as clients write it, in the engine's spelling. The typed API spells each choice as
 * a GraphQL enum (ONLINE, MALTA_CROSS, EXACT_DESTINATION), the engines as words ("online",
 * "malta-cross", "exactDestination"): a JSON ruleset may use either, in any letter case. The
 * engines' parsers stay strict, and the stored ruleset (and its hash) keeps the engine spelling.
 */

/** "MALTA_CROSS", "malta-cross" and "maltaCross" alike. */
const squashed = (word: string) => word.replace(/[-_\s]/g, '').toLowerCase();

/** `ruleset` with each word of an option in `choices` in the engine's spelling; anything else is left for the engine to judge. */
export function spelledRuleset(choices: Readonly<Record<string, readonly string[]>>, ruleset: unknown): unknown {
  if (typeof ruleset !== 'object' || ruleset === null || Array.isArray(ruleset)) return ruleset;
  const spelled = (options: readonly string[], value: unknown) => {
    if (typeof value !== 'string' || options.includes(value)) return value;
    return options.find((o) => squashed(o) === squashed(value)) ?? value;
  };
  // Own keys only, and defined as data (fromEntries): "__proto__" stays an unknown option the engine refuses.
  return Object.fromEntries(
    Object.entries(ruleset).map(([key, value]) => {
      const options = Object.hasOwn(choices, key) ? choices[key] : undefined;
      if (!options) return [key, value];
      return [key, Array.isArray(value) ? value.map((v) => spelled(options, v)) : spelled(options, value)];
    }),
  );
}
