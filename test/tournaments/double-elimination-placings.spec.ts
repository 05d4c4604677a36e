import fc from 'fast-check';
import {
  bracketSize,
  type DecidedMatch,
  doubleEliminationPlacings,
  firstRound,
  grandFinal,
  type KnockoutMatch,
  losersRound,
  losersRoundCount,
  matchLosers,
  nextRound,
  openGrandFinal,
  openMatch,
  secondGrandFinalNeeded,
  winnersRoundFeeding,
} from '../../src/referee/core/tournament/knockout.js';

/**
 * K6.10 placings at every moment of a double-elimination event (docs/rules/tournaments.md): "A
 * participant is out after its second lost match", and, as K6.9 says for a single knockout, only
 * who is out is placed. So a match still played places nobody, and nobody is champion while a
 * bracket reset is still to play.
 */

type Match = Omit<DecidedMatch, 'winner'> & { winner?: DecidedMatch['winner'] };

/** Every match of a bracket played out, each with who lost it (0, 1 or 2 participants). */
function playOut(n: number, pick: () => number, bracketReset: boolean) {
  const seeds = Array.from({ length: n }, (_, i) => `s${i + 1}`);
  const order: { match: DecidedMatch; out: string[] }[] = [];
  const play = (matches: KnockoutMatch[], grand = false): DecidedMatch[] =>
    matches.map((m) => {
      const opening = grand ? openGrandFinal(m) : openMatch(m, seeds);
      const winner = opening.kind === 'GAMES' ? (pick() === 0 ? m.slots[0] : m.slots[1]) : opening.kind === 'KO_BYE' ? opening.winner : null;
      const decided = { ...m, winner };
      order.push({ match: decided, out: m.slots.filter((s): s is string => s !== null && s !== winner) });
      return decided;
    });
  const size = bracketSize(n);
  const wb: DecidedMatch[][] = [play(firstRound(seeds))];
  while (wb[wb.length - 1].length > 1) wb.push(play(nextRound(wb[wb.length - 1].map((m) => m.winner))));
  const lb: DecidedMatch[][] = [];
  for (let j = 1; j <= losersRoundCount(size); j++) {
    const feeding = winnersRoundFeeding(j);
    lb.push(play(losersRound(j, j === 1 ? [] : lb[j - 2].map((m) => m.winner), feeding === null ? [] : matchLosers(wb[feeding - 1]))));
  }
  const lbChampion = size === 2 ? matchLosers(wb[0])[0] : lb[lb.length - 1][0].winner;
  const gf = play([grandFinal(wb[wb.length - 1][0].winner, lbChampion)], true);
  if (secondGrandFinalNeeded(gf[0], bracketReset)) gf.push(...play([grandFinal(gf[0].slots[0], gf[0].slots[1])], true));
  return { seeds, size, wb, lb, gf, order };
}

/** The bracket as it stands after the first `played` matches of `order`: the others are still played. */
const upTo = (rounds: readonly (readonly DecidedMatch[])[], decided: ReadonlySet<DecidedMatch>): Match[][] =>
  rounds.map((r) => r.map((m) => (decided.has(m) ? m : { match: m.match, slots: m.slots })));

describe('K6.10 double-elimination placings: only who is out', () => {
  it('a first grand final the LB champion won places nobody while the reset is to play', () => {
    const wb = [[{ match: 1, slots: ['a', 'b'], winner: 'a' }]] as DecidedMatch[][];
    const gf1: DecidedMatch = { match: 1, slots: ['a', 'b'], winner: 'b' };
    expect(doubleEliminationPlacings(2, wb, [], [gf1], true)).toEqual([]);
    expect(doubleEliminationPlacings(2, wb, [], [gf1, { match: 1, slots: ['a', 'b'] } as DecidedMatch], true)).toEqual([]);
    // Without a reset the first grand final decides.
    expect(doubleEliminationPlacings(2, wb, [], [gf1], false)).toEqual([
      { participantId: 'b', place: 1 },
      { participantId: 'a', place: 2 },
    ]);
  });

  it('an LB match still played places neither side', () => {
    const lb = [[{ match: 1, slots: ['c', 'd'] }], [{ match: 1, slots: ['e', 'f'], winner: 'e' }]] as DecidedMatch[][];
    expect(doubleEliminationPlacings(4, [], lb, [])).toEqual([{ participantId: 'f', place: 3 }]);
  });

  it('N = 2..32, at every moment: placed exactly those with two lost matches, one champion at the end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 32 }), fc.infiniteStream(fc.integer({ min: 0, max: 1 })), fc.boolean(), (n, results, reset) => {
        const it = results[Symbol.iterator]();
        const { seeds, size, wb, lb, gf, order } = playOut(n, () => it.next().value as number, reset);
        const losses = new Map<string, number>();
        const decided = new Set<DecidedMatch>();
        for (const [i, step] of order.entries()) {
          decided.add(step.match);
          for (const id of step.out) losses.set(id, (losses.get(id) ?? 0) + 1);
          const placings = doubleEliminationPlacings(size, upTo(wb, decided) as DecidedMatch[][], upTo(lb, decided) as DecidedMatch[][], upTo([gf], decided)[0] as DecidedMatch[], reset);
          const last = i === order.length - 1;
          const out = [...losses].filter(([, l]) => l >= 2 || (last && l === 1 && !reset)).map(([id]) => id);
          const champions = placings.filter((p) => p.place === 1);
          // No one is placed twice; whoever is placed is out (or the champion, once it is all over).
          expect(new Set(placings.map((p) => p.participantId)).size).toBe(placings.length);
          if (!last) expect(champions).toEqual([]);
          for (const p of placings) if (p.place !== 1) expect(out.includes(p.participantId) || (last && losses.get(p.participantId) === 1)).toBe(true);
          for (const id of out) expect(placings.some((p) => p.participantId === id)).toBe(true);
        }
        const final = doubleEliminationPlacings(size, wb, lb, gf, reset);
        expect(final.filter((p) => p.place === 1)).toHaveLength(1);
        expect(final.map((p) => p.participantId).sort()).toEqual([...seeds].sort());
      }),
      { numRuns: 150 },
    );
  });
});
