/**
 * The words of a game's end (src/referee/core/game/outcome-words.ts): every game's every ending,
 * with the players' names where the seats have them and the game's own seat words otherwise.
 */
import fc from 'fast-check';
import { backgammonEngine } from '../../src/games/backgammon/engine/index.js';
import { cerkeEngine } from '../../src/games/cerke/engine/index.js';
import { chickenFootEngine } from '../../src/games/chicken-foot/engine/index.js';
import { type Engine, type Outcome, playRandomGame, seededRandom } from '../../src/engines/kit/index.js';
import { type Ending, endingWords, seatWords, toldOutcome } from '../../src/referee/core/game/outcome-words.js';

type AnyEngine = Engine<any, any, any>;

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const GAMES: [string, AnyEngine, unknown][] = [
  ['backgammon money game', backgammonEngine, { matchLength: 0 }],
  ['backgammon match', backgammonEngine, { matchLength: 3 }],
  ['Cerke', cerkeEngine, {}],
  ['Chicken Foot, 2 players', chickenFootEngine, { preset: 'classic', players: 2 }],
  ['Chicken Foot, 4 players', chickenFootEngine, { preset: 'classic', players: 4 }],
];

const NAMES = ['Alice', 'Bob', 'Carol', 'Dave'];

/** A game played at random for `steps` entries (chances resolved), then: played to its end, or conceded by `seat`. */
function ended(engine: AnyEngine, input: unknown, seed: number, steps: number, concede: number | null): Outcome | null {
  const ruleset = must(engine.parseRuleset(input));
  const rand = seededRandom(seed);
  let { state } = playRandomGame(engine, ruleset, rand, concede === null ? 100_000 : steps);
  if (engine.outcome(state)) return engine.outcome(state);
  if (concede === null) return null;
  for (let pending = engine.pendingChance(state); pending; pending = engine.pendingChance(state))
    state = must(
      engine.resolveChance(
        state,
        pending.ranges.map((n) => rand(n)),
      ),
    );
  if (engine.outcome(state)) return engine.outcome(state);
  return engine.outcome(must(engine.resign(state, concede % engine.seatCount(ruleset))));
}

describe('the words of an ending', () => {
  describe.each(GAMES)('%s', (_name, engine, input) => {
    const seats = engine.seatCount(must(engine.parseRuleset(input)));

    it("tells an end the rules reached in the engine's own summary, word for word, with the seats' own words", () => {
      for (let seed = 1; seed <= 6; seed++) {
        const outcome = ended(engine, input, seed, 0, null)!;
        expect(outcome).not.toBeNull();
        expect(endingWords({ engine, outcome, ending: { reason: 'rules' } })).toBe(outcome.summary);
        // With names, each winner is named and no seat word of a named seat is left.
        const named = endingWords({ engine, outcome, ending: { reason: 'rules' } }, NAMES)!;
        for (const w of outcome.winners) expect(named).toContain(NAMES[w]);
      }
    });

    it('tells a resignation, a loss on time, an organizer\u2019s decision and an abort', () => {
      const outcome = ended(engine, input, 11, 30, 1)!;
      const loser = 1;
      const winners = outcome.winners;
      const who = seatWords(engine);
      const wordsOf = (ending: Ending, names?: string[]) => endingWords({ engine, outcome, ending }, names);
      if (seats === 2) {
        expect(wordsOf({ reason: 'time', seat: loser }, NAMES)).toBe(`${NAMES[winners[0]]} wins on time`);
        expect(wordsOf({ reason: 'time', seat: loser })).toBe(`${who(winners[0])} wins on time`);
        expect(wordsOf({ reason: 'resigned', seat: loser }, NAMES)).toBe(`Bob resigned; ${NAMES[winners[0]]} wins`);
      } else {
        expect(wordsOf({ reason: 'time', seat: loser }, NAMES)).toMatch(new RegExp(`^Bob lost on time; ${NAMES[winners[0]]}.* wins?$`));
        expect(wordsOf({ reason: 'time', seat: loser })).toMatch(/^seat 1 lost on time; seat \d.* wins?$/);
      }
      expect(wordsOf({ reason: 'resigned', seat: loser })).toMatch(new RegExp(`^${who(loser)} resigned; `));
      const forfeit: Outcome = { winners: [0], points: Array(seats).fill(0), summary: 'forfeit (tournament T)' };
      expect(endingWords({ engine, outcome: forfeit, ending: { reason: 'adjudicated', why: 'tournament T round 1 board 1: forfeit' } }, NAMES)).toBe('Alice wins by forfeit');
      const entered: Outcome = { winners: [1], points: Array(seats).fill(0), summary: 'result entered by the organizer (tournament T)' };
      expect(endingWords({ engine, outcome: entered, ending: { reason: 'adjudicated', why: 'tournament T round 1 board 1: result entered by the organizer' } })).toBe(
        `${who(1)} wins: result entered by the organizer (tournament T)`,
      );
      expect(endingWords({ engine, outcome: null, ending: { reason: 'aborted', seat: 0 } }, NAMES)).toBe('Aborted by Alice before any move: no result');
      expect(endingWords({ engine, outcome: null, ending: { reason: 'aborted', seat: 0 } })).toBe(`Aborted by ${who(0)} before any move: no result`);
      expect(toldOutcome({ engine, outcome: null, ending: { reason: 'aborted', seat: 0 } })).toBeNull();
    });
  });

  it("calls seats in each game's own words", () => {
    expect([0, 1].map(seatWords(backgammonEngine))).toEqual(['White', 'Black']);
    expect([0, 1].map(seatWords(cerkeEngine))).toEqual(['IA', 'A']);
    expect([0, 2].map(seatWords(chickenFootEngine))).toEqual(['seat 0', 'seat 2']);
    expect([0, 1].map(seatWords(backgammonEngine, ['Alice', null]))).toEqual(['Alice', 'Black']);
  });

  it('a game still going has no words', () => {
    expect(endingWords({ engine: cerkeEngine, outcome: null, ending: null })).toBeNull();
  });

  it('every reachable ending of every game gets a summary naming its winners', () => {
    const endings = fc.constantFrom<'rules' | 'resigned' | 'time'>('rules', 'resigned', 'time');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: GAMES.length - 1 }), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 80 }), endings, fc.boolean(), (g, seed, steps, reason, named) => {
        const [, engine, input] = GAMES[g];
        const seats = engine.seatCount(must(engine.parseRuleset(input)));
        const loser = seed % seats;
        const outcome = ended(engine, input, seed, steps, reason === 'rules' ? null : loser);
        if (!outcome) return;
        const ending: Ending = reason === 'rules' ? { reason } : { reason, seat: loser };
        const names = named ? NAMES.slice(0, seats) : undefined;
        const words = endingWords({ engine, outcome, ending }, names);
        expect(words).toBeTruthy();
        const who = seatWords(engine, names);
        for (const w of outcome.winners) expect(words).toContain(who(w));
        expect(toldOutcome({ engine, outcome, ending }, names)).toEqual({ ...outcome, summary: words });
      }),
      { numRuns: 60 },
    );
  });
});
