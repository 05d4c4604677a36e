import fc from 'fast-check';
import { replay } from '../../../src/engines/kit/index.js';
import { engine, rules } from './helpers.js';
import { checkGame } from './random-games.js';

const PRESET_TABLES: Array<Record<string, unknown>> = [2, 3, 4, 5, 6, 7, 8].flatMap((players) => [
  { preset: 'classic', players },
  { preset: 'malta-cross', players, ...(players === 8 ? { setMax: 12 } : {}) },
]);

describe('whole games of Chicken Foot played at random', () => {
  it.each(PRESET_TABLES.map((input) => [`${input.preset} with ${input.players} players`, input]))(
    '%s always end after every round, keep every tile and score the pips left in hands',
    (_name, input) => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
          const ruleset = rules(input as Record<string, unknown>);
          const { state, entries } = checkGame(ruleset, seed, true);
          const doubles = state.rounds.map((r) => r.startDouble);
          expect(doubles).toEqual(Array.from({ length: ruleset.setMax + 1 }, (_, i) => ruleset.setMax - i));
          const replayed = replay(engine, ruleset, entries);
          expect(replayed.ok).toBe(true);
          expect(replayed.state).toStrictEqual(state);
          expect(JSON.parse(JSON.stringify(state))).toStrictEqual(state);
          expect(engine.outcome(state)!.winners.length).toBeGreaterThan(0);
        }),
        { numRuns: 3 },
      );
    },
  );
});
