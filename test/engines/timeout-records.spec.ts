/**
 * Games lost on time in each record format: the formats have no clock, so the export says what it
 * did where it can (.mat: a comment line before the forfeit; Cerke: {切れ負け:…} for {投了:…};
 * Chicken Foot: "timedOut" on resignGame and "auto" on auto-played actions), and import reads it
 * back as a plain concession with the same outcome.
 */
import { backgammonEngine } from '../../src/games/backgammon/engine/index.js';
import { cerkeEngine } from '../../src/games/cerke/engine/index.js';
import { chickenFootEngine } from '../../src/games/chicken-foot/engine/index.js';
import { type Engine, playRandomGame, replay, type ReplayEntry, seededRandom } from '../../src/engines/kit/index.js';

type AnyEngine = Engine<any, any, any>;

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Random legal play for `steps` entries and on until no chance is pending, then `seat` times out (null if the game ended first). */
function playThenTimeOut(engine: AnyEngine, ruleset: unknown, seed: number, steps: number, seat: number) {
  const rand = seededRandom(seed);
  const played = playRandomGame(engine, ruleset, rand, steps);
  const entries: ReplayEntry[] = played.entries;
  let state = played.state;
  for (let pending = engine.pendingChance(state); pending; pending = engine.pendingChance(state)) {
    const values = pending.ranges.map((n) => rand(n));
    state = must(engine.resolveChance(state, values));
    entries.push({ kind: 'chance', values });
  }
  if (engine.outcome(state)) return null;
  entries.push({ kind: 'resign', seat, timedOut: true });
  return { state: must(engine.resign(state, seat)), entries };
}

/** Exports, imports and replays: the text, the imported entries and the outcome they replay to. */
function roundTrip(engine: AnyEngine, ruleset: unknown, entries: ReplayEntry[]) {
  const names = ['Ann', 'Bob', 'Cid'].slice(0, engine.seatCount(ruleset));
  const text = engine.exportRecord!(ruleset, entries, names);
  const imported = must(engine.importRecord!(text));
  const back = replay(engine, must(engine.parseRuleset(imported.ruleset)), imported.entries);
  if (!back.ok) throw new Error(`${imported.labels?.[back.failure.index]}: ${back.failure.error.message}\n${text}`);
  return { text, imported, outcome: engine.outcome(back.state) };
}

/** The entries without their record-only marks: what a game without a clock would hold. */
const unmarked = (entries: ReplayEntry[]): ReplayEntry[] =>
  entries.map((e) => (e.kind === 'resign' ? { kind: 'resign', seat: e.seat } : e.kind === 'action' ? { kind: 'action', seat: e.seat, action: e.action } : e));

const CASES: [string, AnyEngine, unknown, (text: string, seat: number) => void][] = [
  [
    'backgammon .mat: a comment line before the match, then the forfeit',
    backgammonEngine,
    { matchLength: 5 },
    (text, seat) => {
      expect(text.split('\n')[0]).toBe(`; ${['Ann', 'Bob'][seat]} lost on time: .mat has no clock, so the match ends as conceded by forfeit`);
      expect(text).toMatch(/Wins \d+ points? by forfeit\n/);
    },
  ],
  [
    'Cerke: the {切れ負け:…} tag in place of {投了:…}',
    cerkeEngine,
    {},
    (text, seat) => {
      expect(text).toContain(`{切れ負け:${seat === 0 ? '黒' : '赤'}}`);
      expect(text).not.toContain('投了');
    },
  ],
  [
    'Chicken Foot: "timedOut" on the closing resignGame',
    chickenFootEngine,
    { preset: 'classic', players: 3 },
    (text, seat) => {
      const rounds = JSON.parse(text).rounds;
      expect(rounds.at(-1).actions.at(-1)).toEqual({ seat, type: 'resignGame', timedOut: true });
    },
  ],
];

describe('records of a game lost on time', () => {
  for (const [name, engine, input, check] of CASES) {
    it(`${name}; import reads it as a concession with the same outcome`, () => {
      const ruleset = must(engine.parseRuleset(input));
      let checked = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const rand = seededRandom(500 + seed);
        const played = playThenTimeOut(engine, ruleset, seed, 1 + rand(60), rand(engine.seatCount(ruleset)));
        if (!played) continue;
        const seat = (played.entries.at(-1) as { seat: number }).seat;
        const { text, imported, outcome } = roundTrip(engine, ruleset, played.entries);
        check(text, seat);
        expect(outcome).toEqual(engine.outcome(played.state));
        // The mark is the export's: imported, the game ends with a plain concession (an imported game has no clock).
        expect(imported.entries.at(-1)).toEqual({ kind: 'resign', seat });
        const plain = engine.exportRecord!(ruleset, unmarked(played.entries), ['Ann', 'Bob', 'Cid'].slice(0, engine.seatCount(ruleset)));
        expect(plain).not.toBe(text);
        checked++;
      }
      expect(checked).toBeGreaterThan(4);
    });
  }

  it("writes the referee's words of the end where the format has a place: .mat's comment line, Chicken Foot's \"result\"; import reads past them", () => {
    const bg = must(backgammonEngine.parseRuleset({ matchLength: 5 }));
    const lost = playThenTimeOut(backgammonEngine, bg, 3, 20, 0)!;
    const mat = (backgammonEngine as AnyEngine).exportRecord!(bg, lost.entries, ['Ann', 'Bob'], 'Bob wins on time');
    expect(mat.split('\n')[0]).toBe('; Bob wins on time: .mat has no clock, so the match ends as conceded by forfeit');
    expect(must(backgammonEngine.importRecord!(mat)).entries.at(-1)).toEqual({ kind: 'resign', seat: 0 });
    const cf = must(chickenFootEngine.parseRuleset({ preset: 'classic', players: 3 }));
    const quit = playThenTimeOut(chickenFootEngine, cf, 4, 30, 1)!;
    const json = (chickenFootEngine as AnyEngine).exportRecord!(cf, quit.entries, ['Ann', 'Bob', 'Cid'], 'Bob lost on time; Ann wins');
    expect(JSON.parse(json).result).toBe('Bob lost on time; Ann wins');
    expect(must(chickenFootEngine.importRecord!(json)).entries).toEqual(unmarked(quit.entries));
    expect(chickenFootEngine.importRecord!(json.replace('"result": "Bob lost on time; Ann wins"', '"result": 3'))).toMatchObject({ ok: false, error: { message: expect.stringMatching(/"result"/) } });
  });

  it('Chicken Foot: actions played for a seat after its timeout carry "auto": true, and import as plain actions', () => {
    const ruleset = must(chickenFootEngine.parseRuleset({ preset: 'classic', players: 2 }));
    const played = playRandomGame(chickenFootEngine, ruleset, seededRandom(7), 400);
    // Seat 1's actions from the 20th entry on stand for auto-played ones: the record does not judge how they were chosen.
    const entries: ReplayEntry[] = played.entries.map((e, i) => (e.kind === 'action' && e.seat === 1 && i >= 20 ? { ...e, auto: true } : e));
    const { text, imported, outcome } = roundTrip(chickenFootEngine, ruleset, entries);
    const actions = JSON.parse(text).rounds.flatMap((r: { actions: Record<string, unknown>[] }) => r.actions);
    const auto = actions.filter((a: Record<string, unknown>) => a.auto === true);
    expect(auto.length).toBe(entries.filter((e) => e.kind === 'action' && e.auto).length);
    expect(auto.length).toBeGreaterThan(0);
    expect(new Set(auto.map((a: Record<string, unknown>) => a.seat))).toEqual(new Set([1]));
    expect(imported.entries).toEqual(unmarked(entries));
    expect(outcome).toEqual(chickenFootEngine.outcome(played.state));
    // Only true marks an action.
    const wrong = text.replace('"auto":true', '"auto":false');
    expect(chickenFootEngine.importRecord!(wrong)).toMatchObject({ ok: false, error: { message: expect.stringMatching(/"auto": true/) } });
  });
});
