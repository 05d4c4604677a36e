import fc from 'fast-check';
import { playRandomGame, replay, seededRandom, type ReplayEntry, type Seat } from '../../../src/engines/kit/index.js';
import { buildSet, handValue, isBlocked, type ChickenFootAction, type ChickenFootRuleset, type ChickenFootState } from '../../../src/engines/chicken-foot/index.js';
import { engine, rules } from './helpers.js';

/** Every tile is on the table, in a hand or in the yard, exactly once (invariant I4). */
function expectTilesConserved(state: ChickenFootState): void {
  const round = state.round;
  if (!round) return;
  const everywhere = [...round.table.map((n) => n.tile), ...round.hands.flat(), ...round.yard];
  const set = buildSet(state.ruleset.setMax);
  if (everywhere.length !== set.length || new Set(everywhere).size !== set.length) {
    throw new Error(`tiles not conserved in round ${round.number}: ${everywhere.length} placed of ${set.length}`);
  }
}

/** Finished rounds score the pips left in hands (plus the optional going-out-on-a-double penalty). */
function expectRoundScores(state: ChickenFootState): void {
  let totals = new Array(state.ruleset.players).fill(0);
  for (const round of state.rounds) {
    if (!round.scores) continue;
    const wentOutOnDouble = round.wentOut !== null && round.table[round.table.length - 1].tile.split('-').every((p, _, [a]) => p === a);
    const expected = round.hands.map((hand, seat) => handValue(hand, state.ruleset) + (wentOutOnDouble && seat === round.wentOut ? state.ruleset.lastTileDoublePenalty : 0));
    expect(round.scores).toEqual(expected);
    totals = totals.map((t, seat) => t + round.scores![seat]);
  }
  expect(state.totals).toEqual(totals);
}

/** The JSON of what a seat is served must not name another seat's tiles or a yard tile while the round goes on. */
function expectNoLeak(served: unknown, state: ChickenFootState, seat: Seat): void {
  const round = state.round;
  if (!round) return;
  const text = JSON.stringify(served);
  const named = new Set(Array.from(text.matchAll(/"(\d+-\d+)"/g), (m) => m[1]));
  const secret = [...round.hands.flatMap((hand, s) => (s === seat ? [] : hand)), ...round.yard];
  const leaked = secret.filter((tile) => named.has(tile));
  if (leaked.length > 0) throw new Error(`seat ${seat} was served hidden tiles ${leaked.join(', ')}: ${text}`);
  if (/"(order|shuffle)"/.test(text)) throw new Error(`seat ${seat} was served the yard order or shuffle: ${text}`);
}

/** Plays a seeded random game and checks every step. */
function checkGame(ruleset: ChickenFootRuleset, seed: number, checkViews: boolean): { state: ChickenFootState; entries: ReplayEntry<ChickenFootAction>[] } {
  let previous = engine.init(ruleset);
  const { state, entries, finished } = playRandomGame(engine, ruleset, seededRandom(seed), 200_000, (after, entry) => {
    expectTilesConserved(after);
    // A draw may exhaust the yard; the block is then detected at the drawer's pass.
    if (after.round && after.round.drawsThisTurn === 0 && ruleset.blockedDetection === 'immediate' && isBlocked(ruleset, after.round)) {
      throw new Error(`round ${after.round.number} is blocked but goes on`);
    }
    if (checkViews) {
      for (let seat = 0; seat < ruleset.players; seat++) {
        const current = { ...(engine.view(after, seat) as object), rounds: [] };
        expectNoLeak(current, after, seat);
        if (entry.kind === 'action') expectNoLeak(engine.actionView!(previous, after, entry.seat, entry.action, seat), after, seat);
        else if (entry.kind === 'chance' && engine.pendingChance(previous)?.hidden) expectNoLeak(engine.chanceView!(previous, after, entry.values, seat), after, seat);
      }
      const spectator = JSON.stringify({ ...(engine.view(after, 'spectator') as object), rounds: [] });
      if (spectator.includes('"hand"')) throw new Error(`a spectator was served a hand: ${spectator}`);
    }
    previous = after;
  });
  expect(finished).toBe(true);
  expectRoundScores(state);
  return { state, entries };
}

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

  const optionsArb = fc.record({
    preset: fc.constantFrom('classic', 'malta-cross'),
    players: fc.integer({ min: 2, max: 8 }),
    setMax: fc.constantFrom(6, 9, 12),
    handSize: fc.integer({ min: 1, max: 9 }),
    drawPolicy: fc.constantFrom('one', 'untilPlayable'),
    mustPlayDrawn: fc.boolean(),
    blockedDetection: fc.constantFrom('immediate', 'passCycle'),
    emptyYardEndsRound: fc.boolean(),
    startDoubleSource: fc.constantFrom('setAside', 'fromHand'),
    missingStartDouble: fc.constantFrom('drawUntilFound', 'burn'),
    firstToActNext: fc.boolean(),
    extraHubArms: fc.integer({ min: 0, max: 2 }),
    toesPerFoot: fc.integer({ min: 1, max: 4 }),
    yardReserve: fc.integer({ min: 0, max: 3 }),
    doubleBlankValue: fc.constantFrom(0, 50),
    blankEndValue: fc.constantFrom(null, 25),
    lastTileDoublePenalty: fc.constantFrom(0, 50),
    lastTileCall: fc.constantFrom(undefined, { enabled: true, penaltyDraws: 2 }),
    gameEnd: fc.constantFrom('allDoubles', { targetScore: 60 }),
    firstDealer: fc.constantFrom('random', 0, 1),
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  });

  it('end, conserve tiles and replay exactly under any combination of options', () => {
    fc.assert(
      fc.property(optionsArb, (o) => {
        const { seed, firstToActNext, extraHubArms, ...rest } = o;
        const setAside = o.startDoubleSource === 'setAside';
        const input: Record<string, unknown> = {
          ...rest,
          missingStartDouble: setAside ? 'drawUntilFound' : o.missingStartDouble,
          firstToAct: firstToActNext ? 'nextAfterPlacer' : setAside ? 'finder' : 'placer',
          hubRequiredArms: Math.min(o.setMax, o.preset === 'classic' ? Math.min(8, o.players + extraHubArms) : 2 + extraHubArms),
        };
        if (input.lastTileCall === undefined) delete input.lastTileCall;
        const parsed = engine.parseRuleset(input);
        fc.pre(parsed.ok);
        if (!parsed.ok) return;
        const { state, entries } = checkGame(parsed.value, seed, seed % 4 === 0);
        const replayed = replay(engine, parsed.value, entries);
        expect(replayed.ok && replayed.state).toEqual(state);
      }),
      { numRuns: 100 },
    );
  });
});
