import fc from 'fast-check';
import { placingsOf } from '../../src/referee/core/tournament/formats.js';
import { Driver } from './support.js';

/**
 * K6.11 (docs/rules/tournaments.md), read from its text: with `thirdPlaceMatch`, "the last round
 * also has match 2, the third-place match: the loser of semi-final 1 against the loser of
 * semi-final 2", and "its winner is 3rd and its loser 4th". Everything else is K6.9: only who has
 * lost is placed, so a semi-final's loser has no place until the third-place match is decided.
 */

const backgammon = { kind: 'backgammon', ruleset: { matchLength: 3 } };

function knockout(n: number, extra: Record<string, unknown> = {}): Driver {
  const d = new Driver({ ...backgammon, format: 'knockout', thirdPlaceMatch: true, ...extra });
  for (let i = 1; i <= n; i++) d.register(`P${i}`, 3000 - i);
  return d;
}

const byPlace = (placings: { participantId: string; place: number }[]) => [...placings].sort((a, b) => a.place - b.place || a.participantId.localeCompare(b.participantId));

describe('K6.11 third-place match', () => {
  it('is refused outside the knockout format', () => {
    expect(() => new Driver({ ...backgammon, format: 'swiss', rounds: 3, thirdPlaceMatch: true })).toThrow(/thirdPlaceMatch/);
    expect(() => new Driver({ ...backgammon, format: 'knockout', thirdPlaceMatch: 'yes' })).toThrow(/thirdPlaceMatch/);
  });

  it('a knockout without it records no thirdPlaceMatch in its configuration (older configurations stay complete)', () => {
    expect('thirdPlaceMatch' in new Driver({ ...backgammon, format: 'knockout' }).t.config).toBe(false);
  });

  it('knockout of 8: the semi-finals\u2019 losers play board 2 of the final round, and are placed 3rd and 4th by it', () => {
    const d = knockout(8);
    // The better seed (seat 0 of game 1) wins every match: P1-P4 reach the semi-finals, P1 and P2 the final.
    for (let round = 1; round <= 2; round++) {
      d.pair();
      for (const g of d.openGames()) d.finish(g, [0], [3, 1]);
    }
    // Semi-final losers P3, P4 are not placed yet: they still play for 3rd.
    expect(byPlace(placingsOf(d.t)).map((p) => [p.participantId, p.place])).toEqual([
      ['p-P5', 5],
      ['p-P6', 5],
      ['p-P7', 5],
      ['p-P8', 5],
    ]);
    d.pair();
    const final = d.t.rounds[2];
    expect(final.boards.map((b) => b.seats)).toEqual([
      ['p-P1', 'p-P2'],
      ['p-P3', 'p-P4'],
    ]);
    const [f, third] = d.openGames();
    // The worse seed wins the third-place match, then the final is played.
    d.finish(third, [1], [1, 3]);
    expect(d.t.finished).toBe(false);
    expect(byPlace(placingsOf(d.t)).slice(0, 2)).toEqual([
      { participantId: 'p-P4', place: 3 },
      { participantId: 'p-P3', place: 4 },
    ]);
    d.finish(f, [0], [3, 0]);
    expect(d.t.finished).toBe(true);
    expect(d.t.ranking!.map((r) => [r.participantId, r.rank]).sort((a, b) => (a[1] as number) - (b[1] as number) || String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['p-P1', 1],
      ['p-P2', 2],
      ['p-P4', 3],
      ['p-P3', 4],
      ['p-P5', 5],
      ['p-P6', 5],
      ['p-P7', 5],
      ['p-P8', 5],
    ]);
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('N = 3..16, random winners: placed only who has lost, no one twice, one champion and one 3rd at the end, and the refold agrees', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 16 }), fc.infiniteStream(fc.boolean()), (n, upsets) => {
        const d = knockout(n);
        const it = upsets[Symbol.iterator]();
        const lost = new Set<string>();
        const check = () => {
          const placings = placingsOf(d.t);
          expect(new Set(placings.map((p) => p.participantId)).size).toBe(placings.length);
          for (const p of placings) if (p.place !== 1 && p.place !== 3) expect(lost.has(p.participantId)).toBe(true);
        };
        while (!d.t.finished) {
          d.pair();
          check();
          for (const g of d.openGames()) {
            const winner = it.next().value ? 1 : 0;
            d.finish(g, [winner], winner === 0 ? [3, 1] : [1, 3]);
            lost.add(g.game.seats[1 - winner]);
            check();
          }
        }
        const ranking = d.t.ranking!;
        expect(ranking.map((r) => r.participantId).sort()).toEqual(d.t.participants.map((p) => p.id).sort());
        expect(ranking.filter((r) => r.rank === 1)).toHaveLength(1);
        expect(ranking.filter((r) => r.rank === 2)).toHaveLength(1);
        expect(ranking.filter((r) => r.rank === 3)).toHaveLength(1);
        expect(ranking.filter((r) => r.rank === 4)).toHaveLength(n >= 4 ? 1 : 0);
        expect(d.refold().ranking).toEqual(ranking);
      }),
      { numRuns: 60 },
    );
  });
});
