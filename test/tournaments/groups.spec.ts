import fc from 'fast-check';
import { placingsOf } from '../../src/referee/core/tournament/formats.js';
import { groupRound, groupStageRoundCount, seedsFromPlaces, snakeGroups } from '../../src/referee/core/tournament/groups.js';
import { firstRound } from '../../src/referee/core/tournament/knockout.js';
import { Driver } from './support.js';

/**
 * A group stage feeding a knockout (K6.12 in docs/rules/tournaments.md), read from its text:
 * "seeds 1 to G to groups 1 to G, seeds G+1 to 2G to groups G to 1, and so on"; "each group plays a
 * single round-robin"; "the knockout's seeds are taken place by place: every group's 1st, then
 * every group's 2nd, and so on. Within an odd place the groups come in order 1, 2, ..., G; within
 * an even place in order 1, G, G-1, ..., 2", which sets "the winner of group g against the
 * runner-up of group g + 1"; who did not advance is placed "by group place".
 */

const backgammon = { kind: 'backgammon', ruleset: { matchLength: 3 } };

/** The snake read from K6.12's words: rows of G seeds, every other row reversed. */
function snakeByText(n: number, g: number): number[][] {
  const groups: number[][] = Array.from({ length: g }, () => []);
  for (let row = 0; row * g < n; row++) {
    const seeds = Array.from({ length: g }, (_, c) => row * g + c + 1).filter((s) => s <= n);
    const targets = row % 2 === 0 ? seeds.map((_, c) => c) : seeds.map((_, c) => g - 1 - c);
    for (const [c, s] of seeds.entries()) groups[targets[c]].push(s);
  }
  return groups;
}

describe('K6.12 group stage: the pure rules', () => {
  it('snake seeding: as the text says, sizes differ by at most one, each group in seed order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2, max: 8 }), (g, per) => {
        const n = g * per - (per > 2 ? (g - 1) % per : 0);
        const seeds = Array.from({ length: n }, (_, i) => `s${i + 1}`);
        const groups = snakeGroups(seeds, g);
        expect(groups.map((x) => x.map((s) => Number(s.slice(1))))).toEqual(snakeByText(n, g));
        const sizes = groups.map((x) => x.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        for (const x of groups) expect([...x].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))).toEqual(x);
      }),
    );
  });

  it('every participant plays each member of its group exactly once, nobody of another group, at most once a round', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 1, max: 8 }), (n, g0) => {
        const g = Math.min(g0, Math.floor(n / 2));
        const groups = snakeGroups(
          Array.from({ length: n }, (_, i) => `s${i + 1}`),
          g,
        );
        const groupOf = new Map(groups.flatMap((members, i) => members.map((id) => [id, i] as const)));
        const met = new Map<string, number>();
        for (let r = 1; r <= groupStageRoundCount(groups); r++) {
          const seen = new Set<string>();
          for (const part of groupRound(groups, r))
            for (const [a, b] of part.boards) {
              expect(groupOf.get(a)).toBe(groupOf.get(b));
              expect(seen.has(a) || seen.has(b)).toBe(false);
              seen.add(a);
              seen.add(b);
              const key = [a, b].sort().join('|');
              met.set(key, (met.get(key) ?? 0) + 1);
            }
        }
        for (const members of groups) for (const a of members) for (const b of members) if (a < b) expect(met.get([a, b].sort().join('|'))).toBe(1);
        expect([...met.values()].every((v) => v === 1)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('seeding from places: with two from each of an even number of groups, no first-round match sets two of one group', () => {
    for (const g of [2, 4, 8, 16]) {
      const places = Array.from({ length: g }, (_, i) => [`W${i + 1}`, `R${i + 1}`, `T${i + 1}`]);
      const order = seedsFromPlaces(places);
      expect(order.slice(0, g)).toEqual(places.map((p) => p[0]));
      const seeds = order.slice(0, 2 * g);
      for (const m of firstRound(seeds)) {
        const [a, b] = m.slots as string[];
        expect(a.slice(1)).not.toBe(b.slice(1));
        // A group winner meets a runner-up: of the next group (group G's winner: group 1's).
        const w = a.startsWith('W') ? a : b;
        const r = a.startsWith('W') ? b : a;
        expect(r).toBe(`R${(Number(w.slice(1)) % g) + 1}`);
      }
    }
  });
});

function event(n: number, extra: Record<string, unknown>): Driver {
  const d = new Driver({ ...backgammon, format: 'groupsKnockout', ...extra });
  for (let i = 1; i <= n; i++) d.register(`P${i}`, 3000 - i);
  return d;
}

/** Plays to the end; `pick` gives the winning seat of each game. */
function playOut(d: Driver, pick: (seats: string[]) => number, each?: () => void): void {
  for (let guard = 0; !d.t.finished; guard++) {
    if (guard > 30) throw new Error('the event does not end');
    d.pair();
    each?.();
    for (let open = d.openGames(); open.length > 0; open = d.openGames())
      for (const g of open) {
        const w = pick(g.game.seats);
        d.finish(g, [w], w === 0 ? [3, 1] : [1, 3]);
        each?.();
      }
  }
}

const ranks = (d: Driver) => Object.fromEntries(d.t.ranking!.map((r) => [r.participantId.slice(2), r.rank]));

describe('K6.12 group stage feeding a knockout, as a tournament', () => {
  it('8 in 2 groups of 4, 2 advance, third-place match: winners meet the other group\u2019s runner-up; placings from the knockout, then by group place', () => {
    const d = event(8, { groupCount: 2, advancePerGroup: 2, thirdPlaceMatch: true });
    // The better rated always wins (P1 best).
    const number = (id: string) => Number(id.slice(3));
    playOut(d, (seats) => (number(seats[0]) < number(seats[1]) ? 0 : 1));
    // Snake: group 1 = P1 P4 P5 P8, group 2 = P2 P3 P6 P7; 3 group rounds, then semi-finals and final.
    expect(d.t.rounds).toHaveLength(5);
    expect(d.t.rounds[3].boards.map((b) => b.seats)).toEqual([
      ['p-P1', 'p-P3'],
      ['p-P2', 'p-P4'],
    ]);
    // The third-place match: P4 (group 1's runner-up, seed 3) is the better seed of the two.
    expect(d.t.rounds[4].boards.map((b) => b.seats)).toEqual([
      ['p-P1', 'p-P2'],
      ['p-P4', 'p-P3'],
    ]);
    expect(ranks(d)).toEqual({ P1: 1, P2: 2, P3: 3, P4: 4, P5: 5, P6: 5, P7: 7, P8: 7 });
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('options are checked: groupCount or groupSize, not both, and only for this format', () => {
    expect(() => new Driver({ ...backgammon, format: 'groupsKnockout', groupCount: 2, groupSize: 4 })).toThrow(/not both/);
    expect(() => new Driver({ ...backgammon, format: 'knockout', groupCount: 2 })).toThrow(/groupsKnockout/);
    expect(new Driver({ ...backgammon, format: 'groupsKnockout' }).t.config).toMatchObject({ groupSize: 4, advancePerGroup: 2 });
    const d = event(5, { groupCount: 2, advancePerGroup: 3 });
    expect(() => d.pair()).toThrow(/advancePerGroup/);
  });

  it('N = 4..24, any groups, random results: placed only once out, nobody twice, one champion, everyone placed at the end, and the refold agrees', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 24 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        fc.infiniteStream(fc.integer({ min: 0, max: 1 })),
        (n, g0, a0, third, results) => {
          const g = Math.min(g0, Math.floor(n / 2));
          const advance = Math.max(g === 1 ? 2 : 1, Math.min(a0, Math.floor(n / g)));
          const d = event(n, { groupCount: g, advancePerGroup: advance, thirdPlaceMatch: third });
          const it = results[Symbol.iterator]();
          const stage = () => d.t.rounds.length <= d.t.totalRounds! - Math.log2(2 ** Math.ceil(Math.log2(g * advance)));
          playOut(
            d,
            () => it.next().value as number,
            () => {
              const placings = placingsOf(d.t);
              expect(new Set(placings.map((p) => p.participantId)).size).toBe(placings.length);
              // Nobody is out during the group stage.
              if (stage()) expect(placings).toEqual([]);
            },
          );
          const ranking = d.t.ranking!;
          expect(ranking.map((r) => r.participantId).sort()).toEqual(d.t.participants.map((p) => p.id).sort());
          expect(ranking.filter((r) => r.rank === 1)).toHaveLength(1);
          expect(ranking.filter((r) => r.rank === 2)).toHaveLength(1);
          if (third && g * advance >= 4) expect(ranking.filter((r) => r.rank === 3)).toHaveLength(1);
          expect(d.refold().ranking).toEqual(ranking);
        },
      ),
      { numRuns: 60 },
    );
  });
});
