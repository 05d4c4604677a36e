import fc from 'fast-check';
import type { GameResultPayload, ScheduledGame, SeatResultKind } from '../../src/referee/core/tournament/events.js';
import { placingsOf, standingsOf } from '../../src/referee/core/tournament/formats.js';
import { historyOf } from '../../src/referee/core/tournament/history.js';
import { SeededLots } from '../../src/referee/core/tournament/lots.js';
import { format } from '../../src/referee/core/tournament/rational.js';
import { Driver, SEED } from './support.js';

/**
 * Withdrawals, read from the rules' text (docs/rules/tournaments.md):
 * - P2.3: "It is not paired from round `w + 1` on, and each of those rounds is recorded for it as
 *   `ABSENT`, 0 TP. The results it already has stand."
 * - P2.4: "A game of the current round that the withdrawn participant has not yet played is
 *   recorded as its forfeit loss (R3.2); in a knockout, its opponent goes through."
 * - P2.5 `forfeitRest`: "every game the participant still had scheduled becomes a forfeit win for
 *   its opponent".
 * - K6.8: "A withdrawn participant forfeits every match it has left." K6.5: "Two empty slots
 *   produce an empty winner."
 */

const backgammon = { kind: 'backgammon', ruleset: { matchLength: 3 } };
type Scheduled = { round: number; board: number; game: ScheduledGame };

/** The organizer's result with no game points: a forfeit or a double forfeit (R3.2). */
function organizerResult(d: Driver, g: Scheduled, kinds: [SeatResultKind, SeatResultKind]): void {
  const result: GameResultPayload = {
    round: g.round,
    board: g.board,
    gameId: g.game.gameId,
    source: 'organizer',
    seats: g.game.seats.map((participantId, i) => ({ participantId, kind: kinds[i], gamePoints: null })),
    ranking: [],
    head: null,
    record: null,
    reason: 'nobody came',
  };
  d.run({ type: 'RecordResult', result, correction: false });
}

const withdraw = (d: Driver, participantId: string) => d.run({ type: 'WithdrawParticipant', participantId, reason: 'ill' });

/** A knockout of `n` (P1 is seed 1) with `gamesPerMatch` games a match. */
function knockout(n: number, gamesPerMatch = 1): Driver {
  const d = new Driver({ ...backgammon, format: 'knockout', gamesPerMatch });
  for (let i = 1; i <= n; i++) d.register(`P${i}`, 3000 - i);
  return d;
}

const winnersOf = (d: Driver, round: number) => d.t.rounds[round - 1].boards.map((b) => b.winner);

describe('K6.8 with K6.5: a withdrawn participant facing an empty slot', () => {
  it('does not go through: nobody advances from that board, and nobody wins the event', () => {
    const d = knockout(4);
    d.pair();
    // Round 1: P1 v P4 and P2 v P3. P1 wins; P2 v P3 is a double forfeit, so the final has an empty slot.
    const [first, second] = d.openGames();
    d.finish(first, [0], [3, 1]);
    organizerResult(d, second, ['DOUBLE_FORFEIT', 'DOUBLE_FORFEIT']);
    withdraw(d, 'p-P1');
    d.pair();
    expect(winnersOf(d, 2)).toEqual([null]);
    expect(d.t.finished).toBe(true);
    expect(d.t.ranking!.filter((r) => r.rank === 1)).toEqual([]);
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('two withdrawn participants meeting: both forfeit, nobody goes through', () => {
    const d = knockout(4);
    d.pair();
    for (const g of d.openGames()) d.finish(g, [0], [3, 1]);
    withdraw(d, 'p-P1');
    withdraw(d, 'p-P2');
    d.pair();
    expect(winnersOf(d, 2)).toEqual([null]);
    expect(placingsOf(d.t).find((p) => p.place === 1)).toBeUndefined();
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });
});

describe('P2.4 and K6.8 in matches of several games', () => {
  it.each([1, 2, 3])('a knockout of 2, 3 games a match, %d of them unplayed at the withdrawal: every one is its forfeit loss and its opponent is champion', (unplayed) => {
    const d = knockout(2, 3);
    d.pair();
    for (let i = 0; i < 3 - unplayed; i++) d.finish(d.openGames()[0], [1], [1, 3]);
    const open = d.openGames();
    withdraw(d, 'p-P2');
    const board = d.t.rounds[0].boards[0];
    for (const g of open) expect(board.results[g.game.gameId].seats.find((s) => s.participantId === 'p-P2')?.kind).toBe('FORFEIT_LOSS');
    expect(board.winner).toBe('p-P1');
    expect(d.t.participants.find((p) => p.id === 'p-P2')?.withdrawnAfterRound).toBe(1);
    expect(d.t.finished).toBe(true);
    expect(d.t.ranking).toEqual([
      { participantId: 'p-P1', rank: 1 },
      { participantId: 'p-P2', rank: 2 },
    ]);
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('a knockout of 4, 2 games a match, round 1 under way: the withdrawal forfeits both games and its opponent is paired in round 2', () => {
    const d = knockout(4, 2);
    d.pair();
    withdraw(d, 'p-P4');
    expect(d.t.rounds[0].boards[0].winner).toBe('p-P1');
    // P2 v P3: seat 0 wins each game, 1-1, and the replay (K6.7) decides.
    for (let open = d.openGames(); open.length > 0; open = d.openGames()) d.finish(open[0], [0], [3, 1]);
    d.pair();
    expect(d.t.rounds[1].boards[0].seats).toContain('p-P1');
    expect(d.refold().rounds[1].boards[0].seats).toEqual(d.t.rounds[1].boards[0].seats);
  });

  it('N = 2..12, 1 to 3 games a match, random results, double forfeits and withdrawals: every withdrawal is taken, its games forfeited, and the withdrawn never go through', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 3 }), fc.infiniteStream(fc.nat(9)), (n, gamesPerMatch, choices) => {
        const d = knockout(n, gamesPerMatch);
        const it = choices[Symbol.iterator]();
        const next = () => it.next().value as number;
        const active = () => d.t.participants.filter((p) => p.withdrawnAfterRound === null).map((p) => p.id);
        while (!d.t.finished) {
          // Between rounds: someone may withdraw.
          if (d.t.rounds.length > 0 && active().length > 0 && next() === 0) withdraw(d, active()[next() % active().length]);
          d.pair();
          for (let open = d.openGames(); !d.t.finished && open.length > 0; open = d.openGames()) {
            const g = open[0];
            const choice = next();
            if (choice === 0) organizerResult(d, g, ['DOUBLE_FORFEIT', 'DOUBLE_FORFEIT']);
            else if (choice <= 2) {
              const leaving = g.game.seats[choice - 1];
              const board = d.t.rounds[g.round - 1].boards.find((b) => b.board === g.board)!;
              const unplayed = board.games.filter((x) => !board.results[x.gameId]);
              const undecided = board.winner === undefined;
              withdraw(d, leaving);
              const after = d.t.rounds[g.round - 1].boards.find((b) => b.board === g.board)!;
              // P2.4: each game it had not played is its forfeit loss, and its opponent goes through
              // (a match a double forfeit decided stays decided: its later games count for nothing).
              for (const x of unplayed) expect(after.results[x.gameId].seats.find((s) => s.participantId === leaving)?.kind).toBe('FORFEIT_LOSS');
              if (undecided) expect(after.winner).toBe(g.game.seats.find((s) => s !== leaving));
            } else d.finish(g, [choice % 2], choice % 2 === 0 ? [3, 1] : [1, 3]);
          }
        }
        // K6.8: nobody wins a match of a round after the one it withdrew in, nor plays in one.
        for (const round of d.t.rounds)
          for (const board of round.boards) {
            const withdrawnBefore = (id: string) => (d.t.participants.find((p) => p.id === id)?.withdrawnAfterRound ?? Number.POSITIVE_INFINITY) < round.round;
            if (typeof board.winner === 'string') expect(withdrawnBefore(board.winner)).toBe(false);
            for (const g of board.games) expect(g.seats.filter(withdrawnBefore)).toEqual([]);
          }
        expect(d.refold().ranking).toEqual(d.t.ranking);
      }),
      { numRuns: 150 },
    );
  });
});

describe('P2.3 and P2.5: a round-robin participant who withdrew', () => {
  /** W = 2, D = 1 and a loss worth L > 0, so that ABSENT (0) and FORFEIT_LOSS (L) differ. */
  const roundRobin = (n: number, loss: string, double = false) => {
    const d = new Driver({ kind: 'cerke', format: double ? 'doubleRoundRobin' : 'roundRobin', points: { win: '2', draw: '1', loss } });
    for (let i = 1; i <= n; i++) d.register(`P${i}`, 3000 - i);
    return d;
  };

  it('4 participants, L = 1/2, P4 withdraws after round 1: rounds 2 and 3 are ABSENT with 0 TP for it, forfeit wins worth W for its opponents', () => {
    const d = roundRobin(4, '1/2');
    d.pair();
    // Every game of round 1 is lost by seat 1 (L = 1/2 each).
    for (const g of d.openGames()) d.finish(g, [0], [25, 15]);
    withdraw(d, 'p-P4');
    const round1 = historyOf(d.t, 1).get('p-P4')![0];
    for (let r = 2; r <= 3; r++) {
      d.pair();
      for (const g of d.openGames()) d.finish(g, [0], [25, 15]);
    }
    expect(d.t.finished).toBe(true);
    const history = historyOf(d.t, 3);
    expect(history.get('p-P4')!.map((e) => [e.kind, format(e.tp)])).toEqual([
      [round1.kind, format(round1.tp)],
      ['ABSENT', '0'],
      ['ABSENT', '0'],
    ]);
    const opponents = d.t.rounds.slice(1).map((r) => r.boards.find((b) => b.seats.includes('p-P4'))!.seats.find((s) => s !== 'p-P4')!);
    for (const [i, o] of opponents.entries()) expect([history.get(o)![i + 1].kind, format(history.get(o)![i + 1].tp)]).toEqual(['FORFEIT_WIN', '2']);
    const row = standingsOf(d.t, new SeededLots(SEED, d.id)).rows.find((r) => r.participantId === 'p-P4')!;
    expect(format(row.tp)).toBe(format(round1.tp));
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('N = 2..8, single or double, L = 0, 1/2 or 1, withdrawn after any round: each later round ABSENT with 0 TP (its rest stays REST), the results before it stand', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), fc.boolean(), fc.constantFrom('0', '1/2', '1'), fc.nat(), fc.infiniteStream(fc.nat(2)), (n, double, loss, pick, results) => {
        const d = roundRobin(n, loss, double);
        const it = results[Symbol.iterator]();
        d.pair();
        const rounds = d.t.totalRounds!;
        const w = pick % rounds;
        const leaving = d.t.participants[pick % n].id;
        for (let r = 1; r <= rounds; r++) {
          if (r > 1) d.pair();
          for (const g of d.openGames()) {
            const x = it.next().value as number;
            d.finish(g, x === 2 ? [0, 1] : [x], x === 2 ? [20, 20] : x === 0 ? [25, 15] : [15, 25]);
          }
          if (r === w) withdraw(d, leaving);
        }
        if (w === 0) return;
        const before = historyOf(d.t, w).get(leaving)!;
        const entries = historyOf(d.t, rounds).get(leaving)!;
        expect(entries.slice(0, w)).toEqual(before);
        // RR4.4: the round the schedule rests it in stays REST (P2.3, In Arbiter): 0 TP too.
        for (const e of entries.slice(w)) expect([e.kind, format(e.tp)]).toEqual([d.t.rounds[e.round - 1].rest === leaving ? 'REST' : 'ABSENT', '0']);
        for (const round of d.t.rounds.slice(w)) {
          const board = round.boards.find((b) => b.seats.includes(leaving));
          if (!board) continue;
          const opponent = board.seats.find((s) => s !== leaving)!;
          const e = historyOf(d.t, round.round).get(opponent)![round.round - 1];
          expect([e.kind, format(e.tp), e.opponents]).toEqual(['FORFEIT_WIN', '2', [leaving]]);
        }
        expect(d.refold().ranking).toEqual(d.t.ranking);
      }),
      { numRuns: 100 },
    );
  });
});
