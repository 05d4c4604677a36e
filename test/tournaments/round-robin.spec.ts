import fc from 'fast-check';
import type { Lots } from '../../src/referee/core/tournament/lots.js';
import { SeededLots } from '../../src/referee/core/tournament/lots.js';
import { bergerRound, type RoundRobinRound, roundRobinNumbers, roundRobinRound, roundRobinRoundCount, roundRobinSchedule } from '../../src/referee/core/tournament/round-robin.js';
import type { Participant } from '../../src/referee/core/tournament/types.js';

const participant = (registrationNo: number, rating = 0): Participant => ({ id: `p${registrationNo}`, registrationNo, rating, entryRound: 1, withdrawnAfterRound: null });

/** Written as in RR4.3: "a-b" is a at seat 0 against b at seat 1. */
const written = (round: RoundRobinRound): string => round.boards.map((b) => b.seats.join('-')).join(', ');

describe('RR4.1 pairing numbers', () => {
  const field = [participant(3, 1500), participant(1, 1600), participant(4, 1600), participant(2, 0)];

  it('rating: rating descending, then registrationNo ascending', () => {
    const noLots: Lots = {
      uniform: () => {
        throw new Error('no lot in rating mode');
      },
      shuffle: () => {
        throw new Error('no lot in rating mode');
      },
    };
    expect(roundRobinNumbers(field, 'rating', noLots)).toEqual(['p1', 'p4', 'p3', 'p2']);
  });

  it('lots: shuffles the participants by registrationNo under rr-numbers', () => {
    const calls: { label: string; items: unknown[] }[] = [];
    const reversing: Lots = {
      uniform: () => 0,
      shuffle: <T>(label: string, items: readonly T[]): T[] => {
        calls.push({ label, items: [...items] });
        return [...items].reverse();
      },
    };
    expect(roundRobinNumbers(field, 'lots', reversing)).toEqual(['p4', 'p3', 'p2', 'p1']);
    expect(calls).toHaveLength(1);
    expect(calls[0].label).toBe('rr-numbers');
    expect((calls[0].items as Participant[]).map((p) => p.registrationNo)).toEqual([1, 2, 3, 4]);
  });

  it('lots: the same seed gives the same numbers whatever the input order (L9.3)', () => {
    const seed = 'ab'.repeat(32);
    const a = roundRobinNumbers(field, 'lots', new SeededLots(seed, 't1'));
    const b = roundRobinNumbers([...field].reverse(), 'lots', new SeededLots(seed, 't1'));
    expect(b).toEqual(a);
    expect([...a].sort()).toEqual(['p1', 'p2', 'p3', 'p4']);
  });
});

describe('RR4.2-RR4.3 Berger tables', () => {
  it('reproduces the n = 6 table of RR4.3', () => {
    const table = [1, 2, 3, 4, 5].map((r) =>
      bergerRound(6, r)
        .map((b) => b.join('-'))
        .join(', '),
    );
    expect(table).toEqual(['1-6, 2-5, 3-4', '6-4, 5-3, 1-2', '2-6, 3-1, 4-5', '6-5, 1-4, 2-3', '3-6, 4-2, 5-1']);
  });

  it('a single round-robin of 6 is the Berger table, with nobody resting', () => {
    const schedule = roundRobinSchedule(6, false);
    expect(schedule.map(written)).toEqual(['1-6, 2-5, 3-4', '6-4, 5-3, 1-2', '2-6, 3-1, 4-5', '6-5, 1-4, 2-3', '3-6, 4-2, 5-1']);
    expect(schedule.map((r) => r.rest)).toEqual([null, null, null, null, null]);
    expect(schedule.map((r) => r.round)).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses what is not a Berger round', () => {
    expect(() => bergerRound(5, 1)).toThrow(RangeError);
    expect(() => bergerRound(6, 0)).toThrow(RangeError);
    expect(() => bergerRound(6, 6)).toThrow(RangeError);
    expect(() => roundRobinRoundCount(1, false)).toThrow(RangeError);
    expect(() => roundRobinRound(4, false, 4)).toThrow(RangeError);
  });

  it('m rounds, 2m in a double round-robin', () => {
    expect([2, 3, 4, 5, 6, 7].map((n) => roundRobinRoundCount(n, false))).toEqual([1, 3, 3, 5, 5, 7]);
    expect([2, 3, 4, 5, 6, 7].map((n) => roundRobinRoundCount(n, true))).toEqual([2, 6, 6, 10, 10, 14]);
  });
});

describe('X11.2 round-robin, 5 participants', () => {
  it('number 6 is the dummy: its opponent rests (RR4.4)', () => {
    const schedule = roundRobinSchedule(5, false);
    expect(schedule.map((r) => r.rest)).toEqual([1, 4, 2, 5, 3]);
    expect(schedule.map(written)).toEqual(['2-5, 3-4', '5-3, 1-2', '3-1, 4-5', '1-4, 2-3', '4-2, 5-1']);
  });

  it('double: Berger 1, 2, 3, 5, 4, then Berger 1..5 with seats swapped (RR4.5)', () => {
    const schedule = roundRobinSchedule(5, true);
    expect(schedule.map((r) => r.rest)).toEqual([1, 4, 2, 3, 5, 1, 4, 2, 5, 3]);
    expect(schedule.map(written)).toEqual(['2-5, 3-4', '5-3, 1-2', '3-1, 4-5', '4-2, 5-1', '1-4, 2-3', '5-2, 4-3', '3-5, 2-1', '1-3, 5-4', '4-1, 3-2', '2-4, 1-5']);
    // Round 6 in full, dummy included: 6-1, 5-2, 4-3.
    expect(bergerRound(6, 1).map(([a, b]) => `${b}-${a}`)).toEqual(['6-1', '5-2', '4-3']);
  });

  it('2 participants (m = 1): one game, seats reversed in the second cycle', () => {
    expect(roundRobinSchedule(2, true).map(written)).toEqual(['1-2', '2-1']);
  });

  it('3 participants (m = 3): cycle 1 swaps Berger rounds 2 and 3, cycle 2 does not', () => {
    expect(roundRobinSchedule(3, false).map((r) => r.rest)).toEqual([1, 3, 2]);
    expect(roundRobinSchedule(3, true).map((r) => r.rest)).toEqual([1, 2, 3, 1, 3, 2]);
  });
});

describe('RR4.2-RR4.5 properties, N = 2..16', () => {
  const pairKey = (a: number, b: number): string => `${Math.min(a, b)}-${Math.max(a, b)}`;

  /** Seat counts and the longest run of one seat over a participant's played games. */
  function seatStats(rounds: readonly RoundRobinRound[], count: number) {
    const seat0 = new Array<number>(count + 1).fill(0);
    const seat1 = new Array<number>(count + 1).fill(0);
    const last = new Array<number>(count + 1).fill(-1);
    const run = new Array<number>(count + 1).fill(0);
    let longestRun = 0;
    for (const round of rounds) {
      for (const { seats } of round.boards) {
        seat0[seats[0]]++;
        seat1[seats[1]]++;
        seats.forEach((p, seat) => {
          run[p] = last[p] === seat ? run[p] + 1 : 1;
          last[p] = seat;
          longestRun = Math.max(longestRun, run[p]);
        });
      }
    }
    return { balance: seat0.slice(1).map((s, i) => s - seat1[i + 1]), longestRun };
  }

  const counts = fc.integer({ min: 2, max: 16 });

  it('each round: everyone plays or rests exactly once; exactly one rests when N is odd', () => {
    fc.assert(
      fc.property(counts, fc.boolean(), (count, double) => {
        for (const round of roundRobinSchedule(count, double)) {
          const present = round.boards.flatMap((b) => b.seats);
          if (round.rest !== null) present.push(round.rest);
          expect([...present].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
          expect(round.rest === null).toBe(count % 2 === 0);
        }
      }),
    );
  });

  it('each cycle: every pair meets exactly once and everyone rests once when N is odd', () => {
    fc.assert(
      fc.property(counts, fc.boolean(), (count, double) => {
        const schedule = roundRobinSchedule(count, double);
        const m = count % 2 === 0 ? count - 1 : count;
        for (const cycle of double ? [schedule.slice(0, m), schedule.slice(m)] : [schedule]) {
          const met = cycle.flatMap((r) => r.boards.map((b) => pairKey(...b.seats)));
          expect(met).toHaveLength((count * (count - 1)) / 2);
          expect(new Set(met).size).toBe(met.length);
          const rests = cycle.map((r) => r.rest).filter((r) => r !== null);
          expect(rests.sort((a, b) => a - b)).toEqual(count % 2 === 0 ? [] : Array.from({ length: count }, (_, i) => i + 1));
        }
      }),
    );
  });

  it('double: every pair plays once with each seat order', () => {
    fc.assert(
      fc.property(counts, (count) => {
        const games = roundRobinSchedule(count, true).flatMap((r) => r.boards.map((b) => b.seats.join('-')));
        expect(games).toHaveLength(count * (count - 1));
        expect(new Set(games).size).toBe(games.length);
        for (const game of games) expect(games).toContain(game.split('-').reverse().join('-'));
      }),
    );
  });

  it('seat balance: within 1 over a single cycle (exactly 1 for even N, 0 for odd N), 0 over a double', () => {
    fc.assert(
      fc.property(counts, (count) => {
        const single = seatStats(roundRobinSchedule(count, false), count).balance;
        // Even N: m = N - 1 games each, an odd number, so the best is a difference of 1.
        for (const b of single) expect(Math.abs(b)).toBe(count % 2 === 0 ? 1 : 0);
        expect(seatStats(roundRobinSchedule(count, true), count).balance.every((b) => b === 0)).toBe(true);
      }),
    );
  });

  it('nobody has the same seat in three played games in a row, across the cycle change too', () => {
    fc.assert(
      fc.property(counts, fc.boolean(), (count, double) => {
        expect(seatStats(roundRobinSchedule(count, double), count).longestRun).toBeLessThanOrEqual(2);
      }),
    );
  });

  it('odd N single cycle: seats strictly alternate over the games each participant plays', () => {
    for (const count of [3, 5, 7, 9, 11, 13, 15]) expect(seatStats(roundRobinSchedule(count, false), count).longestRun).toBe(1);
  });
});
