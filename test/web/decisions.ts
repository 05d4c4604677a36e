import type { Engine } from '../../src/engines/kit/index.js';

/**
 * A game played from its ruleset by a list of choices (chance values and actions alike) to a seat's
 * decision, or null when it ended or waits on chance there. `pool` narrows the actions a choice
 * picks from (a test may prefer some kinds).
 */
export function decisionAfter<R, S, A>(engine: Engine<R, S, A>, rules: unknown, choices: readonly number[], pool: (actions: A[], choice: number) => A[] = (actions) => actions): S | null {
  const parsed = engine.parseRuleset(rules);
  if (!parsed.ok) throw new Error(parsed.error.message);
  let state = engine.init(parsed.value);
  for (const choice of choices) {
    const chance = engine.pendingChance(state);
    const seat = engine.toAct(state)[0];
    if (!chance && seat === undefined) return null;
    let next;
    if (chance)
      next = engine.resolveChance(
        state,
        chance.ranges.map((r, i) => (choice + i * 7919) % r),
      );
    else {
      const actions = pool(engine.legalActions(state, seat), choice);
      next = engine.apply(state, seat, actions[choice % actions.length]);
    }
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
  }
  return engine.pendingChance(state) || engine.toAct(state).length === 0 ? null : state;
}
