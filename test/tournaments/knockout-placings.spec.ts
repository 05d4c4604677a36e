import fc from 'fast-check';
import { placingsOf } from '../../src/referee/core/tournament/formats.js';
import { Driver } from './support.js';

/**
 * K6.9, read from its text (docs/rules/tournaments.md): "With `k = log2(S)` rounds, the champion is
 * first and the losers of round `t` share place `2^(k - t) + 1`". K6.2: "`S` is the smallest power
 * of two that is at least N". So only who has lost a match is placed, by the round it lost in,
 * and the champion only once the final is decided: at every moment of the event, and in the
 * ranking of an event the organizer finished early (`finishTournament`, *In Arbiter* at K6.9).
 */

const backgammon = { kind: 'backgammon', ruleset: { matchLength: 3 } };

/** K6.2, computed here from its words: log2 of the smallest power of two >= n. */
function roundsFor(n: number): number {
  let k = 0;
  while (2 ** k < n) k++;
  return k;
}

/** A knockout of `n`, rated so that P1 is seed 1. */
function knockout(n: number): Driver {
  const d = new Driver({ ...backgammon, format: 'knockout' });
  for (let i = 1; i <= n; i++) d.register(`P${i}`, 3000 - i);
  return d;
}

const byPlace = (placings: { participantId: string; place: number }[]) => [...placings].sort((a, b) => a.place - b.place || a.participantId.localeCompare(b.participantId));

/** What K6.9 says from who lost in which round, and the champion if any. */
function expected(k: number, lostIn: ReadonlyMap<string, number>, champion: string | null) {
  const placings = [...lostIn].map(([participantId, t]) => ({ participantId, place: 2 ** (k - t) + 1 }));
  return byPlace(champion ? [...placings, { participantId: champion, place: 1 }] : placings);
}

describe('K6.9 knockout placings: only who has lost, with k = log2(S)', () => {
  it('a knockout of 4 with round 1 paired and no game played places nobody', () => {
    const d = knockout(4);
    d.pair();
    expect(placingsOf(d.t)).toEqual([]);
  });

  it('a knockout of 8 finished after round 1: the four round-1 losers share 5th (2^(3-1) + 1), nobody is champion', () => {
    const d = knockout(8);
    d.pair();
    // Seat 1 (the worse seed) wins every match: P5-P8 go through, P1-P4 are out in round 1 of 3.
    for (const g of d.openGames()) d.finish(g, [1], [1, 3]);
    d.run({ type: 'FinishTournament' });
    expect(byPlace(d.t.ranking!.map((r) => ({ participantId: r.participantId, place: r.rank })))).toEqual(expected(3, new Map(['P1', 'P2', 'P3', 'P4'].map((n) => [`p-${n}`, 1])), null));
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('N = 2..16, random winners: right at every moment, and in the ranking of an event finished early or played out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 16 }), fc.infiniteStream(fc.boolean()), fc.integer({ min: 1, max: 4 }), (n, upsets, stopAfter) => {
        const d = knockout(n);
        const k = roundsFor(n);
        const lostIn = new Map<string, number>();
        let champion: string | null = null;
        const check = () => expect(byPlace(placingsOf(d.t))).toEqual(expected(k, lostIn, champion));
        check();
        const it = upsets[Symbol.iterator]();
        for (let round = 1; round <= k; round++) {
          d.pair();
          check();
          for (const g of d.openGames()) {
            // Backgammon has no draw, and one game a match: the game's loser is out in this round.
            const winner = it.next().value ? 1 : 0;
            d.finish(g, [winner], winner === 0 ? [3, 1] : [1, 3]);
            lostIn.set(g.game.seats[1 - winner], round);
            if (round === k) champion = g.game.seats[winner];
            check();
          }
          if (round === stopAfter && round < k) {
            d.run({ type: 'FinishTournament' });
            break;
          }
        }
        expect(d.t.finished).toBe(true);
        check();
        expect(byPlace(d.t.ranking!.map((r) => ({ participantId: r.participantId, place: r.rank })))).toEqual(expected(k, lostIn, champion));
        expect(d.refold().ranking).toEqual(d.t.ranking);
      }),
      { numRuns: 60 },
    );
  });
});
