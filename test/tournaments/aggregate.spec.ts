import fc from 'fast-check';
import { eventHash, StreamError } from '../../src/referee/core/stream.js';
import { standingsOf } from '../../src/referee/core/tournament/formats.js';
import { SeededLots } from '../../src/referee/core/tournament/lots.js';
import { format } from '../../src/referee/core/tournament/rational.js';
import { Driver, names, SEED } from './support.js';

/** The tournament aggregate, Given/When/Then through its decider, and its fold as the verifier runs it. */

const backgammon = { kind: 'backgammon', ruleset: { matchLength: 3 } };

/** X11.1's six participants, in registration order. */
function x111(): { d: Driver; ids: Record<string, string> } {
  const d = new Driver({ ...backgammon, format: 'swiss', rounds: 3, name: 'X11.1' });
  const ids: Record<string, string> = {};
  for (const [n, rating] of [
    ['A', 1900],
    ['B', 1850],
    ['C', 1800],
    ['D', 1750],
    ['E', 1700],
    ['F', 1650],
  ] as const)
    ids[n] = d.register(n, rating);
  return { d, ids };
}

const boardsOf = (d: Driver) => d.t.rounds[d.t.rounds.length - 1].boards.map((b) => names(d.t, b.seats).join('-'));

/** Plays the current round: `winner` per board is the seat that wins, with these match scores. */
function play(d: Driver, scores: [number, number][]): void {
  d.openGames().forEach((g, i) => {
    const [a, b] = scores[i];
    d.finish(g, [a > b ? 0 : 1], [a, b]);
  });
}

describe('a Swiss tournament through its decider (X11.1)', () => {
  it('pairs, scores and finishes as the worked example, and the stream refolds with every pairing recomputed', () => {
    const { d, ids } = x111();
    d.pair();
    expect(boardsOf(d)).toEqual(['A-D', 'B-E', 'C-F']);
    play(d, [
      [3, 1],
      [2, 3],
      [3, 0],
    ]);
    d.pair();
    expect(boardsOf(d)).toEqual(['C-A', 'D-E', 'F-B']);
    const [ca, de, fb] = d.openGames();
    d.finish(ca, [0], [3, 1]);
    d.finish(de, [1], [2, 3]);
    // F does not appear: the organizer enters the forfeit, then withdraws F after round 2.
    d.run({
      type: 'RecordResult',
      correction: false,
      result: {
        round: 2,
        board: 3,
        gameId: fb.game.gameId,
        source: 'organizer',
        seats: [
          { participantId: ids.F, kind: 'FORFEIT_LOSS', gamePoints: null },
          { participantId: ids.B, kind: 'FORFEIT_WIN', gamePoints: null },
        ],
        ranking: [],
        head: null,
        record: null,
        reason: 'F did not appear',
      },
    });
    d.run({ type: 'WithdrawParticipant', participantId: ids.F, reason: 'left' });
    d.pair();
    expect(boardsOf(d)).toEqual(['E-C', 'A-B']);
    expect(names(d.t, d.t.rounds[2].byes)).toEqual(['D']);
    const [ec, ab] = d.openGames();
    d.finish(ec, [1], [0, 3]);
    d.finish(ab, [1], [2, 3]);
    expect(d.t.finished).toBe(true);
    expect(
      names(
        d.t,
        d.t.ranking!.map((r) => r.participantId),
      ),
    ).toEqual(['C', 'E', 'B', 'A', 'D', 'F']);
    const rows = standingsOf(d.t, new SeededLots(SEED, d.id)).rows;
    expect(rows.map((r) => format(r.tp))).toEqual(['3', '2', '2', '1', '1', '0']);
    const refolded = d.refold();
    expect(refolded.ranking).toEqual(d.t.ranking);
    expect(refolded.revealedSeed).toBe(SEED);
  });

  it('refuses to pair a round before the last one is finished, and a result twice', () => {
    const { d } = x111();
    d.pair();
    expect(() => d.pair()).toThrow(/^ROUND_NOT_FINISHED/);
    const [g] = d.openGames();
    d.finish(g, [0], [3, 0]);
    expect(() => d.finish(g, [0], [3, 0])).toThrow(/^RESULT_ALREADY_RECORDED/);
  });

  it('refuses a result for a game that is not in the tournament', () => {
    const { d } = x111();
    d.pair();
    const [g] = d.openGames();
    expect(() => d.finish({ ...g, game: { ...g.game, gameId: 'elsewhere' } }, [0], [3, 0])).toThrow(/^NOT_IN_TOURNAMENT/);
  });

  it('catches an edited event at that event', () => {
    const { d } = x111();
    d.pair();
    play(d, [
      [3, 1],
      [2, 3],
      [3, 0],
    ]);
    const edited = d.events.map((e) => ({ ...e }));
    const i = edited.findIndex((e) => e.type === 'ResultRecorded');
    edited[i].payload = { ...edited[i].payload, ranking: [[1], [0]] };
    expect(() => d.refold(edited)).toThrow(StreamError);
    try {
      d.refold(edited);
    } catch (err) {
      expect((err as StreamError).seq).toBe(edited[i].seq);
    }
  });

  it('catches a pairing that is not the one the rules give, even with its hashes recomputed', () => {
    const { d } = x111();
    d.pair();
    const edited = d.events.map((e) => ({ ...e }));
    const i = edited.findIndex((e) => e.type === 'RoundPaired');
    const boards = (edited[i].payload.boards as { seats: string[] }[]).map((b) => ({ ...b }));
    [boards[0].seats, boards[1].seats] = [
      [boards[0].seats[0], boards[1].seats[1]],
      [boards[1].seats[0], boards[0].seats[1]],
    ];
    edited[i].payload = { ...edited[i].payload, boards };
    // Rechain from the edit on, as a forger would.
    for (let k = i; k < edited.length; k++) {
      if (k > i) edited[k].prevHash = edited[k - 1].hash;
      edited[k].hash = eventHash(d.id, edited[k]);
    }
    expect(() => d.refold(edited)).toThrow(/boards and seats are not the ones the pairing rules give/);
  });

  it('gives the same standings whatever the order the results arrive in', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 2 })), { minLength: 3, maxLength: 3 }), fc.infiniteStream(fc.nat()), (outcomes, orders) => {
        const run = (order: number[]) => {
          const { d } = x111();
          d.pair();
          const games = d.openGames();
          for (const i of order) {
            const [seat0Wins, loser] = outcomes[i];
            d.finish(games[i], [seat0Wins ? 0 : 1], seat0Wins ? [3, loser] : [loser, 3]);
          }
          return standingsOf(d.t, new SeededLots(SEED, d.id)).rows.map((r) => [r.participantId, format(r.tp), r.rank]);
        };
        const shuffled = [0, 1, 2].sort((a, b) => (orders.next().value % 3) - 1 || a - b);
        expect(run(shuffled)).toEqual(run([0, 1, 2]));
      }),
      { numRuns: 25 },
    );
  });
});

describe('round-robin, knockout and tables through the decider', () => {
  it('a 5-participant round-robin rests one per round and finishes after 5 rounds', () => {
    const d = new Driver({ kind: 'cerke', format: 'roundRobin' });
    for (const n of ['P1', 'P2', 'P3', 'P4', 'P5']) d.register(n);
    for (let r = 1; r <= 5; r++) {
      d.pair();
      expect(d.t.rounds[r - 1].rest).not.toBeNull();
      for (const g of d.openGames()) d.finish(g, [0], [25, 15]);
    }
    expect(d.t.finished).toBe(true);
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('a 6-participant knockout gives seeds 1 and 2 byes and ends with a champion', () => {
    const d = new Driver({ ...backgammon, format: 'knockout' });
    for (const [n, r] of [
      ['S1', 2000],
      ['S2', 1900],
      ['S3', 1800],
      ['S4', 1700],
      ['S5', 1600],
      ['S6', 1500],
    ] as const)
      d.register(n, r);
    d.pair();
    expect(d.t.rounds[0].boards.map((b) => names(d.t, b.seats).join('-'))).toEqual(['S1', 'S4-S5', 'S2', 'S3-S6']);
    for (const g of d.openGames()) d.finish(g, [0], [3, 1]);
    d.pair();
    for (const g of d.openGames()) d.finish(g, [1], [2, 3]);
    d.pair();
    for (const g of d.openGames()) d.finish(g, [0], [3, 2]);
    expect(d.t.finished).toBe(true);
    expect(d.t.ranking![0].rank).toBe(1);
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('a drawn Cerke knockout match is replayed with seats swapped, then settled by lots recorded in the stream', () => {
    const d = new Driver({ kind: 'cerke', format: 'knockout' });
    d.register('A', 2);
    d.register('B', 1);
    d.pair();
    const [first] = d.openGames();
    d.finish(first, [0, 1], [20, 20]);
    const [replay] = d.openGames();
    expect(names(d.t, replay.game.seats)).toEqual(['B', 'A']);
    d.finish(replay, [0, 1], [20, 20]);
    expect(d.t.finished).toBe(true);
    expect(d.events.some((e) => e.type === 'LotsDrawn' && e.payload.label === 'ko-tie|KO|r1|m1')).toBe(true);
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });

  it('a 9-participant Chicken Foot table tournament seats 3 tables of 3 and scores placements', () => {
    const d = new Driver({ kind: 'chicken-foot', ruleset: { players: 4 }, format: 'tables', rounds: 2 });
    for (let i = 1; i <= 9; i++) d.register(`P${i}`, 2010 - 10 * i);
    d.pair();
    expect(d.t.rounds[0].boards.map((b) => names(d.t, b.seats).join(','))).toEqual(['P1,P2,P3', 'P4,P5,P6', 'P7,P8,P9']);
    for (const g of d.openGames()) d.finish(g, [2], [25, 40, 10]);
    d.pair();
    for (const g of d.openGames()) d.finish(g, [0], [5, 30, 30]);
    expect(d.t.finished).toBe(true);
    expect(d.refold().ranking).toEqual(d.t.ranking);
  });
});

describe("the organizer's settings, entries and withdrawals", () => {
  const settings = (over: Record<string, unknown>) => ({
    round: 1,
    manualPairings: [],
    manualBye: null,
    manualTables: [],
    absent: [],
    requestedByes: [],
    forbiddenPairs: [],
    seeds: null,
    ...over,
  });

  it('honours manual pairings, forbidden pairs and absences, and records them for the verifier', () => {
    const { d, ids } = x111();
    d.run({ type: 'SetRoundSettings', settings: settings({ manualPairings: [{ a: ids.A, b: ids.B, seats: [ids.B, ids.A] }], forbiddenPairs: [[ids.C, ids.D]], absent: [ids.F] }) });
    d.pair();
    // The pool C, D, E is odd: E, the lowest, would take the bye, but C-D is forbidden, so D does (S5.9).
    expect(boardsOf(d)).toEqual(['B-A', 'C-E']);
    expect(names(d.t, d.t.rounds[0].byes)).toEqual(['D']);
    expect(d.t.rounds[0].boards[0].manual).toBe(true);
    expect(names(d.t, d.t.rounds[0].absent)).toEqual(['F']);
    expect(d.refold().rounds[0].boards.map((b) => b.seats)).toEqual(d.t.rounds[0].boards.map((b) => b.seats));
  });

  it('refuses settings naming a stranger, and a second requested bye beyond the limit', () => {
    const { d, ids } = x111();
    expect(() => d.run({ type: 'SetRoundSettings', settings: settings({ absent: ['p-nobody'] }) })).toThrow(/^NOT_IN_TOURNAMENT/);
    d.run({ type: 'SetRoundSettings', settings: settings({ requestedByes: [ids.A] }) });
    d.pair();
    play(d, [
      [3, 1],
      [3, 1],
    ]);
    expect(() => d.run({ type: 'SetRoundSettings', settings: settings({ round: 2, requestedByes: [ids.A] }) })).toThrow(/^BYE_LIMIT/);
  });

  it('takes a late entry into a Swiss with its late-entry points, and refuses one into a round-robin', () => {
    const { d } = x111();
    d.pair();
    play(d, [
      [3, 1],
      [2, 3],
      [3, 0],
    ]);
    const late = d.register('G', 1500);
    expect(d.t.participants.find((p) => p.id === late)?.entryRound).toBe(2);
    d.pair();
    expect(d.t.rounds[1].boards.flatMap((b) => b.seats).concat(d.t.rounds[1].byes)).toContain(late);
    const rr = new Driver({ kind: 'cerke', format: 'roundRobin' });
    for (const n of ['A', 'B']) rr.register(n);
    rr.pair();
    expect(() => rr.register('Late')).toThrow(/^REGISTRATION_CLOSED/);
  });

  it('lets participants register and withdraw themselves only when the organizer allows it', () => {
    const closed = new Driver({ ...backgammon, format: 'swiss', rounds: 1 });
    expect(() => closed.run({ type: 'RegisterParticipant', participantId: 'p-x', name: 'X', rating: 0 }, { role: 'participant', participantId: '' })).toThrow(/^FORBIDDEN/);
    const open = new Driver({ ...backgammon, format: 'swiss', rounds: 1, openRegistration: true, selfWithdrawal: true });
    open.run({ type: 'RegisterParticipant', participantId: 'p-x', name: 'X', rating: 0 }, { role: 'participant', participantId: '' });
    open.register('Y');
    expect(() => open.run({ type: 'WithdrawParticipant', participantId: 'p-Y', reason: null }, { role: 'participant', participantId: 'p-x' })).toThrow(/^FORBIDDEN/);
    open.run({ type: 'WithdrawParticipant', participantId: 'p-x', reason: null }, { role: 'participant', participantId: 'p-x' });
    expect(open.t.participants[0].withdrawnAfterRound).toBe(0);
  });

  it('lets only the organizer finish a tournament, even once its round is complete', () => {
    const { d, ids } = x111();
    d.pair();
    play(d, [
      [3, 1],
      [2, 3],
      [3, 0],
    ]);
    const before = d.t.version;
    expect(() => d.run({ type: 'FinishTournament' }, { role: 'participant', participantId: ids.A })).toThrow(/^FORBIDDEN/);
    expect(d.t).toMatchObject({ version: before, finished: false, revealedSeed: null });
    d.run({ type: 'FinishTournament' });
    expect(d.t.finished).toBe(true);
  });

  it('makes a withdrawn round-robin participant forfeit its remaining games without a game (RR4.6)', () => {
    const rr = new Driver({ kind: 'cerke', format: 'roundRobin' });
    for (const n of ['A', 'B', 'C', 'D']) rr.register(n);
    rr.pair();
    for (const g of rr.openGames()) rr.finish(g, [0], [25, 15]);
    rr.run({ type: 'WithdrawParticipant', participantId: 'p-D', reason: 'ill' });
    rr.pair();
    const walkover = rr.t.rounds[1].boards.find((b) => b.seats.includes('p-D'))!;
    expect(walkover).toMatchObject({ walkover: 'p-D', games: [] });
    expect(rr.refold().rounds[1].boards).toHaveLength(2);
  });
});
