import type { Engine, ReplayEntry, Seat } from './engine.js';

/**
 * Plays a whole game with random legal actions and random chance values (from `rand`, e.g.
 * seededRandom). Returns the entries played and the final state. Stops after `maxSteps` so a
 * broken engine cannot loop forever; callers assert the game ended.
 */
export function playRandomGame<R, S, A>(
  engine: Engine<R, S, A>,
  ruleset: R,
  rand: (n: number) => number,
  maxSteps = 100_000,
  onStep?: (state: S, entry: ReplayEntry<A>) => void,
): { state: S; entries: ReplayEntry<A>[]; finished: boolean } {
  let state = engine.init(ruleset);
  const entries: ReplayEntry<A>[] = [];
  for (let i = 0; i < maxSteps; i++) {
    if (engine.outcome(state)) return { state, entries, finished: true };
    const pending = engine.pendingChance(state);
    let entry: ReplayEntry<A>;
    let next;
    if (pending) {
      entry = { kind: 'chance', values: pending.ranges.map((n) => rand(n)) };
      next = engine.resolveChance(state, entry.values);
    } else {
      const seats = engine.toAct(state);
      if (seats.length === 0) throw new Error('no seat may act, no chance pending, and no outcome');
      const seat: Seat = seats[rand(seats.length)];
      const actions = engine.legalActions(state, seat);
      if (actions.length === 0) throw new Error(`seat ${seat} must act but has no legal action`);
      entry = { kind: 'action', seat, action: actions[rand(actions.length)] };
      next = engine.apply(state, seat, entry.action);
    }
    if (!next.ok) throw new Error(`engine refused its own legal step: ${next.error.code} ${next.error.message}`);
    state = next.value;
    entries.push(entry);
    onStep?.(state, entry);
  }
  return { state, entries, finished: engine.outcome(state) !== null };
}
