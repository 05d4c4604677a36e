import fc from 'fast-check';
import { placingsOf } from '../../src/referee/core/tournament/formats.js';
import { Driver } from './support.js';

/**
 * Double elimination run as a tournament (K6.10 in docs/rules/tournaments.md), read from its text:
 * "A participant is out after its second lost match"; the grand final sets the WB champion against
 * the LB champion, and "if the LB champion wins it and `bracketReset` is on (the default), a second
 * grand final decides"; "1st the champion, 2nd the loser of the grand final, 3rd the loser of the
 * LB final ... with S = 8: LB4 3, LB3 4, LB2 5-6, LB1 7-8". Every round is recomputed by the refold
 * (the verifier's fold), so what is published is what the rules give.
 */

const backgammon = { kind: 'backgammon', ruleset: { matchLength: 3 } };

function event(n: number, extra: Record<string, unknown> = {}): Driver {
  const d = new Driver({ ...backgammon, format: 'doubleElimination', ...extra });
  for (let i = 1; i <= n; i++) d.register(`P${i}`, 3000 - i);
  return d;
}

/** Plays the event to its end; `pick(seats)` says which seat wins each game. Answers who lost how often. */
function playOut(d: Driver, pick: (seats: string[]) => number, each?: (losses: Map<string, number>) => void): Map<string, number> {
  const losses = new Map<string, number>(d.t.participants.map((p) => [p.id, 0]));
  let rounds = 0;
  while (!d.t.finished) {
    d.pair();
    if (++rounds > 20) throw new Error('the event does not end');
    for (;;) {
      const open = d.openGames();
      if (open.length === 0) break;
      for (const g of open) {
        const before = new Map(d.t.rounds[g.round - 1].boards.map((b) => [b.board, b.winner]));
        const w = pick(g.game.seats);
        d.finish(g, [w], w === 0 ? [3, 1] : [1, 3]);
        const board = d.t.rounds[g.round - 1].boards.find((b) => b.board === g.board)!;
        if (before.get(g.board) === undefined && typeof board.winner === 'string') for (const s of board.seats) if (s !== board.winner) losses.set(s, losses.get(s)! + 1);
        each?.(losses);
      }
    }
  }
  return losses;
}

const ranks = (d: Driver) => Object.fromEntries(d.t.ranking!.map((r) => [r.participantId.slice(2), r.rank]));

describe('K6.10 double elimination as a tournament', () => {
  it('8 participants, the LB champion wins the first grand final: the bracket reset is played, and placings are K6.10 for S = 8', () => {
    const d = event(8);
    // The better seed wins every match but the grand finals: P1 wins the WB, P2 comes back through
    // the LB and beats P1 twice.
    const losses = playOut(d, (seats) => (d.t.rounds.length >= 6 && seats.includes('p-P2') ? seats.indexOf('p-P2') : 0));
    expect(d.t.rounds).toHaveLength(7);
    expect(d.t.rounds[5].boards.map((b) => b.seats)).toEqual([['p-P1', 'p-P2']]);
    expect(d.t.rounds[6].boards.map((b) => b.seats)).toEqual([['p-P1', 'p-P2']]);
    expect(losses.get('p-P2')).toBe(1);
    expect(ranks(d)).toEqual({ P2: 1, P1: 2, P3: 3, P4: 4, P5: 5, P6: 5, P7: 7, P8: 7 });
    expect(d.refold().ranking).toEqual(d.t.ranking);
    expect(d.t.config).toMatchObject({ format: 'doubleElimination', bracketReset: true });
  });

  it('8 participants, the WB champion wins the first grand final: no reset, the event ends with round 6', () => {
    const d = event(8);
    playOut(d, () => 0);
    expect(d.t.rounds).toHaveLength(6);
    expect(ranks(d)).toMatchObject({ P1: 1, P2: 2, P3: 3 });
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('bracketReset false: one grand final decides even when the LB champion wins it', () => {
    const d = event(4, { bracketReset: false });
    playOut(d, () => (d.t.rounds.length === 4 ? 1 : 0));
    expect(d.t.rounds).toHaveLength(4);
    expect(ranks(d)).toMatchObject({ P2: 1, P1: 2 });
  });

  it('bracketReset is refused outside double elimination, and tie-breaks are none', () => {
    expect(() => new Driver({ ...backgammon, format: 'knockout', bracketReset: true })).toThrow(/bracketReset/);
    expect(new Driver({ ...backgammon, format: 'doubleElimination' }).t.config.tieBreaks).toEqual([]);
  });

  it('a tied match of two games is replayed, its lot labelled with its bracket (K6.7, K6.10)', () => {
    const d = event(4, { gamesPerMatch: 2, koTieRule: ['LOTS'] });
    // Each side wins one game of every match: every match goes to lots.
    playOut(d, () => 0);
    const labels = d.t.lots.map((l) => l.label).filter((l) => l.startsWith('ko-tie'));
    expect(labels).toEqual(expect.arrayContaining(['ko-tie|WB|r1|m1', 'ko-tie|WB|r1|m2', 'ko-tie|LB|r1|m1', 'ko-tie|GF|r1|m1']));
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('N = 2..16, random winners and games per match: out after two lost matches, placed only once out, one champion, and the refold agrees', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 16 }), fc.infiniteStream(fc.integer({ min: 0, max: 1 })), fc.boolean(), fc.integer({ min: 1, max: 2 }), (n, results, reset, games) => {
        const d = event(n, { bracketReset: reset, gamesPerMatch: games });
        const it = results[Symbol.iterator]();
        const losses = playOut(
          d,
          () => it.next().value as number,
          (lost) => {
            const placings = placingsOf(d.t);
            expect(new Set(placings.map((p) => p.participantId)).size).toBe(placings.length);
            for (const p of placings) if (!d.t.finished) expect(lost.get(p.participantId)).toBe(2);
            // Nobody out plays again.
            const round = d.t.rounds[d.t.rounds.length - 1];
            for (const b of round.boards) if (b.winner === undefined) for (const s of b.seats) expect(lost.get(s)).toBeLessThan(2);
          },
        );
        const ranking = d.t.ranking!;
        expect(ranking.map((r) => r.participantId).sort()).toEqual(d.t.participants.map((p) => p.id).sort());
        const champion = ranking.filter((r) => r.rank === 1);
        expect(champion).toHaveLength(1);
        expect(losses.get(champion[0].participantId)).toBeLessThanOrEqual(reset ? 1 : 2);
        for (const r of ranking) if (r.rank > 2) expect(losses.get(r.participantId)).toBe(2);
        expect(d.refold().ranking).toEqual(ranking);
      }),
      { numRuns: 80 },
    );
  });
});
