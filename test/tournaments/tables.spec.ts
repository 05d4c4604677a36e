import fc from 'fast-check';
import { ok, type Result } from '../../src/engines/kit/index.js';
import { add, format, type Rational, rat, sum, ZERO } from '../../src/referee/core/tournament/rational.js';
import {
  parsePlacementTables,
  placementTable,
  type ScoredSeat,
  type SeatedRound,
  type SeatOutcome,
  scoreTable,
  seatTables,
  type TableSeating,
  type TablesInput,
  tableByePoints,
  tableByes,
  tableSizes,
} from '../../src/referee/core/tournament/tables.js';
import type { History, Participant, RoundEntry } from '../../src/referee/core/tournament/types.js';

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

const participant = (i: number, rating = 2010 - 10 * i, extra: Partial<Participant> = {}): Participant => ({
  id: `P${i}`,
  registrationNo: i,
  rating,
  entryRound: 1,
  withdrawnAfterRound: null,
  ...extra,
});

const pab = (round: number, tp: Rational): RoundEntry => ({ round, kind: 'PAB', tp, opponents: [], seat: null, result: null, gamePoints: null, firstPlace: false });

/** Appends one round's entries to a mutable history. */
function record(history: Map<string, RoundEntry[]>, entries: readonly ScoredSeat[]): void {
  for (const { id, entry } of entries) history.set(id, [...(history.get(id) ?? []), entry]);
}

const pointsOf = (history: History): Map<string, Rational> => new Map([...history].map(([id, entries]) => [id, sum(entries.map((e) => e.tp))]));

const seatsOf = (round: SeatedRound): string[][] => round.tables.map((t) => t.seats);

/** TA7.5 `met` per ordered pair, from the test's own reading of the history. */
function metCounts(history: History): Map<string, number> {
  const met = new Map<string, number>();
  for (const [id, entries] of history) for (const e of entries) if (e.kind === 'PLAYED') for (const o of e.opponents) met.set(`${id}|${o}`, (met.get(`${id}|${o}`) ?? 0) + 1);
  return met;
}

/** Repeated meetings: `met` summed over every pair of table-mates (0 exactly when no one meets a former table-mate). */
const repeatsAt = (tables: readonly (readonly string[])[], met: Map<string, number>): number =>
  tables.reduce((n, t) => n + t.reduce((k, a, i) => k + t.slice(i + 1).reduce((m, b) => m + (met.get(`${a}|${b}`) ?? 0), 0), 0), 0);

describe('TA7.3 table sizes', () => {
  it('9, 10 and 11 at T = 4 give 3 3 3, 4 3 3 and 4 4 3', () => {
    expect(tableSizes(9, 4)).toEqual([3, 3, 3]);
    expect(tableSizes(10, 4)).toEqual([4, 3, 3]);
    expect(tableSizes(11, 4)).toEqual([4, 4, 3]);
  });

  it('fills whole tables and seats nobody when the pool is empty', () => {
    expect(tableSizes(8, 4)).toEqual([4, 4]);
    expect(tableSizes(5, 8)).toEqual([5]);
    expect(tableSizes(0, 4)).toEqual([]);
  });
});

describe('TA7.4 table byes', () => {
  const ranked = ['A', 'B', 'C', 'D', 'E'];
  const none: History = new Map();

  it('no bye while the smallest table keeps minSeats (5 at T = 4: 3 and 2)', () => {
    expect(tableByes(ranked, 4, 2, none)).toEqual({ byes: [], seated: ranked });
  });

  it('the lowest-ranked gets the bye, and sizes are recomputed (5 at T = 4, minSeats 3: one table of 4)', () => {
    expect(tableByes(ranked, 4, 3, none)).toEqual({ byes: ['E'], seated: ['A', 'B', 'C', 'D'] });
  });

  it('byes repeat until the smallest table is full enough (6 at T = 4, minSeats 4: two byes)', () => {
    expect(tableByes([...ranked, 'F'], 4, 4, none)).toEqual({ byes: ['F', 'E'], seated: ['A', 'B', 'C', 'D'] });
  });

  it('the fewest earlier table byes (PAB entries) come first, then the lowest rank', () => {
    const history: History = new Map([
      ['E', [pab(1, rat(3, 2))]],
      ['D', [pab(2, rat(3, 2))]],
    ]);
    expect(tableByes(ranked, 4, 3, history).byes).toEqual(['C']);
    expect(tableByes(['A', 'B', 'D', 'E'], 4, 3, new Map([['E', [pab(1, ZERO), pab(2, ZERO)]]])).byes).toEqual([]);
  });

  it('a pool too small for any table gets byes only', () => {
    expect(tableByes(['A'], 4, 2, none)).toEqual({ byes: ['A'], seated: [] });
    expect(tableByes(['A', 'B', 'C'], 4, 4, none)).toEqual({ byes: ['C', 'B', 'A'], seated: [] });
  });

  it('seatTables gives the bye before seating', () => {
    const five = [1, 2, 3, 4, 5].map((i) => participant(i));
    const round = value(seatTables({ round: 1, participants: five, history: none, points: new Map(), seatCount: 4, minSeats: 3 }));
    expect(round).toEqual({ tables: [{ seats: ['P1', 'P2', 'P3', 'P4'] }], byes: ['P5'] });
  });
});

describe('X11.4 tables, 9 participants, Chicken Foot at 4 seats, 3 rounds', () => {
  const nine = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => participant(i));
  const input = (round: number, history: History, seating: TableSeating = 'greedy'): TablesInput => ({
    round,
    participants: nine,
    history,
    points: pointsOf(history),
    seatCount: 4,
    minSeats: 2,
    seating,
  });
  /** Plays a seated round with the given pips per seat and returns each participant's TP as text. */
  function play(history: Map<string, RoundEntry[]>, round: number, tables: string[][], pips: number[][]): Record<string, string> {
    const tp: Record<string, string> = {};
    tables.forEach((seats, t) => {
      const entries = value(scoreTable({ round, table: { seats }, outcomes: pips[t].map((p) => ({ present: true, pips: p })), minSeats: 2 }));
      record(history, entries);
      for (const { id, entry } of entries) tp[id] = format(entry.tp);
    });
    return tp;
  }

  const rounds = [
    {
      tables: [
        ['P1', 'P2', 'P3'],
        ['P4', 'P5', 'P6'],
        ['P7', 'P8', 'P9'],
      ],
      pips: [
        [25, 40, 10],
        [5, 30, 30],
        [12, 12, 50],
      ],
      points: { P3: '2', P1: '1', P2: '0', P4: '2', P5: '1/2', P6: '1/2', P7: '3/2', P8: '3/2', P9: '0' },
    },
    {
      tables: [
        ['P4', 'P7', 'P3'],
        ['P1', 'P5', 'P8'],
        ['P2', 'P9', 'P6'],
      ],
      pips: [
        [8, 20, 33],
        [15, 15, 27],
        [9, 44, 21],
      ],
      points: { P4: '2', P7: '1', P3: '0', P1: '3/2', P5: '3/2', P8: '0', P2: '2', P6: '1', P9: '0' },
    },
    {
      tables: [
        ['P7', 'P4', 'P1'],
        ['P3', 'P2', 'P5'],
        ['P9', 'P6', 'P8'],
      ],
      pips: [
        [30, 6, 18],
        [22, 14, 14],
        [11, 35, 0],
      ],
      points: { P4: '2', P1: '1', P7: '0', P2: '3/2', P5: '3/2', P3: '0', P8: '2', P9: '1', P6: '0' },
    },
  ];

  it('seats rounds 1-3 as the spec does (windows and rotation) and scores them to its points', () => {
    const history = new Map<string, RoundEntry[]>();
    rounds.forEach((expected, i) => {
      const seated = value(seatTables(input(i + 1, history)));
      expect(seated.byes).toEqual([]);
      expect(seatsOf(seated)).toEqual(expected.tables);
      expect(play(history, i + 1, seatsOf(seated), expected.pips)).toEqual(expected.points);
    });

    // The final standings' columns, read from the entries this module produced.
    const final = Object.fromEntries(
      [...history].map(([id, entries]) => [
        id,
        {
          tp: format(sum(entries.map((e) => e.tp))),
          pips: entries.map((e) => format(e.gamePoints!)).join(', '),
          gp: format(
            rat(
              entries.reduce((s, e) => s + e.gamePoints!.n, 0),
              3,
            ),
          ),
          won: entries.filter((e) => e.firstPlace).length,
        },
      ]),
    );
    expect(final).toEqual({
      P4: { tp: '6', pips: '5, 8, 6', gp: '19/3', won: 3 },
      P8: { tp: '7/2', pips: '12, 27, 0', gp: '13', won: 2 },
      P1: { tp: '7/2', pips: '25, 15, 18', gp: '58/3', won: 1 },
      P5: { tp: '7/2', pips: '30, 15, 14', gp: '59/3', won: 2 },
      P2: { tp: '7/2', pips: '40, 9, 14', gp: '21', won: 2 },
      P7: { tp: '5/2', pips: '12, 20, 30', gp: '62/3', won: 1 },
      P3: { tp: '2', pips: '10, 33, 22', gp: '65/3', won: 1 },
      P6: { tp: '3/2', pips: '30, 21, 35', gp: '86/3', won: 0 },
      P9: { tp: '1', pips: '50, 44, 11', gp: '35', won: 0 },
    });
    // Table-mates are the others who played there; seats are the scheduled seats.
    expect(history.get('P8')![2]).toMatchObject({ kind: 'PLAYED', opponents: ['P9', 'P6'], seat: 2, result: null, firstPlace: true });
  });

  it('avoidRepeats keeps the greedy seating while it has no repeats, and finds a repeat-free round 3', () => {
    const history = new Map<string, RoundEntry[]>();
    for (const [i, expected] of rounds.slice(0, 2).entries()) {
      expect(seatsOf(value(seatTables(input(i + 1, history, 'avoidRepeats'))))).toEqual(expected.tables);
      play(history, i + 1, expected.tables, expected.pips);
    }
    const greedy = seatsOf(value(seatTables(input(3, history))));
    const avoiding = seatsOf(value(seatTables(input(3, history, 'avoidRepeats'))));
    const met = metCounts(history);
    // P4-P7, P2-P3, P6-P9 and P8-P9.
    expect(repeatsAt(greedy, met)).toBe(4);
    expect(repeatsAt(avoiding, met)).toBe(0);
    // X = [P4, P1, P9], [P7, P2, P5], [P3, P6, P8] rotated by 2: the spec's repeat-free seating.
    expect(avoiding).toEqual([
      ['P9', 'P4', 'P1'],
      ['P5', 'P7', 'P2'],
      ['P8', 'P3', 'P6'],
    ]);
  });
});

describe('TA7.2, TA7.10, P2.6: who is seated', () => {
  const none: History = new Map();

  it('manual tables come first as given; absent, requested byes, late entries and withdrawn members are not seated', () => {
    const people = [
      participant(1),
      participant(2),
      participant(3, 1980, { withdrawnAfterRound: 1 }),
      participant(4, 1970, { entryRound: 3 }),
      participant(5),
      participant(6),
      participant(7, 1940, { withdrawnAfterRound: 2 }),
      participant(8),
      participant(9),
      participant(10),
    ];
    const round = value(
      seatTables({
        round: 2,
        participants: people,
        history: none,
        points: new Map([['P10', rat(3)]]),
        seatCount: 4,
        minSeats: 2,
        manualTables: [{ seats: ['P9', 'P1'] }],
        absent: ['P2'],
        requestedByes: ['P5'],
      }),
    );
    // Pool P10 (3 TP), P6, P7, P8: one table of 4, rotated by 1.
    expect(round).toEqual({ tables: [{ seats: ['P9', 'P1'] }, { seats: ['P6', 'P7', 'P8', 'P10'] }], byes: [] });
  });

  it('the input order of participants does not matter', () => {
    const people = [1, 2, 3, 4, 5, 6, 7].map((i) => participant(i, 1500));
    const a = seatTables({ round: 1, participants: people, history: none, points: new Map(), seatCount: 3, minSeats: 2 });
    const b = seatTables({ round: 1, participants: [...people].reverse(), history: none, points: new Map(), seatCount: 3, minSeats: 2 });
    expect(b).toEqual(a);
    expect(seatsOf(value(a))).toEqual([
      ['P1', 'P2', 'P3'],
      ['P4', 'P5'],
      ['P6', 'P7'],
    ]);
  });

  it.each([
    ['a bad round', { round: 0 }],
    ['minSeats above T', { minSeats: 5 }],
    ['minSeats below 2', { minSeats: 1 }],
    ['an unknown absentee', { absent: ['P99'] }],
    ['a manual table too small', { manualTables: [{ seats: ['P1'] }] }],
    ['a manual table too large', { manualTables: [{ seats: ['P1', 'P2', 'P3', 'P4', 'P5'] }] }],
    ['a member at two manual tables', { manualTables: [{ seats: ['P1', 'P2'] }, { seats: ['P2', 'P3'] }] }],
    ['an absentee at a manual table', { manualTables: [{ seats: ['P1', 'P2'] }], absent: ['P2'] }],
  ])('refuses %s', (_, change) => {
    const people = [1, 2, 3, 4, 5, 6].map((i) => participant(i));
    const result = seatTables({ round: 1, participants: people, history: none, points: new Map(), seatCount: 4, minSeats: 2, ...change });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('INVALID_INPUT');
  });
});

describe('TA7.6, TA7.7, R3.5 scoring a table', () => {
  const table = { seats: ['A', 'B', 'C', 'D'] };
  const at = (outcomes: SeatOutcome[], extra: { minSeats?: number; placementPoints?: Record<string, string[]> } = {}) =>
    value(scoreTable({ round: 4, table, outcomes, minSeats: extra.minSeats ?? 2, placementPoints: extra.placementPoints }));
  const summary = (seats: ScoredSeat[]) => Object.fromEntries(seats.map(({ id, entry }) => [id, `${entry.kind} ${format(entry.tp)}${entry.firstPlace ? ' first' : ''}`]));

  it('places by pips with the default table 3, 2, 1, 0; ties share the average', () => {
    expect(summary(at([20, 5, 20, 40].map((pips) => ({ present: true, pips }))))).toEqual({ A: 'PLAYED 3/2', B: 'PLAYED 3 first', C: 'PLAYED 3/2', D: 'PLAYED 0' });
    expect(summary(at([7, 7, 9, 9].map((pips) => ({ present: true, pips }))))).toEqual({ A: 'PLAYED 5/2 first', B: 'PLAYED 5/2 first', C: 'PLAYED 1/2', D: 'PLAYED 1/2' });
  });

  it('malta-cross tie keys split equal pips, in order; seats equal on every key stay tied', () => {
    const seats = at([
      { present: true, pips: 10, tieKeys: [-2, 3] },
      { present: true, pips: 10, tieKeys: [-3, 9] },
      { present: true, pips: 10, tieKeys: [-2, 1] },
      { present: true, pips: 10, tieKeys: [-2, 1] },
    ]);
    expect(summary(seats)).toEqual({ B: 'PLAYED 3 first', C: 'PLAYED 3/2', D: 'PLAYED 3/2', A: 'PLAYED 0' });
  });

  it('a seat that did not play is FORFEIT_LOSS; the others are placed with the scheduled size', () => {
    const seats = at([{ present: true, pips: 12 }, { present: false }, { present: true, pips: 3 }, { present: true, pips: 30 }]);
    expect(summary(seats)).toEqual({ A: 'PLAYED 2', B: 'FORFEIT_LOSS 0', C: 'PLAYED 3 first', D: 'PLAYED 1' });
    expect(seats[0].entry).toEqual({ round: 4, kind: 'PLAYED', tp: rat(2), opponents: ['C', 'D'], seat: 0, result: null, gamePoints: rat(12), firstPlace: false });
    expect(seats[1].entry).toEqual({ round: 4, kind: 'FORFEIT_LOSS', tp: ZERO, opponents: [], seat: null, result: null, gamePoints: null, firstPlace: false });
  });

  it('fewer present than minSeats: no game, the present share places 1..m as FORFEIT_WIN', () => {
    const seats = at([{ present: true }, { present: false }, { present: true }, { present: false }], { minSeats: 3 });
    expect(summary(seats)).toEqual({ A: 'FORFEIT_WIN 5/2', B: 'FORFEIT_LOSS 0', C: 'FORFEIT_WIN 5/2', D: 'FORFEIT_LOSS 0' });
    expect(seats[0].entry.gamePoints).toBeNull();
    expect(summary(at([{ present: false }, { present: false }, { present: false }, { present: false }]))).toEqual({
      A: 'FORFEIT_LOSS 0',
      B: 'FORFEIT_LOSS 0',
      C: 'FORFEIT_LOSS 0',
      D: 'FORFEIT_LOSS 0',
    });
  });

  it("uses the organizer's placement table for the scheduled size", () => {
    const placementPoints = { '4': ['5', '5/2', '1', '0'] };
    expect(
      summary(
        at(
          [1, 2, 2, 3].map((pips) => ({ present: true, pips })),
          { placementPoints },
        ),
      ),
    ).toEqual({ A: 'PLAYED 5 first', B: 'PLAYED 7/4', C: 'PLAYED 7/4', D: 'PLAYED 0' });
  });

  it.each([
    [
      'pips on a seat that did not play',
      [
        { present: false, pips: 3 },
        { present: true, pips: 1 },
        { present: true, pips: 2 },
        { present: true, pips: 2 },
      ],
    ],
    ['no pips for a seat that played', [{ present: true }, { present: true, pips: 1 }, { present: true, pips: 2 }, { present: true, pips: 2 }]],
    ['negative pips', [-1, 1, 2, 3].map((pips) => ({ present: true, pips }))],
    ['fractional pips', [1.5, 1, 2, 3].map((pips) => ({ present: true, pips }))],
    [
      'tie keys of different lengths',
      [
        { present: true, pips: 1, tieKeys: [1] },
        { present: true, pips: 1 },
        { present: true, pips: 2 },
        { present: true, pips: 2 },
      ],
    ],
    ['one outcome too few', [1, 2, 3].map((pips) => ({ present: true, pips }))],
  ])('refuses %s', (_, outcomes: SeatOutcome[]) => {
    const result = scoreTable({ round: 1, table, outcomes, minSeats: 2 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('INVALID_INPUT');
  });
});

describe('TA7.7, TA7.9 placement tables and the table bye', () => {
  it('defaults: place k gets 0, each place above one more; the bye is (T - 1) / 2', () => {
    expect(placementTable(5).map(format)).toEqual(['4', '3', '2', '1', '0']);
    expect(format(tableByePoints(4))).toBe('3/2');
    expect(format(tableByePoints(3))).toBe('1');
    expect(format(tableByePoints(4, { '4': ['6', '2', '1', '0'] }))).toBe('9/4');
  });

  it('parses numbers, fractions and decimals into the recorded form', () => {
    expect(value(parsePlacementTables({ '3': [3, '1/2', 0.5], '2': ['1', 0] }))).toEqual({ '2': ['1', '0'], '3': ['3', '1/2', '1/2'] });
    expect(value(parsePlacementTables({}))).toEqual({});
  });

  it.each([
    ['not an object', [1, 0]],
    ['null', null],
    ['a size below 2', { '1': ['0'] }],
    ['a size that is not a number', { three: [2, 1, 0] }],
    ['a leading zero', { '03': [2, 1, 0] }],
    ['the wrong length', { '3': [2, 1] }],
    ['an increasing table', { '3': [2, 0, 1] }],
    ['a negative value', { '3': [2, 1, -1] }],
    ['a value that is no number', { '3': [2, 1, 'x'] }],
    ['a boolean value', { '2': [true, 0] }],
  ])('refuses %s', (_, input) => {
    const result = parsePlacementTables(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('INVALID_INPUT');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

/** Whether the members can sit at tables of these sizes with no two who met (brute force). */
function repeatFreeExists(members: readonly string[], sizes: readonly number[], met: Map<string, number>): boolean {
  if (members.length === 0) return true;
  const [head, ...others] = members;
  const fits = (group: readonly string[], c: string) => group.every((x) => !met.has(`${x}|${c}`));
  const choose = (group: string[], from: number, size: number, rest: number[]): boolean => {
    if (group.length === size)
      return repeatFreeExists(
        others.filter((x) => !group.includes(x)),
        rest,
        met,
      );
    for (let i = from; i < others.length; i++) if (fits(group, others[i]) && choose([...group, others[i]], i + 1, size, rest)) return true;
    return false;
  };
  return [...new Set(sizes)].some((size) => {
    const rest = [...sizes];
    rest.splice(rest.indexOf(size), 1);
    return choose([head], 0, size, rest);
  });
}

interface Pool {
  ratings: number[];
  seatCount: number;
  minSeats: number;
  rounds: number;
  pips: number[];
  absences: number[];
}

const pools = fc.record({ n: fc.integer({ min: 6, max: 12 }), seatCount: fc.integer({ min: 3, max: 5 }), rounds: fc.integer({ min: 2, max: 4 }) }).chain(({ n, seatCount, rounds }) =>
  fc.record({
    ratings: fc.array(fc.integer({ min: 1500, max: 1504 }), { minLength: n, maxLength: n }),
    seatCount: fc.constant(seatCount),
    minSeats: fc.integer({ min: 2, max: seatCount }),
    rounds: fc.constant(rounds),
    pips: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: n * rounds, maxLength: n * rounds }),
    // Per round, a participant index absent that round (or none when out of range).
    absences: fc.array(fc.integer({ min: 0, max: 2 * n }), { minLength: rounds, maxLength: rounds }),
  }),
);

/** Plays the pool's rounds with one seating option, checking each round's seating with `check`. */
function tournament(pool: Pool, seating: TableSeating, check: (input: TablesInput, seated: SeatedRound) => void): void {
  const people = pool.ratings.map((rating, i) => participant(i + 1, rating));
  const history = new Map<string, RoundEntry[]>();
  let pip = 0;
  for (let round = 1; round <= pool.rounds; round++) {
    const absent = people.filter((_, i) => i === pool.absences[round - 1]).map((p) => p.id);
    const input: TablesInput = { round, participants: people, history: new Map(history), points: pointsOf(history), seatCount: pool.seatCount, minSeats: pool.minSeats, absent, seating };
    const seated = value(seatTables(input));
    check(input, seated);
    for (const { seats } of seated.tables)
      record(history, value(scoreTable({ round, table: { seats }, outcomes: seats.map(() => ({ present: true, pips: pool.pips[pip++] })), minSeats: pool.minSeats })));
    record(
      history,
      seated.byes.map((id) => ({ id, entry: pab(round, tableByePoints(pool.seatCount)) })),
    );
    record(
      history,
      absent.map((id) => ({ id, entry: { ...pab(round, ZERO), kind: 'ABSENT' } })),
    );
  }
}

describe('seating properties', () => {
  it('avoidRepeats seats no one with a former table-mate when a repeat-free seating of the same sizes exists, and never repeats more than greedy', () => {
    fc.assert(
      fc.property(pools, (pool) => {
        tournament(pool, 'avoidRepeats', (input, seated) => {
          const tables = seatsOf(seated);
          const met = metCounts(input.history);
          const greedy = seatsOf(value(seatTables({ ...input, seating: 'greedy' })));
          expect(tables.map((t) => t.length)).toEqual(greedy.map((t) => t.length));
          expect(repeatsAt(tables, met)).toBeLessThanOrEqual(repeatsAt(greedy, met));
          const members = tables.flat().sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
          if (
            repeatFreeExists(
              members,
              tables.map((t) => t.length),
              met,
            )
          )
            expect(repeatsAt(tables, met)).toBe(0);
        });
      }),
    );
  });

  it.each(['greedy', 'avoidRepeats'] as const)('%s: every pool member sits once or has a bye, at TA7.3 sizes after the fewest TA7.4 byes, deterministically', (seating) => {
    fc.assert(
      fc.property(pools, (pool) => {
        tournament(pool, seating, (input, seated) => {
          const members = input.participants.filter((p) => !input.absent!.includes(p.id)).map((p) => p.id);
          const seatedIds = seated.tables.flatMap((t) => t.seats);
          expect([...seatedIds, ...seated.byes].sort()).toEqual([...members].sort());
          expect(seated.tables.map((t) => t.seats.length)).toEqual(tableSizes(seatedIds.length, input.seatCount));
          for (const t of seated.tables) expect(t.seats.length).toBeGreaterThanOrEqual(input.minSeats);
          // TA7.4 stops at the first pool size whose smallest table is big enough.
          if (seated.byes.length > 0) {
            const oneFewer = tableSizes(seatedIds.length + 1, input.seatCount);
            expect(oneFewer[oneFewer.length - 1]).toBeLessThan(input.minSeats);
          }
          expect(seatTables(input)).toEqual(ok(seated));
        });
      }),
    );
  });

  it('placement points at a table add up to the placement table of its present seats', () => {
    const tables = fc.integer({ min: 2, max: 8 }).chain((size) =>
      fc.record({
        size: fc.constant(size),
        pips: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: size, maxLength: size }),
        custom: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: size, maxLength: size }),
        present: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
      }),
    );
    fc.assert(
      fc.property(tables, ({ size, pips, custom, present }) => {
        const seats = pips.map((_, i) => `S${i}`);
        const placementPoints = value(parsePlacementTables({ [size]: [...custom].sort((a, b) => b - a) }));
        const places = placementTable(size, placementPoints);
        const all = value(scoreTable({ round: 1, table: { seats }, outcomes: pips.map((p) => ({ present: true, pips: p })), minSeats: 2, placementPoints }));
        expect(sum(all.map((s) => s.entry.tp))).toEqual(sum(places));
        expect(all.some((s) => s.entry.firstPlace)).toBe(true);
        const m = present.filter(Boolean).length;
        const some = value(
          scoreTable({ round: 1, table: { seats }, outcomes: pips.map((p, i) => (present[i] && m >= 2 ? { present: true, pips: p } : { present: present[i] })), minSeats: 2, placementPoints }),
        );
        const total = some.reduce((s, x) => add(s, x.entry.tp), ZERO);
        expect(total).toEqual(m >= 2 ? sum(places.slice(0, m)) : m === 1 ? places[0] : ZERO);
      }),
    );
  });
});
