import fc from 'fast-check';
import { type CerkeState, evaluatePile } from '../../../src/games/cerke/engine/index.js';
import { playRandomGame, replay, seededRandom } from '../../../src/engines/kit/index.js';
import { engine, initial, rules } from './helpers.js';

const rulesetInput = fc.record(
  {
    profile: fc.constantFrom('online', 'strict'),
    seasons: fc.constantFrom(1, 2, 4),
    stepTamIsAHand: fc.boolean(),
    tamItselfIsTamHue: fc.boolean(),
    movingTamImmediatelyAfterTamHasMoved: fc.constantFrom('forbidden', 'penalized'),
    tamMunMok: fc.constantFrom('allowed', 'penalized'),
    failureToCompleteTheMoveMeansExemptFromKut2Tam2: fc.boolean(),
    whatToSayBeforeCastingSticks: fc.constantFrom('direction', 'exactDestination'),
    allowKut2Tam2: fc.boolean(),
    scorePileWithNegativeHand: fc.boolean(),
  },
  { requiredKeys: ['profile'] },
);

function checkInvariants(state: CerkeState) {
  expect(state.points[0] + state.points[1]).toBe(40);
  for (const p of state.points) expect(p >= 0 && p <= 40).toBe(true);
  const onBoard = state.board.filter((c) => c !== null && c !== 'Tam2').length;
  expect(onBoard + state.capturedPiles[0].length + state.capturedPiles[1].length).toBe(48);
  expect(state.board.filter((c) => c === 'Tam2')).toHaveLength(1);
  expect([1, 2, 4, 8, 16, 32, 64]).toContain(state.stake);
  for (const pile of state.capturedPiles) expect(evaluatePile(pile).ok).toBe(true);
}

describe('random legal play', () => {
  it.each(['online', 'strict'] as const)('%s: whole games always end, keep pieces and points, and replay to the live state', (profile) => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(1, 2, 4), (seed, seasons) => {
        const ruleset = rules({ profile, seasons });
        let steps = 0;
        const game = playRandomGame(engine, ruleset, seededRandom(seed), 50_000, (state) => {
          if (steps++ % 7 === 0) checkInvariants(state);
        });
        expect(game.finished).toBe(true);
        checkInvariants(game.state);
        const outcome = engine.outcome(game.state)!;
        expect(outcome.points).toEqual(game.state.points);
        expect(outcome.winners.length).toBeGreaterThan(0);
        const replayed = replay(engine, ruleset, game.entries);
        expect(replayed.ok).toBe(true);
        expect(replayed.state).toEqual(game.state);
        expect(JSON.parse(JSON.stringify(game.state))).toEqual(game.state);
      }),
      { numRuns: profile === 'online' ? 25 : 60 },
    );
  });

  it('every combination of ruleset flags plays to the end', () => {
    fc.assert(
      fc.property(rulesetInput, fc.integer(), (input, seed) => {
        const ruleset = rules(input);
        const game = playRandomGame(engine, ruleset, seededRandom(seed), 50_000);
        expect(game.finished).toBe(true);
        checkInvariants(game.state);
      }),
      { numRuns: 30 },
    );
  });

  it('applying an action never changes the state it was applied to', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const rand = seededRandom(seed);
        let state = engine.init(rules({ profile: seed % 2 ? 'online' : 'strict' }));
        for (let i = 0; i < 120 && !engine.outcome(state); i++) {
          const before = JSON.stringify(state);
          const pending = engine.pendingChance(state);
          let next;
          if (pending)
            next = engine.resolveChance(
              state,
              pending.ranges.map((n) => rand(n)),
            );
          else {
            const seat = engine.toAct(state)[0];
            const actions = engine.legalActions(state, seat);
            for (const other of actions.slice(0, 5)) engine.apply(state, seat, other);
            engine.apply(state, 1 - seat, actions[0]);
            next = engine.apply(state, seat, actions[rand(actions.length)]);
          }
          expect(JSON.stringify(state)).toBe(before);
          if (!next.ok) throw new Error(next.error.message);
          state = next.value;
        }
      }),
      { numRuns: 10 },
    );
  });

  it('arbitrary JSON actions are answered with a result, never an exception', () => {
    const square = fc.constantFrom('ZO', 'ZAI', 'MAU', 'MAI', 'MY', 'KA', 'PIA', 'ZU', 'TU', 'QQ');
    const action = fc.oneof(
      fc.record({ type: fc.constant('move'), from: square, to: square, via: fc.option(square, { nil: undefined }) }, { requiredKeys: ['type', 'from', 'to'] }),
      fc.record(
        { type: fc.constant('moveTam2'), firstSquare: square, to: square, via: square, stepDuring: fc.constantFrom('firstHalf', 'secondHalf') },
        { requiredKeys: ['type', 'firstSquare', 'to'] },
      ),
      fc.record({ type: fc.constant('drop'), colour: fc.constantFrom('red', 'black', 'green'), kind: fc.constantFrom('Pawn', 'King', 'Tam2'), to: square }),
      fc.record({ type: fc.constantFrom('continue', 'endSeason', 'abandonStep', 'completeStep', 'pass') }),
      fc.anything(),
    );
    const state = initial('IA');
    fc.assert(
      fc.property(action, fc.constantFrom(0, 1), (input, seat) => {
        const parsed = engine.parseAction(input);
        if (!parsed.ok) {
          expect(parsed.error.code).toBe('INVALID_INPUT');
          return;
        }
        const result = engine.apply(state, seat, parsed.value);
        if (!result.ok) expect(['NOT_YOUR_TURN', 'ILLEGAL_MOVE', 'NO_PENDING_DECISION']).toContain(result.error.code);
      }),
      { numRuns: 400 },
    );
  });
});
