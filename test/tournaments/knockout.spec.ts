import fc from 'fast-check';
import {
  bracketSize,
  type DecidedMatch,
  decideMatch,
  doubleEliminationPlacings,
  firstRound,
  grandFinal,
  type KnockoutMatch,
  knockoutPlacings,
  knockoutRoundCount,
  knockoutSeeds,
  koTieLabel,
  losersRound,
  losersRoundCount,
  losersRoundMatches,
  losersRoundPlace,
  type MatchGame,
  type MatchInput,
  type MatchState,
  matchLosers,
  nextRound,
  openGrandFinal,
  openMatch,
  parseTieRule,
  secondGrandFinalNeeded,
  seedOrder,
  type Slot,
  winnersRoundFeeding,
} from '../../src/referee/core/tournament/knockout.js';
import { type Lots, SeededLots } from '../../src/referee/core/tournament/lots.js';
import { rat } from '../../src/referee/core/tournament/rational.js';
import type { Participant, PointValues } from '../../src/referee/core/tournament/types.js';

const participant = (registrationNo: number, rating = 0): Participant => ({ id: `p${registrationNo}`, registrationNo, rating, entryRound: 1, withdrawnAfterRound: null });
const POINTS: PointValues = { win: rat(1), draw: rat(1, 2), loss: rat(0) };

/** Lots that answer from a script and record every label asked. */
function scriptedLots(answers: number[] = []): Lots & { labels: string[] } {
  const labels: string[] = [];
  return {
    labels,
    uniform: (label: string) => {
      labels.push(label);
      return answers.shift() ?? 0;
    },
    shuffle: <T>(label: string, items: readonly T[]): T[] => {
      labels.push(label);
      return [...items].reverse();
    },
  };
}

function value<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

const played = (seats: [string, string], winner: string | null, gamePoints: [number, number]): MatchGame => ({ kind: 'PLAYED', seats, winner, gamePoints: [rat(gamePoints[0]), rat(gamePoints[1])] });

const match = (games: MatchGame[], rest: Partial<MatchInput> = {}): MatchInput => ({
  games,
  gamesPerMatch: 1,
  tieRule: value(parseTieRule(undefined)),
  points: POINTS,
  betterSeed: 'A',
  other: 'B',
  gamePointsOrder: 'higher',
  lots: scriptedLots(),
  label: koTieLabel('KO', 1, 1),
  ...rest,
});

describe('K6.1 seeds', () => {
  const field = [participant(3, 1500), participant(1, 1600), participant(4, 1600), participant(2, 0)];

  it('rating: ranking order T1.12 at 0 TP', () => {
    expect(value(knockoutSeeds(field, 'rating', scriptedLots()))).toEqual(['p1', 'p4', 'p3', 'p2']);
  });

  it('lots: shuffles by registrationNo under ko-seeding', () => {
    const lots = scriptedLots();
    expect(value(knockoutSeeds(field, 'lots', lots))).toEqual(['p4', 'p3', 'p2', 'p1']);
    expect(lots.labels).toEqual(['ko-seeding']);
    const seed = '5c'.repeat(32);
    expect(value(knockoutSeeds([...field].reverse(), 'lots', new SeededLots(seed, 't')))).toEqual(value(knockoutSeeds(field, 'lots', new SeededLots(seed, 't'))));
  });

  it('manual: the organizer list, which must name every participant once', () => {
    expect(value(knockoutSeeds(field, 'manual', scriptedLots(), ['p2', 'p1', 'p4', 'p3']))).toEqual(['p2', 'p1', 'p4', 'p3']);
    for (const list of [undefined, ['p1', 'p2', 'p3'], ['p1', 'p2', 'p3', 'p3'], ['p1', 'p2', 'p3', 'p9'], ['p1', 'p2', 'p3', 'p4', 'p9']]) {
      const r = knockoutSeeds(field, 'manual', scriptedLots(), list);
      expect(r.ok ? null : r.error.code).toBe('INVALID_INPUT');
    }
  });
});

describe('K6.2-K6.3 bracket size and seed order', () => {
  it('S is the smallest power of two >= N, with log2(S) rounds', () => {
    expect([2, 3, 4, 5, 8, 9, 16, 17, 64].map(bracketSize)).toEqual([2, 4, 4, 8, 8, 16, 16, 32, 64]);
    expect([2, 3, 6, 8, 9, 64].map(knockoutRoundCount)).toEqual([1, 2, 3, 3, 4, 6]);
    expect(() => bracketSize(1)).toThrow(RangeError);
  });

  it('order(2), order(8) and order(16) as in K6.3', () => {
    expect(seedOrder(2)).toEqual([1, 2]);
    expect(seedOrder(4)).toEqual([1, 4, 2, 3]);
    expect(seedOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    expect(seedOrder(16)).toEqual([1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]);
    expect(() => seedOrder(6)).toThrow(RangeError);
  });
});

describe('K6.7 koTieRule', () => {
  it('defaults to [REPLAY(1), GAME_POINTS, LOTS] when absent', () => {
    const expected = [{ kind: 'REPLAY', games: 1 }, { kind: 'GAME_POINTS' }, { kind: 'LOTS' }];
    expect(value(parseTieRule(undefined))).toEqual(expected);
    expect(value(parseTieRule(null))).toEqual(expected);
  });

  it('reads the organizer list and appends LOTS', () => {
    expect(value(parseTieRule(['REPLAY(3)', 'GAME_POINTS', 'REPLAY(1)']))).toEqual([{ kind: 'REPLAY', games: 3 }, { kind: 'GAME_POINTS' }, { kind: 'REPLAY', games: 1 }, { kind: 'LOTS' }]);
    expect(value(parseTieRule([]))).toEqual([{ kind: 'LOTS' }]);
    expect(value(parseTieRule(['GAME_POINTS', 'LOTS']))).toEqual([{ kind: 'GAME_POINTS' }, { kind: 'LOTS' }]);
  });

  it.each([['REPLAY(1)'], [['REPLAY(0)']], [['replay(1)']], [['REPLAY(01)']], [['REPLAY']], [['COIN']], [[1]], [['LOTS', 'GAME_POINTS']]])('refuses %j', (input) => {
    const r = parseTieRule(input);
    expect(r.ok ? null : r.error.code).toBe('INVALID_INPUT');
  });

  it('labels lots as ko-tie|<bracket>|r<round>|m<match>', () => {
    expect(koTieLabel('KO', 1, 2)).toBe('ko-tie|KO|r1|m2');
    expect(koTieLabel('GF', 2, 1)).toBe('ko-tie|GF|r2|m1');
  });
});

describe('X11.3 knockout, 6 participants', () => {
  const seeds = value(
    knockoutSeeds(
      [1, 2, 3, 4, 5, 6].map((n) => participant(n, 2000 - n)),
      'rating',
      scriptedLots(),
    ),
  );
  const [s1, s2, s3, s4, s5, s6] = seeds;

  it('S = 8, seeds 7 and 8 empty: seeds 1 and 2 get the byes', () => {
    expect(bracketSize(6)).toBe(8);
    const round1 = firstRound(seeds);
    expect(round1).toEqual([
      { match: 1, slots: [s1, null] },
      { match: 2, slots: [s4, s5] },
      { match: 3, slots: [s2, null] },
      { match: 4, slots: [s3, s6] },
    ]);
    expect(round1.map((m) => openMatch(m, seeds))).toEqual([
      { kind: 'KO_BYE', winner: s1 },
      { kind: 'GAMES', betterSeed: s4, other: s5 },
      { kind: 'KO_BYE', winner: s2 },
      { kind: 'GAMES', betterSeed: s3, other: s6 },
    ]);
  });

  it('semi-finals 1 v winner(4, 5) and 2 v winner(3, 6), then the final', () => {
    const semis = nextRound([s1, s5, s2, s3]);
    expect(semis).toEqual([
      { match: 1, slots: [s1, s5] },
      { match: 2, slots: [s2, s3] },
    ]);
    expect(nextRound([s5, s2])).toEqual([{ match: 1, slots: [s5, s2] }]);
    // After an upset the better seed holds the lower slot; it still takes seat 0 in game 1.
    expect(openMatch({ match: 1, slots: [s5, s2] }, seeds)).toEqual({ kind: 'GAMES', betterSeed: s2, other: s5 });
  });

  it('Cerke 20-20, replay with seed 5 at seat 0, drawn again: equal game points, then lots (0 = seed 4)', () => {
    for (const [lot, winner] of [
      [0, s4],
      [1, s5],
    ] as const) {
      const lots = scriptedLots([lot]);
      const input = (games: MatchGame[]): MatchInput => match(games, { betterSeed: s4, other: s5, lots, label: koTieLabel('KO', 1, 2) });
      const game1 = played([s4, s5], null, [20, 20]);
      expect(value(decideMatch(input([])))).toEqual({ kind: 'NEXT_GAME', seats: [s4, s5], replay: false });
      expect(value(decideMatch(input([game1])))).toEqual({ kind: 'NEXT_GAME', seats: [s5, s4], replay: true });
      expect(lots.labels).toEqual([]);
      const replay = played([s5, s4], null, [20, 20]);
      expect(value(decideMatch(input([game1, replay])))).toEqual({ kind: 'DECIDED', winner, by: 'LOTS' });
      expect(lots.labels).toEqual(['ko-tie|KO|r1|m2']);
    }
  });
});

describe('K6.6-K6.8 deciding a match', () => {
  const decide = (games: MatchGame[], rest: Partial<MatchInput> = {}): MatchState => value(decideMatch(match(games, rest)));

  it('a single game: its winner advances on TP', () => {
    expect(decide([played(['A', 'B'], 'B', [0, 40])])).toEqual({ kind: 'DECIDED', winner: 'B', by: 'TP' });
  });

  it('every regular game is played, seats alternating, even after a lead that cannot be caught', () => {
    const g1 = played(['A', 'B'], 'A', [3, 0]);
    const g2 = played(['B', 'A'], 'A', [1, 3]);
    expect(decide([g1, g2], { gamesPerMatch: 3 })).toEqual({ kind: 'NEXT_GAME', seats: ['A', 'B'], replay: false });
    expect(decide([g1, g2, played(['A', 'B'], 'B', [0, 3])], { gamesPerMatch: 3 })).toEqual({ kind: 'DECIDED', winner: 'A', by: 'TP' });
  });

  it('1-1 over two games: the replay swaps the seats of game 2, and its winner advances', () => {
    const games = [played(['A', 'B'], 'A', [3, 1]), played(['B', 'A'], 'B', [3, 2])];
    expect(decide(games, { gamesPerMatch: 2 })).toEqual({ kind: 'NEXT_GAME', seats: ['A', 'B'], replay: true });
    expect(decide([...games, played(['A', 'B'], 'B', [0, 1])], { gamesPerMatch: 2 })).toEqual({ kind: 'DECIDED', winner: 'B', by: 'REPLAY' });
  });

  it('GAME_POINTS counts every game, replays included; Chicken Foot prefers fewer pips', () => {
    const tieRule = value(parseTieRule(['REPLAY(1)', 'GAME_POINTS']));
    // A: 3 + 2 + 1 = 6, B: 1 + 3 + 1 = 5.
    const games = [played(['A', 'B'], 'A', [3, 1]), played(['B', 'A'], 'B', [3, 2]), played(['A', 'B'], null, [1, 1])];
    expect(decide(games, { gamesPerMatch: 2, tieRule })).toEqual({ kind: 'DECIDED', winner: 'A', by: 'GAME_POINTS' });
    expect(decide(games, { gamesPerMatch: 2, tieRule, gamePointsOrder: 'lower' })).toEqual({ kind: 'DECIDED', winner: 'B', by: 'GAME_POINTS' });
  });

  it('REPLAY(k): up to k extra games, the first not drawn decides; then the next rule', () => {
    const tieRule = value(parseTieRule(['REPLAY(2)']));
    const drawn = [played(['A', 'B'], null, [20, 20]), played(['B', 'A'], null, [20, 20])];
    expect(decide(drawn, { tieRule })).toEqual({ kind: 'NEXT_GAME', seats: ['A', 'B'], replay: true });
    expect(decide([...drawn, played(['A', 'B'], 'B', [12, 28])], { tieRule })).toEqual({ kind: 'DECIDED', winner: 'B', by: 'REPLAY' });
    expect(decide([...drawn, played(['A', 'B'], null, [20, 20])], { tieRule, lots: scriptedLots([1]) })).toEqual({ kind: 'DECIDED', winner: 'B', by: 'LOTS' });
  });

  it('LOTS alone decides a drawn match at once', () => {
    const lots = scriptedLots([0]);
    expect(decide([played(['A', 'B'], null, [20, 20])], { tieRule: value(parseTieRule(['LOTS'])), lots, label: 'ko-tie|KO|r3|m1' })).toEqual({ kind: 'DECIDED', winner: 'A', by: 'LOTS' });
    expect(lots.labels).toEqual(['ko-tie|KO|r3|m1']);
  });

  it('K6.8: a forfeit winner advances; a double forfeit eliminates both, in any game', () => {
    expect(decide([{ kind: 'FORFEIT', seats: ['A', 'B'], winner: 'B' }])).toEqual({ kind: 'DECIDED', winner: 'B', by: 'FORFEIT' });
    const g1 = played(['A', 'B'], 'A', [3, 0]);
    expect(decide([g1, { kind: 'FORFEIT', seats: ['B', 'A'], winner: 'B' }], { gamesPerMatch: 3 })).toEqual({ kind: 'DECIDED', winner: 'B', by: 'FORFEIT' });
    expect(decide([{ kind: 'DOUBLE_FORFEIT', seats: ['A', 'B'] }])).toEqual({ kind: 'DECIDED', winner: null, by: 'DOUBLE_FORFEIT' });
    expect(decide([played(['A', 'B'], null, [20, 20]), { kind: 'FORFEIT', seats: ['B', 'A'], winner: 'A' }])).toEqual({ kind: 'DECIDED', winner: 'A', by: 'FORFEIT' });
    // K6.8, In Arbiter: the games after the forfeit count for nothing.
    expect(decide([{ kind: 'FORFEIT', seats: ['A', 'B'], winner: 'A' }, played(['B', 'A'], 'B', [3, 0]), played(['A', 'B'], 'B', [0, 3])], { gamesPerMatch: 3 })).toEqual({
      kind: 'DECIDED',
      winner: 'A',
      by: 'FORFEIT',
    });
  });

  it.each([
    ['wrong seats in game 1', [played(['B', 'A'], 'A', [1, 0])], {}],
    ['a game after the decision', [played(['A', 'B'], 'A', [1, 0]), played(['B', 'A'], 'A', [1, 0])], {}],
    ['a winner who did not play', [played(['A', 'B'], 'C', [1, 0])], {}],
    ['no games per match', [], { gamesPerMatch: 0 }],
    ['one participant on both sides', [], { other: 'A' }],
  ] as [string, MatchGame[], Partial<MatchInput>][])('refuses %s', (_, games, rest) => {
    const r = decideMatch(match(games, rest));
    expect(r.ok ? null : r.error.code).toBe('INVALID_INPUT');
  });
});

describe('K6.9 placings', () => {
  it('champion 1, final loser 2, semi-final losers 3, quarter-final losers 5', () => {
    const rounds: DecidedMatch[][] = [
      [
        { match: 1, slots: ['a', 'h'], winner: 'a' },
        { match: 2, slots: ['d', 'e'], winner: 'e' },
        { match: 3, slots: ['b', null], winner: 'b' },
        { match: 4, slots: ['c', 'f'], winner: 'c' },
      ],
      [
        { match: 1, slots: ['a', 'e'], winner: 'a' },
        { match: 2, slots: ['b', 'c'], winner: 'c' },
      ],
      [{ match: 1, slots: ['a', 'c'], winner: 'c' }],
    ];
    expect(knockoutPlacings(7, rounds)).toEqual([
      { participantId: 'c', place: 1 },
      { participantId: 'a', place: 2 },
      { participantId: 'e', place: 3 },
      { participantId: 'b', place: 3 },
      { participantId: 'h', place: 5 },
      { participantId: 'd', place: 5 },
      { participantId: 'f', place: 5 },
    ]);
  });

  it('a double forfeit in the final leaves no champion: both finalists are 2nd', () => {
    expect(knockoutPlacings(2, [[{ match: 1, slots: ['a', 'b'], winner: null }]])).toEqual([
      { participantId: 'a', place: 2 },
      { participantId: 'b', place: 2 },
    ]);
  });
});

describe('K6.2-K6.9 properties, N = 2..64', () => {
  const seedsOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `s${i + 1}`);
  const seedNo = (id: string): number => Number(id.slice(1));

  it('round 1 holds every participant once, and the byes go to seeds 1..S-N', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), (n) => {
        const seeds = seedsOf(n);
        const size = bracketSize(n);
        const round1 = firstRound(seeds);
        expect(round1).toHaveLength(size / 2);
        const present = round1.flatMap((m) => m.slots).filter((s): s is string => s !== null);
        expect([...present].sort()).toEqual([...seeds].sort());
        const byes = round1.map((m) => openMatch(m, seeds)).flatMap((o) => (o.kind === 'KO_BYE' ? [seedNo(o.winner)] : []));
        expect(byes.sort((a, b) => a - b)).toEqual(Array.from({ length: size - n }, (_, i) => i + 1));
        // Seed s meets seed S + 1 - s, the better seed in the upper slot.
        for (const m of round1) if (m.slots[0] !== null && m.slots[1] !== null) expect(seedNo(m.slots[0]) + seedNo(m.slots[1])).toBe(size + 1);
      }),
    );
  });

  /**
   * Plays a whole bracket through decideMatch: each game's result comes from `pick` (0: seat 0
   * wins, 1: seat 1 wins, 2: draw, 3: double forfeit, 4: seat 0 wins by forfeit). Returns the
   * decided rounds and the round each participant was eliminated in.
   */
  function playOut(seeds: string[], gamesPerMatch: number, pick: () => number, lots: Lots) {
    const rounds: DecidedMatch[][] = [];
    const eliminatedIn = new Map<string, number>();
    let matches: KnockoutMatch[] = firstRound(seeds);
    for (let t = 1; ; t++) {
      const decided = matches.map((m): DecidedMatch => {
        const opening = openMatch(m, seeds);
        if (opening.kind === 'EMPTY') return { ...m, winner: null };
        if (opening.kind === 'KO_BYE') return { ...m, winner: opening.winner };
        const games: MatchGame[] = [];
        for (let guard = 0; guard < 20; guard++) {
          const state = value(
            decideMatch({
              games,
              gamesPerMatch,
              tieRule: value(parseTieRule(undefined)),
              points: POINTS,
              betterSeed: opening.betterSeed,
              other: opening.other,
              gamePointsOrder: 'higher',
              lots,
              label: koTieLabel('KO', t, m.match),
            }),
          );
          if (state.kind === 'DECIDED') {
            for (const id of m.slots) if (id !== null && id !== state.winner) eliminatedIn.set(id, t);
            return { ...m, winner: state.winner };
          }
          const r = pick();
          if (r === 3) games.push({ kind: 'DOUBLE_FORFEIT', seats: state.seats });
          else if (r === 4) games.push({ kind: 'FORFEIT', seats: state.seats, winner: state.seats[0] });
          else games.push(played(state.seats, r === 2 ? null : state.seats[r], r === 0 ? [3, 1] : r === 1 ? [1, 3] : [2, 2]));
        }
        throw new Error('a match did not end');
      });
      rounds.push(decided);
      if (decided.length === 1) return { rounds, eliminatedIn };
      matches = nextRound(decided.map((m) => m.winner));
    }
  }

  it('playing random results to the end gives one champion and the K6.9 places', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.integer({ min: 1, max: 3 }), fc.infiniteStream(fc.integer({ min: 0, max: 2 })), fc.nat(), (n, gamesPerMatch, results, salt) => {
        const seeds = seedsOf(n);
        const it = results[Symbol.iterator]();
        const { rounds, eliminatedIn } = playOut(seeds, gamesPerMatch, () => it.next().value as number, new SeededLots('00'.repeat(32), `t${salt}`));
        const k = knockoutRoundCount(n);
        expect(rounds).toHaveLength(k);
        const placings = knockoutPlacings(n, rounds);
        expect(placings.map((p) => p.participantId).sort()).toEqual([...seeds].sort());
        const champions = placings.filter((p) => p.place === 1);
        expect(champions).toHaveLength(1);
        expect(champions[0].participantId).toBe(rounds[k - 1][0].winner);
        for (const p of placings) if (p.place !== 1) expect(p.place).toBe(2 ** (k - eliminatedIn.get(p.participantId)!) + 1);
      }),
      { numRuns: 200 },
    );
  });

  it('with forfeits too, everyone is placed once, by the round they went out in; at most one champion', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.infiniteStream(fc.integer({ min: 0, max: 4 })), (n, results) => {
        const seeds = seedsOf(n);
        const it = results[Symbol.iterator]();
        const { rounds, eliminatedIn } = playOut(seeds, 1, () => it.next().value as number, new SeededLots('01'.repeat(32), 't'));
        const k = knockoutRoundCount(n);
        const placings = knockoutPlacings(n, rounds);
        expect(placings.map((p) => p.participantId).sort()).toEqual([...seeds].sort());
        expect(placings.filter((p) => p.place === 1).length).toBe(rounds[k - 1][0].winner === null ? 0 : 1);
        for (const p of placings) if (p.place !== 1) expect(p.place).toBe(2 ** (k - eliminatedIn.get(p.participantId)!) + 1);
      }),
      { numRuns: 200 },
    );
  });

  it('every match ends, within gamesPerMatch + the REPLAY games, seats alternating', () => {
    const rules = fc.array(
      fc.oneof(
        fc.constantFrom('GAME_POINTS', 'LOTS'),
        fc.integer({ min: 1, max: 3 }).map((k) => `REPLAY(${k})`),
      ),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(rules, fc.integer({ min: 1, max: 4 }), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 20, maxLength: 20 }), (written, gamesPerMatch, results) => {
        const tieRule = value(parseTieRule(written.slice(0, written.includes('LOTS') ? written.indexOf('LOTS') + 1 : written.length)));
        const replays = tieRule.reduce((s, step) => s + (step.kind === 'REPLAY' ? step.games : 0), 0);
        const games: MatchGame[] = [];
        for (const r of results) {
          const state = value(decideMatch(match(games, { gamesPerMatch, tieRule, lots: scriptedLots([r % 2]) })));
          if (state.kind === 'DECIDED') {
            expect(['A', 'B']).toContain(state.winner);
            expect(games.length).toBeGreaterThanOrEqual(gamesPerMatch);
            expect(games.length).toBeLessThanOrEqual(gamesPerMatch + replays);
            return;
          }
          expect(state.seats).toEqual(games.length % 2 === 0 ? ['A', 'B'] : ['B', 'A']);
          expect(state.replay).toBe(games.length >= gamesPerMatch);
          games.push(played(state.seats, r === 2 ? null : state.seats[r], r === 2 ? [1, 1] : r === 0 ? [2, 0] : [0, 2]));
        }
        throw new Error('the match did not end within 20 games');
      }),
    );
  });

  it('double forfeits leave empty slots: the next match is a KO_BYE or empty', () => {
    const seeds = seedsOf(4);
    const round2 = nextRound([null, 's2'] as Slot[]);
    expect(openMatch(round2[0], seeds)).toEqual({ kind: 'KO_BYE', winner: 's2' });
    expect(openMatch(nextRound([null, null])[0], seeds)).toEqual({ kind: 'EMPTY' });
  });
});

describe('K6.10 double elimination', () => {
  const decided = (match: number, slots: [Slot, Slot], winner: Slot): DecidedMatch => ({ match, slots, winner });

  it('S = 8: LB1..LB4 with 2, 2, 1, 1 matches; losers place LB4 3, LB3 4, LB2 5-6, LB1 7-8', () => {
    expect(losersRoundCount(8)).toBe(4);
    expect([1, 2, 3, 4].map((j) => losersRoundMatches(8, j))).toEqual([2, 2, 1, 1]);
    expect([4, 3, 2, 1].map((j) => losersRoundPlace(8, j))).toEqual([3, 4, 5, 7]);
    expect([1, 2, 3, 4, 5, 6].map((j) => losersRoundPlace(16, j))).toEqual([13, 9, 7, 5, 4, 3]);
    expect(losersRoundCount(2)).toBe(0);
    expect(losersRoundCount(4)).toBe(2);
  });

  it('the WB rounds feeding the LB: WB1 into LB1, WB(j+1) into LB(2j)', () => {
    expect([1, 2, 3, 4, 5, 6].map(winnersRoundFeeding)).toEqual([1, 2, null, 3, null, 4]);
  });

  it('S = 8 pairings: LB2 crosses the WB2 losers over (j = 1 odd), LB4 takes the WB final loser', () => {
    expect(losersRound(1, [], ['L1', 'L2', 'L3', 'L4'])).toEqual([
      { match: 1, slots: ['L1', 'L2'] },
      { match: 2, slots: ['L3', 'L4'] },
    ]);
    expect(losersRound(2, ['a', 'b'], ['M1', 'M2'])).toEqual([
      { match: 1, slots: ['a', 'M2'] },
      { match: 2, slots: ['b', 'M1'] },
    ]);
    expect(losersRound(3, ['a', 'b'], [])).toEqual([{ match: 1, slots: ['a', 'b'] }]);
    expect(losersRound(4, ['c'], ['F'])).toEqual([{ match: 1, slots: ['c', 'F'] }]);
  });

  it('S = 16: LB2 crosses over (match M+1-i), LB4 (j = 2 even) takes WB3 match i', () => {
    expect(losersRound(2, ['a', 'b', 'c', 'd'], ['M1', 'M2', 'M3', 'M4']).map((m) => m.slots)).toEqual([
      ['a', 'M4'],
      ['b', 'M3'],
      ['c', 'M2'],
      ['d', 'M1'],
    ]);
    expect(losersRound(4, ['a', 'b'], ['Q1', 'Q2']).map((m) => m.slots)).toEqual([
      ['a', 'Q1'],
      ['b', 'Q2'],
    ]);
    expect(() => losersRound(4, ['a', 'b'], ['Q1'])).toThrow(RangeError);
  });

  it('WB byes and double forfeits send nobody down: an empty LB slot', () => {
    expect(matchLosers([decided(1, ['a', null], 'a'), decided(2, ['b', 'c'], 'c'), decided(3, ['d', 'e'], null), decided(4, [null, null], null)])).toEqual([null, 'b', null, null]);
  });

  it('grand final: the WB champion takes seat 0 in game 1; a reset only after an LB champion win', () => {
    expect(openGrandFinal(grandFinal('w', 'l'))).toEqual({ kind: 'GAMES', betterSeed: 'w', other: 'l' });
    expect(openGrandFinal(grandFinal('w', null))).toEqual({ kind: 'KO_BYE', winner: 'w' });
    expect(secondGrandFinalNeeded(decided(1, ['w', 'l'], 'l'), true)).toBe(true);
    expect(secondGrandFinalNeeded(decided(1, ['w', 'l'], 'l'), false)).toBe(false);
    expect(secondGrandFinalNeeded(decided(1, ['w', 'l'], 'w'), true)).toBe(false);
    expect(secondGrandFinalNeeded(decided(1, [null, 'l'], 'l'), true)).toBe(false);
  });

  it('S = 2: the WB loser is the LB champion; placings 1 and 2', () => {
    const wb = [[decided(1, ['a', 'b'], 'a')]];
    const [lbChampion] = matchLosers(wb[0]);
    expect(lbChampion).toBe('b');
    const gf1 = decided(1, ['a', 'b'], 'b');
    const gf2 = decided(1, ['a', 'b'], 'b');
    expect(doubleEliminationPlacings(2, wb, [], [gf1, gf2])).toEqual([
      { participantId: 'b', place: 1 },
      { participantId: 'a', place: 2 },
    ]);
    expect(doubleEliminationPlacings(2, [[decided(1, ['a', 'b'], null)]], [], [decided(1, [null, null], null)])).toEqual([
      { participantId: 'a', place: 2 },
      { participantId: 'b', place: 2 },
    ]);
  });

  /** Plays a whole double-elimination bracket; `pick` chooses each match (0, 1: that slot wins; 2: double forfeit). */
  function playOut(seeds: string[], pick: () => number, bracketReset: boolean) {
    const losses = new Map<string, number>(seeds.map((id) => [id, 0]));
    const play = (matches: KnockoutMatch[], upperIsBetter?: boolean): DecidedMatch[] =>
      matches.map((m) => {
        const opening = upperIsBetter ? openGrandFinal(m) : openMatch(m, seeds);
        if (opening.kind !== 'GAMES') return { ...m, winner: opening.kind === 'KO_BYE' ? opening.winner : null };
        const r = pick();
        const winner = r === 2 ? null : m.slots[r];
        for (const id of m.slots) if (id !== null && id !== winner) losses.set(id, losses.get(id)! + 1);
        return { ...m, winner };
      });
    const size = bracketSize(seeds.length);
    const wb: DecidedMatch[][] = [play(firstRound(seeds))];
    while (wb[wb.length - 1].length > 1) wb.push(play(nextRound(wb[wb.length - 1].map((m) => m.winner))));
    const lb: DecidedMatch[][] = [];
    for (let j = 1; j <= losersRoundCount(size); j++) {
      const feeding = winnersRoundFeeding(j);
      const wbLosers = feeding === null ? [] : matchLosers(wb[feeding - 1]);
      lb.push(play(losersRound(j, j === 1 ? [] : lb[j - 2].map((m) => m.winner), wbLosers)));
    }
    const lbChampion = size === 2 ? matchLosers(wb[0])[0] : lb[lb.length - 1][0].winner;
    const gf = [play([grandFinal(wb[wb.length - 1][0].winner, lbChampion)], true)[0]];
    if (secondGrandFinalNeeded(gf[0], bracketReset)) gf.push(play([grandFinal(gf[0].slots[0], gf[0].slots[1])], true)[0]);
    return { wb, lb, gf, losses, size };
  }

  it('N = 2..64, played to the end with reset: one champion, everyone else out after exactly two losses, places per K6.10', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.infiniteStream(fc.integer({ min: 0, max: 1 })), (n, results) => {
        const seeds = Array.from({ length: n }, (_, i) => `s${i + 1}`);
        const it = results[Symbol.iterator]();
        const { wb, lb, gf, losses, size } = playOut(seeds, () => it.next().value as number, true);
        const placings = doubleEliminationPlacings(size, wb, lb, gf);
        expect(placings.map((p) => p.participantId).sort()).toEqual([...seeds].sort());
        const champion = placings.filter((p) => p.place === 1);
        expect(champion).toHaveLength(1);
        expect(losses.get(champion[0].participantId)).toBeLessThanOrEqual(1);
        for (const p of placings) if (p.place !== 1) expect(losses.get(p.participantId)).toBe(2);
        expect(placings.filter((p) => p.place === 2)).toHaveLength(1);
        if (n >= 3) expect(placings.filter((p) => p.place === 3)).toHaveLength(1);
        // Places are consistent: those who share a place went out in the same LB round.
        for (let j = 1; j <= lb.length; j++) {
          const out = lb[j - 1].flatMap((m) => m.slots.filter((s) => s !== null && s !== m.winner));
          for (const id of out) expect(placings.find((p) => p.participantId === id)!.place).toBe(losersRoundPlace(size, j));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('with double forfeits and no reset, everyone is still placed exactly once, with at most one champion', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.infiniteStream(fc.integer({ min: 0, max: 2 })), (n, results) => {
        const seeds = Array.from({ length: n }, (_, i) => `s${i + 1}`);
        const it = results[Symbol.iterator]();
        const { wb, lb, gf, size } = playOut(seeds, () => it.next().value as number, false);
        expect(gf).toHaveLength(1);
        const placings = doubleEliminationPlacings(size, wb, lb, gf, false);
        expect(placings.map((p) => p.participantId).sort()).toEqual([...seeds].sort());
        expect(placings.filter((p) => p.place === 1).length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 200 },
    );
  });
});
