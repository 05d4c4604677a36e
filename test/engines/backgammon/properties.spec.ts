import fc from 'fast-check';
import { playRandomGame, replay, seededRandom, type ReplayEntry } from '../../../src/engines/kit/index.js';
import {
  backgammonEngine as bg,
  decodePositionId,
  exportRecord,
  importRecord,
  legalPlays,
  type BackgammonAction,
  type BackgammonState,
  type BackgammonView,
} from '../../../src/games/backgammon/engine/index.js';
import { type CheckerMove, followDice, generatePlays } from '../../../src/games/backgammon/engine/board.js';
import { ruleset } from './helpers.js';

/** Random legal play, choosing resignations rarely so that games are mostly played out. */
function playGame(rules: Record<string, unknown>, seed: number, check?: (s: BackgammonState) => void) {
  const r = ruleset(rules);
  const rand = seededRandom(seed);
  let state = bg.init(r);
  const entries: ReplayEntry<BackgammonAction>[] = [];
  for (let i = 0; i < 20_000 && !bg.outcome(state); i++) {
    const pending = bg.pendingChance(state);
    let entry: ReplayEntry<BackgammonAction>;
    if (pending) {
      entry = { kind: 'chance', values: pending.ranges.map((n) => rand(n)) };
    } else {
      const seats = bg.toAct(state);
      const seat = seats[rand(seats.length)];
      const all = bg.legalActions(state, seat);
      const calm = all.filter((a) => a.type !== 'resign');
      const actions = calm.length && rand(50) > 0 ? calm : all;
      entry = { kind: 'action', seat, action: actions[rand(actions.length)] };
    }
    const next = entry.kind === 'chance' ? bg.resolveChance(state, entry.values) : bg.apply(state, entry.seat, entry.action);
    if (!next.ok) throw new Error(`${next.error.code}: ${next.error.message}`);
    state = next.value;
    entries.push(entry);
    check?.(state);
  }
  return { ruleset: r, state, entries };
}

function invariants(s: BackgammonState): void {
  for (const side of s.board) {
    expect(side.reduce((a, b) => a + b, 0)).toBe(15);
    expect(side.every((n) => Number.isInteger(n) && n >= 0)).toBe(true);
  }
  for (let i = 0; i < 24; i++) expect(s.board[0][i] > 0 && s.board[1][23 - i] > 0).toBe(false);
  const v = bg.view(s, 'spectator') as BackgammonView;
  expect(decodePositionId(v.positionId).ok).toBe(true);
  const plays = legalPlays(s);
  expect(new Set(plays.map((p) => p.resultingPositionId)).size).toBe(plays.length);
}

const RULESETS: Record<string, unknown>[] = [
  {},
  { jacoby: false, beavers: 2, raccoons: true, automaticDoubles: 2, maxCube: null },
  { matchLength: 5 },
  { matchLength: 7, holland: true, autoRoll: true, skipRollWhenClosedOut: true },
  { matchLength: 3, resignWhen: 'any-time', crawford: false, maxCube: 8 },
];

describe('random legal play', () => {
  it('money games and matches always end, with 15 checkers a side and distinct plays at every step', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RULESETS), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (rules, seed) => {
        const { state } = playGame(rules, seed, invariants);
        expect(bg.outcome(state)).not.toBeNull();
      }),
      { numRuns: 12 },
    );
  });

  it("the kit's random player finishes games too (resignations included)", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const result = playRandomGame(bg, ruleset({ matchLength: seed % 3 === 0 ? 3 : 0, resignWhen: seed % 2 ? 'any-time' : 'own-turn' }), seededRandom(seed));
      expect(result.finished).toBe(true);
    }
  });

  it('replaying the entries gives the live state', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RULESETS), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (rules, seed) => {
        const { ruleset: r, state, entries } = playGame(rules, seed);
        const replayed = replay(bg, r, entries);
        expect(replayed.ok).toBe(true);
        expect(replayed.state).toEqual(state);
        expect(JSON.parse(JSON.stringify(state))).toEqual(state);
      }),
      { numRuns: Number(process.env.BG_RUNS ?? 10) },
    );
  });

  it('an exported match imports again to the same result', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Record<string, unknown>>({ matchLength: 5 }, { matchLength: 3, resignWhen: 'any-time' }, { jacoby: false }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (rules, seed) => {
          const { ruleset: r, state, entries } = playGame(rules, seed);
          const text = exportRecord(r, entries, ['Alice', 'Bob']);
          const imported = importRecord(text);
          if (!imported.ok) throw new Error(imported.error.message);
          expect(imported.value.seatNames).toEqual(['Alice', 'Bob']);
          const again = replay(bg, imported.value.parsedRuleset!, imported.value.entries);
          if (!again.ok) throw new Error(`${imported.value.labels![again.failure.index]}: ${again.failure.error.message}\n${text}`);
          expect(bg.outcome(again.state)!.points).toEqual(bg.outcome(state)!.points);
          expect(again.state.games.map((g) => [g.winner, g.points])).toEqual(state.games.map((g) => [g.winner, g.points]));
        },
      ),
      { numRuns: Number(process.env.BG_RUNS ?? 10) },
    );
  });
});

describe('a play is judged against the list of legal plays', () => {
  const SOURCES = ['bar', ...Array.from({ length: 24 }, (_, i) => 24 - i)] as const;

  /** Steps from random sources, each by one of the dice (some off the board): mostly illegal, some legal. */
  function randomSteps(dice: [number, number], rand: (n: number) => number): CheckerMove[] {
    return Array.from({ length: rand(dice[0] === dice[1] ? 5 : 3) }, () => {
      const from = SOURCES[rand(SOURCES.length)];
      const to = (from === 'bar' ? 25 : from) - dice[rand(2)];
      return { from, to: to < 1 ? 'off' : to };
    });
  }

  it('accepts exactly the steps that end in the position of a play from the list, and leaves that position', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RULESETS), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (rules, seed) => {
        const rand = seededRandom(seed ^ 0x5bd1e995);
        playGame(rules, seed, (s) => {
          if (s.phase !== 'awaiting-play' || s.resignation) return;
          const [mover, opponent] = [s.board[s.turn], s.board[1 - s.turn]];
          const plays = new Map(generatePlays(mover, opponent, s.dice![0], s.dice![1]).map((p) => [p.key, p]));
          // Legal plays with their steps in reverse order, and random steps.
          const candidates = [...[...plays.values()].slice(0, 3).map((p) => p.moves.map(({ from, to }) => ({ from, to })).reverse()), randomSteps(s.dice!, rand), randomSteps(s.dice!, rand)];
          for (const steps of candidates) {
            const followed = followDice(mover, opponent, s.dice!, steps);
            const play = followed.ok ? plays.get(followed.key) : undefined;
            const next = bg.apply(s, s.turn, { type: 'play', moves: steps });
            expect(next.ok).toBe(play !== undefined);
            // A play that ends a game of a match sets up the next game's board.
            if (next.ok && next.value.games.length === s.games.length) expect([next.value.board[s.turn], next.value.board[1 - s.turn]]).toEqual([play!.mover, play!.opponent]);
          }
        });
      }),
      { numRuns: 12 },
    );
  });
});
