/** A game conceded with engine.resign: cerke_online text with a {投了:黒|赤} header tag, imported back as a resign entry. */
import { readFileSync } from 'node:fs';
import type { CerkeAction, CerkeRuleset, CerkeState } from '../../../src/games/cerke/engine/index.js';
import { Codes, playRandomGame, replay, seededRandom, type ReplayEntry } from '../../../src/engines/kit/index.js';
import { engine, online, rules, strict } from './helpers.js';

/** Random legal play for `steps` entries, then on until no cast is pending, then `seat` resigns (null if the game ended first). */
function playThenResign(ruleset: CerkeRuleset, seed: number, steps: number, seat: number) {
  const rand = seededRandom(seed);
  const played = playRandomGame(engine, ruleset, rand, steps);
  const entries: ReplayEntry<CerkeAction>[] = played.entries;
  let state: CerkeState = played.state;
  for (let pending = engine.pendingChance(state); pending; pending = engine.pendingChance(state)) {
    const values = pending.ranges.map((n) => rand(n));
    const next = engine.resolveChance(state, values);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
    entries.push({ kind: 'chance', values });
  }
  if (engine.outcome(state)) return null;
  const phase = state.phase.name;
  const next = engine.resign(state, seat);
  if (!next.ok) throw new Error(next.error.message);
  entries.push({ kind: 'resign', seat });
  return { state: next.value, entries, phase };
}

const brief = (s: CerkeState) => {
  const o = engine.outcome(s);
  return o && { winners: o.winners, points: o.points, summary: o.summary };
};

function roundTrip(ruleset: CerkeRuleset, entries: ReplayEntry<CerkeAction>[]) {
  const text = engine.exportRecord!(ruleset, entries, ['Ia', 'Ai']);
  const imported = engine.importRecord!(text);
  if (!imported.ok) throw new Error(`${imported.error.message}\n${text}`);
  const parsed = engine.parseRuleset(imported.value.ruleset);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const result = replay(engine, parsed.value, imported.value.entries);
  if (!result.ok) throw new Error(`${imported.value.labels![result.failure.index]}: ${result.failure.error.message}\n${text}`);
  return { text, imported: imported.value, state: result.state };
}

describe('Cerke records: a game conceded with resign', () => {
  for (const [name, ruleset] of [
    ['online', online],
    ['strict', strict],
    ['online, two seasons', rules({ profile: 'online', seasons: 2 })],
  ] as const) {
    it(`${name}: {投了:…} after {終時:} imports as a resign entry with the same outcome`, () => {
      const phases = new Set<string>();
      let checked = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const pick = seededRandom(5000 + seed);
        // Early steps too: a resignation right after the first-mover cast leaves the body empty.
        const steps = seed <= 3 ? seed : 1 + pick(ruleset === strict ? 40 : 250);
        const seat = pick(2);
        const played = playThenResign(ruleset, seed, steps, seat);
        if (!played) continue;
        phases.add(played.phase);
        const { text, imported, state } = roundTrip(ruleset, played.entries);
        const lines = text.split('\n');
        expect(lines.slice(0, 3).map((l) => l.replace(/:.*/, ''))).toEqual(['{一位色', '{始時', '{終時']);
        expect(lines[3]).toBe(`{投了:${seat === 0 ? '黒' : '赤'}}`);
        expect(text).not.toContain('星一周');
        expect(imported.entries.filter((e) => e.kind === 'resign')).toEqual([{ kind: 'resign', seat }]);
        expect(imported.entries[imported.entries.length - 1]).toEqual({ kind: 'resign', seat });
        expect(brief(state)).toEqual(brief(played.state));
        expect(engine.outcome(state)!.summary).toContain(`${seat === 0 ? 'IA' : 'A'} resigned`);
        expect(state.seasonResults).toEqual(played.state.seasonResults);
        // And the imported game exports to the same text.
        expect(engine.exportRecord!(ruleset, imported.entries, ['Ia', 'Ai'])).toBe(text);
        checked++;
      }
      expect(checked).toBeGreaterThan(20);
      expect(phases.has('move')).toBe(true);
    });
  }

  it('a resignation before the first move, in the declaration phase and in the middle of a stepping move', () => {
    const rand = seededRandom(77);
    let found = { empty: false, declaration: false, stepCompletion: false };
    for (let seed = 1; seed <= 400 && !(found.empty && found.declaration && found.stepCompletion); seed++) {
      // Stop at the first step where the interesting phase comes up.
      const played = playRandomGame(engine, online, seededRandom(seed), 3000);
      const entries = played.entries;
      let state = engine.init(online);
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        const next = e.kind === 'chance' ? engine.resolveChance(state, e.values) : engine.apply(state, e.seat, (e as { action: CerkeAction }).action);
        if (!next.ok) throw new Error(next.error.message);
        state = next.value;
        const phase = state.phase.name;
        const key = i === 0 && phase === 'move' ? 'empty' : phase === 'declaration' ? 'declaration' : phase === 'stepCompletion' ? 'stepCompletion' : null;
        if (!key || found[key] || engine.outcome(state)) continue;
        const seat = rand(2);
        const resigned = engine.resign(state, seat);
        if (!resigned.ok) throw new Error(resigned.error.message);
        const trip = roundTrip(online, [...entries.slice(0, i + 1), { kind: 'resign', seat }]);
        expect(brief(trip.state)).toEqual(brief(resigned.value));
        if (key === 'empty') expect(trip.text).toBe(`{一位色:${state.firstMover === 'IA' ? '黒' : '赤'}}\n{始時:}\n{終時:}\n{投了:${seat === 0 ? '黒' : '赤'}}\n{黒名:Ia}\n{赤名:Ai}\n`);
        if (key === 'stepCompletion') expect(trip.text).toMatch(/橋[一二三四五]此無\n$/);
        found = { ...found, [key]: true };
      }
    }
    expect(found).toEqual({ empty: true, declaration: true, stepCompletion: true });
  });

  it('refuses a bad 投了 tag, or one for a game that is already over', () => {
    const refusal = (text: string) => {
      const r = engine.importRecord!(text);
      if (r.ok) throw new Error('expected a refusal');
      expect(r.error.code).toBe(Codes.INVALID_INPUT);
      return r.error.message;
    };
    expect(refusal('{一位色:黒}\n{始時:}\n{投了:IA}\n')).toMatch(/\{投了:IA\} must name the resigning side by its King's colour/);
    // case4 ends at 40 points after one season: nobody can resign after that.
    const finished = readFileSync(new URL('../../fixtures/cerke/cerke_online_kiaak_parser-case4-2022-09-08.txt', import.meta.url), 'utf8').split('\n');
    finished.splice(3, 0, '{投了:赤}');
    expect(refusal(finished.join('\n'))).toMatch(/\{投了:赤\}: the game is already over at the end of the record/);
  });
});
