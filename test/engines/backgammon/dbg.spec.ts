import { seededRandom, replay, type ReplayEntry } from '../../../src/engines/kit/index.js';
import { backgammonEngine as bg, exportRecord, importRecord, type BackgammonAction } from '../../../src/engines/backgammon/index.js';
import { ruleset } from './helpers.js';
it('dbg', () => {
  const r = ruleset({ matchLength: 3, resignWhen: 'any-time' });
  const rand = seededRandom(1844440550);
  let state = bg.init(r);
  const entries: ReplayEntry<BackgammonAction>[] = [];
  for (let i = 0; i < 20_000 && !bg.outcome(state); i++) {
    const pending = bg.pendingChance(state);
    let entry: ReplayEntry<BackgammonAction>;
    if (pending) entry = { kind: 'chance', values: pending.ranges.map((n) => rand(n)) };
    else {
      const seats = bg.toAct(state);
      const seat = seats[rand(seats.length)];
      const all = bg.legalActions(state, seat);
      const calm = all.filter((a) => a.type !== 'resign');
      const actions = calm.length && rand(50) > 0 ? calm : all;
      entry = { kind: 'action', seat, action: actions[rand(actions.length)] };
    }
    const next = entry.kind === 'chance' ? bg.resolveChance(state, entry.values) : bg.apply(state, entry.seat, entry.action);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
    entries.push(entry);
  }
  const text = exportRecord(r, entries, ['Alice', 'Bob']);
  console.log(text);
  console.log(JSON.stringify(state.games));
  console.log(JSON.stringify(entries.filter((e) => e.kind === 'action' && e.action.type !== 'play' && e.action.type !== 'roll')));
  const imp = importRecord(text);
  if (!imp.ok) throw new Error(imp.error.message);
  const again = replay(bg, imp.value.parsedRuleset!, imp.value.entries);
  console.log(JSON.stringify(again.state.games));
});
