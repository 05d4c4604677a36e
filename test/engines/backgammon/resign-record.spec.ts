import { replay, seededRandom, type ReplayEntry } from '../../../src/engines/kit/index.js';
import { backgammonEngine as bg, exportRecord, importRecord, type BackgammonAction, type BackgammonRuleset, type BackgammonState } from '../../../src/games/backgammon/engine/index.js';
import { ruleset } from './helpers.js';

/** Random legal play for a random while (a few games of a match at most), then `engine.resign` by a random seat. */
function playThenResign(r: BackgammonRuleset, seed: number) {
  const rand = seededRandom(seed);
  let state: BackgammonState = bg.init(r);
  const entries: ReplayEntry<BackgammonAction>[] = [];
  const stopAfter = 10 + rand(r.matchLength > 1 ? 400 : 100);
  for (let i = 0; bg.outcome(state) === null; i++) {
    const pending = bg.pendingChance(state);
    if (!pending && i >= stopAfter) break;
    let entry: ReplayEntry<BackgammonAction>;
    if (pending) {
      entry = { kind: 'chance', values: pending.ranges.map((n) => rand(n)) };
    } else {
      // Mostly the seat whose turn it is, without resignation offers; now and then an offer (some accepted, some rejected).
      const seats = bg.toAct(state);
      const calmSeats = seats.filter((s) => bg.legalActions(state, s).some((a) => a.type !== 'resign'));
      const offer = rand(150) === 0 || calmSeats.length === 0;
      const seat = offer ? seats[rand(seats.length)] : calmSeats[rand(calmSeats.length)];
      const all = bg.legalActions(state, seat);
      const calm = all.filter((a) => a.type !== 'resign');
      // Doubles and drops now and then too, so that matches last a few games.
      const quiet = calm.filter((a) => a.type !== 'double' && a.type !== 'drop');
      const actions = offer || !calm.length ? all : quiet.length && rand(10) > 0 ? quiet : calm;
      entry = { kind: 'action', seat, action: actions[rand(actions.length)] };
    }
    const next = entry.kind === 'chance' ? bg.resolveChance(state, entry.values) : bg.apply(state, entry.seat, entry.action);
    if (!next.ok) throw new Error(`${next.error.code}: ${next.error.message}`);
    state = next.value;
    entries.push(entry);
  }
  if (bg.outcome(state) === null) {
    const seat = rand(2);
    const next = bg.resign(state, seat);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
    entries.push({ kind: 'resign', seat });
  }
  return { state, entries };
}

function roundTrip(r: BackgammonRuleset, entries: ReplayEntry<BackgammonAction>[]) {
  const text = exportRecord(r, entries, ['Alice', 'Bob']);
  const imported = importRecord(text);
  if (!imported.ok) throw new Error(`${imported.error.message}\n${text}`);
  const parsed = bg.parseRuleset(imported.value.ruleset);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const result = replay(bg, parsed.value, imported.value.entries);
  if (!result.ok) throw new Error(`${imported.value.labels![result.failure.index]}: ${result.failure.error.message}\n${text}`);
  return { text, imported: imported.value, state: result.state };
}

const brief = (s: BackgammonState) => {
  const o = bg.outcome(s);
  return o && { winners: o.winners, points: o.points, summary: o.summary };
};

describe('backgammon .mat: a match conceded with engine.resign', () => {
  const rulesets: [string, Record<string, unknown>][] = [
    ['5-point match', { matchLength: 5, resignWhen: 'any-time' }],
    ['1-point match', { matchLength: 1, resignWhen: 'any-time' }],
    ['money game (no Jacoby: .mat does not carry it)', { matchLength: 0, jacoby: false, resignWhen: 'any-time' }],
  ];
  for (const [name, rules] of rulesets) {
    it(`${name}: exports "Wins N points by forfeit" and imports a resign entry with the same outcome`, () => {
      const r = ruleset(rules);
      let forfeits = 0;
      for (let seed = 1; seed <= 60; seed++) {
        const { state, entries } = playThenResign(r, seed);
        const { text, imported, state: back } = roundTrip(r, entries);
        expect(brief(back)).toEqual(brief(state));
        expect(back.games).toEqual(state.games);
        const last = state.games[state.games.length - 1];
        if (last.endedBy === 'forfeit') {
          forfeits++;
          expect(text).toMatch(new RegExp(`Wins ${last.points} points? by forfeit\\n`));
          const resigns = imported.entries.filter((e) => e.kind === 'resign');
          expect(resigns).toEqual([entries[entries.length - 1]]);
        }
      }
      expect(forfeits).toBeGreaterThan(30);
    });
  }

  it('a forfeit line is not taken for an accepted resignation, nor the other way round', () => {
    const r = ruleset({ matchLength: 3, resignWhen: 'any-time' });
    // Opening 31 for White (8/5 6/5), then White concedes: Black gets the 3 points a gammon-level forfeit would score anyway.
    const opening: ReplayEntry<BackgammonAction>[] = [
      { kind: 'chance', values: [2, 0] },
      {
        kind: 'action',
        seat: 0,
        action: {
          type: 'play',
          moves: [
            { from: 8, to: 5 },
            { from: 6, to: 5 },
          ],
        },
      },
    ];
    const forfeit = [...opening, { kind: 'resign', seat: 0 } as const];
    const accepted = [...opening, { kind: 'action', seat: 0, action: { type: 'resign', level: 'backgammon' } } as const, { kind: 'action', seat: 1, action: { type: 'acceptResignation' } } as const];
    const a = roundTrip(r, forfeit);
    const b = roundTrip(r, accepted);
    expect(a.text).toContain('Wins 3 points by forfeit');
    expect(b.text).not.toContain('forfeit');
    expect(a.state.games[0].endedBy).toBe('forfeit');
    expect(b.state.games[0].endedBy).toBe('resignation');
    expect(bg.outcome(a.state)!.summary).toBe('Black wins the 3-point match 3-0 by forfeit');
    expect(bg.outcome(b.state)!.summary).toBe('Black wins the 3-point match 3-0');
  });

  it('apply refuses an unknown action type instead of returning nothing, so exporting such entries does not crash', () => {
    const r = ruleset({ matchLength: 3 });
    const s = bg.resolveChance(bg.init(r), [2, 0]);
    if (!s.ok) throw new Error(s.error.message);
    const bogus = { type: 'resignGame' } as unknown as BackgammonAction;
    const refused = bg.apply(s.value, 0, bogus);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('INVALID_INPUT');
    expect(() =>
      exportRecord(
        r,
        [
          { kind: 'chance', values: [2, 0] },
          { kind: 'action', seat: 0, action: bogus },
        ],
        [],
      ),
    ).not.toThrow();
  });
});
