/** A game conceded with engine.resign ("resignGame" in the record) exports and imports to the same outcome. */
import { Codes, playRandomGame, replay, seededRandom, type ReplayEntry } from '../../../src/engines/kit/index.js';
import type { ChickenFootAction, ChickenFootRuleset, ChickenFootState } from '../../../src/games/chicken-foot/engine/index.js';
import { accepted, engine, rules } from './helpers.js';

/** Random legal play for `steps` entries (then on to the next decision), then `seat` concedes. */
function playThenResign(ruleset: ChickenFootRuleset, seed: number, steps: number, seat: number) {
  const rand = seededRandom(seed);
  const played = playRandomGame(engine, ruleset, rand, steps);
  const entries: ReplayEntry<ChickenFootAction>[] = played.entries;
  let state: ChickenFootState = played.state;
  for (let pending = engine.pendingChance(state); pending; pending = engine.pendingChance(state)) {
    const values = pending.ranges.map((n) => rand(n));
    state = accepted(engine.resolveChance(state, values));
    entries.push({ kind: 'chance', values });
  }
  if (engine.outcome(state)) return null;
  state = accepted(engine.resign(state, seat));
  entries.push({ kind: 'resign', seat });
  return { state, entries };
}

const brief = (s: ChickenFootState) => {
  const o = engine.outcome(s);
  return o && { winners: o.winners, points: o.points, summary: o.summary };
};

describe('Chicken Foot records: a game conceded with resign', () => {
  const tables: Record<string, unknown>[] = [
    { preset: 'classic', players: 3 },
    { preset: 'classic', players: 2, firstDealer: 'random' },
    { preset: 'malta-cross', players: 5 },
  ];
  for (const input of tables) {
    it(`${JSON.stringify(input)}: "resignGame" closes the record and imports as a resign entry with the same outcome`, () => {
      const ruleset = rules(input);
      let checked = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const rand = seededRandom(1000 + seed);
        const played = playThenResign(ruleset, seed, 1 + rand(600), rand(ruleset.players));
        if (!played) continue;
        const names = Array.from({ length: ruleset.players }, (_, i) => `P${i}`);
        const text = engine.exportRecord!(ruleset, played.entries, names);
        const record = JSON.parse(text);
        const lastRound = record.rounds[record.rounds.length - 1];
        const resigner = played.entries[played.entries.length - 1] as { kind: 'resign'; seat: number };
        expect(lastRound.actions[lastRound.actions.length - 1]).toEqual({ seat: resigner.seat, type: 'resignGame' });

        const imported = accepted(engine.importRecord!(text));
        expect(imported.entries).toEqual(played.entries);
        expect(imported.labels![imported.labels!.length - 1]).toBe(`round ${record.rounds.length}, action ${lastRound.actions.length}`);
        const back = replay(engine, accepted(engine.parseRuleset(imported.ruleset)), imported.entries);
        if (!back.ok) throw new Error(`${imported.labels![back.failure.index]}: ${back.failure.error.message}`);
        expect(brief(back.state)).toEqual(brief(played.state));
        expect(engine.outcome(back.state)!.summary).toContain(`seat ${resigner.seat} resigned`);
        expect(engine.exportRecord!(ruleset, imported.entries, names)).toBe(text);
        checked++;
      }
      expect(checked).toBeGreaterThan(6);
    });
  }

  it('refuses a resignGame that is not the last action, or that carries other fields', () => {
    const ruleset = rules({ preset: 'classic', players: 3 });
    const played = playThenResign(ruleset, 5, 40, 1)!;
    const record = JSON.parse(engine.exportRecord!(ruleset, played.entries, ['a', 'b', 'c']));
    const actions = record.rounds[0].actions as Record<string, unknown>[];
    const refusal = (text: string) => {
      const r = engine.importRecord!(text);
      if (r.ok) throw new Error('expected a refusal');
      expect(r.error.code).toBe(Codes.INVALID_INPUT);
      return r.error.message;
    };
    const early = JSON.parse(JSON.stringify(record));
    early.rounds[0].actions.splice(0, 0, { seat: 0, type: 'resignGame' });
    expect(refusal(JSON.stringify(early))).toMatch(/round 1, action 1: resignGame ends the game, so it must be the record's last action/);
    const extra = JSON.parse(JSON.stringify(record));
    extra.rounds[0].actions[actions.length - 1].tile = '1-2';
    expect(refusal(JSON.stringify(extra))).toMatch(/a resignGame action has no "tile" field/);
    // A seat may not send it as an ordinary action.
    expect(engine.parseAction({ type: 'resignGame' }).ok).toBe(false);
  });
});
