import { fail, ok, type Result } from '../../../engines/kit/index.js';
import { cmp, div, format, parse, type Rational, rat, sum, ZERO } from './rational.js';
import { type History, type Participant, type RoundEntry, roundEntry, type Table } from './types.js';

/**
 * The tables format (section 7 of docs/rules/tournaments.md): table sizes, table byes, seating and
 * the scoring of one table. Everything is a pure function of its inputs (V10.3: the verifier
 * seats every round again and must get the same tables).
 */

const invalid = (message: string): Result<never> => fail('INVALID_INPUT', message);

// ---------------------------------------------------------------------------------------------
// Sizes and byes

/** TA7.3: the table sizes for `n` seated members at `seatCount`-seat tables, larger tables first. */
export function tableSizes(n: number, seatCount: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`cannot seat ${n} participants`);
  if (!Number.isInteger(seatCount) || seatCount < 2) throw new RangeError(`a table has at least 2 seats, not ${seatCount}`);
  if (n === 0) return [];
  const t = Math.ceil(n / seatCount);
  const q = Math.floor(n / t);
  const e = n % t;
  return Array.from({ length: t }, (_, j) => (j < e ? q + 1 : q));
}

/** TA7.4: `q`, the smallest table size for n members (n > 0). */
const smallestTable = (n: number, seatCount: number): number => Math.floor(n / Math.ceil(n / seatCount));

/** A member's earlier table byes: its PAB entries (R3.5: a table bye is PAB). */
const earlierTableByes = (history: History, id: string): number => (history.get(id) ?? []).filter((e) => e.kind === 'PAB').length;

/**
 * TA7.4: while the smallest table would have fewer than `minSeats` seats, one more member gets a
 * table bye: the lowest-ranked among those with the fewest earlier table byes. `ranked` is the
 * pool in ranking order; `seated` keeps that order.
 */
export function tableByes(ranked: readonly string[], seatCount: number, minSeats: number, history: History): { byes: string[]; seated: string[] } {
  const seated = [...ranked];
  const byes: string[] = [];
  while (seated.length > 0 && smallestTable(seated.length, seatCount) < minSeats) {
    // Scanning upward from the bottom with a strict `<` keeps the lowest-ranked of the fewest.
    let pick = seated.length - 1;
    for (let i = seated.length - 2; i >= 0; i--) if (earlierTableByes(history, seated[i]) < earlierTableByes(history, seated[pick])) pick = i;
    byes.push(...seated.splice(pick, 1));
  }
  return { byes, seated };
}

// ---------------------------------------------------------------------------------------------
// Seating

/**
 * `greedy`: TA7.5 exactly. `avoidRepeats`: the same table sizes, searched for a seating with no
 * table-mates who already met (see `avoidRepeatsSeating`).
 */
export type TableSeating = 'greedy' | 'avoidRepeats';

/** What seating round `round` reads (TA7.2, TA7.10, P2.6). */
export interface TablesInput {
  round: number;
  participants: readonly Participant[];
  /** Entries of rounds 1..round-1. */
  history: History;
  /** TP after round `round` - 1 (T1.12); a participant missing here has 0. */
  points: ReadonlyMap<string, Rational>;
  /** T (TA7.1): the ruleset's seat count. */
  seatCount: number;
  /** TA7.1: the effective minimum (the organizer's if raised). */
  minSeats: number;
  /** TA7.10: fixed tables, seats as given; their members leave the pool. */
  manualTables?: readonly Table[];
  /** P2.6: not in the pool. */
  absent?: readonly string[];
  requestedByes?: readonly string[];
  /** Default `greedy`. */
  seating?: TableSeating;
}

export interface SeatedRound {
  /** Manual tables first, as given; then the seated tables, larger first (TA7.3), in seating order. */
  tables: Table[];
  /** Table byes (TA7.4, PAB), in the order they were given. */
  byes: string[];
}

/**
 * Placements (one member added to a table) the `avoidRepeats` search of one round may try before
 * it settles for the best seating found so far. Counting placements, not time, keeps the result
 * deterministic. In trials, pools of up to 12 were searched to the end within 31,000; a pool of
 * 200 spends it in under a second.
 */
export const AVOID_REPEATS_BUDGET = 100_000;

/** TA7.2-TA7.5, TA7.10: the tables and table byes of one round. */
export function seatTables(input: TablesInput): Result<SeatedRound> {
  const { round, participants, history, points, seatCount, minSeats } = input;
  const manualTables = input.manualTables ?? [];
  if (!Number.isInteger(round) || round < 1) return invalid(`round must be 1 or more, not ${round}`);
  if (!Number.isInteger(seatCount) || seatCount < 2) return invalid(`a table has at least 2 seats, not ${seatCount} (TA7.1)`);
  if (!Number.isInteger(minSeats) || minSeats < 2 || minSeats > seatCount) return invalid(`minSeats must be 2 to ${seatCount} (TA7.1), not ${minSeats}`);
  const byId = new Map(participants.map((p) => [p.id, p]));
  if (byId.size !== participants.length) return invalid('participant ids must be unique');

  const notPlaying = new Set<string>();
  for (const id of [...(input.absent ?? []), ...(input.requestedByes ?? [])]) {
    if (!byId.has(id)) return invalid(`"${id}" is marked absent or on a requested bye but is not a participant`);
    notPlaying.add(id);
  }
  // S5.4: entered by this round and not withdrawn before it.
  const active = (p: Participant): boolean => p.entryRound <= round && (p.withdrawnAfterRound === null || p.withdrawnAfterRound >= round);
  const atManualTable = new Set<string>();
  for (const table of manualTables) {
    if (table.seats.length < minSeats || table.seats.length > seatCount) return invalid(`a manual table seats ${minSeats} to ${seatCount}, not ${table.seats.length} (TA7.10)`);
    for (const id of table.seats) {
      const p = byId.get(id);
      if (!p || !active(p) || notPlaying.has(id)) return invalid(`"${id}" cannot sit at a manual table in round ${round}: not a participant playing this round`);
      if (atManualTable.has(id)) return invalid(`"${id}" is at more than one manual table`);
      atManualTable.add(id);
    }
  }

  const tp = (p: Participant): Rational => points.get(p.id) ?? ZERO;
  const ranked = participants
    .filter((p) => active(p) && !notPlaying.has(p.id) && !atManualTable.has(p.id))
    .sort((a, b) => cmp(tp(b), tp(a)) || b.rating - a.rating || a.registrationNo - b.registrationNo)
    .map((p) => p.id);
  const { byes, seated } = tableByes(ranked, seatCount, minSeats, history);
  const sizes = tableSizes(seated.length, seatCount);
  const met = metCounts(seated, history);
  const greedy = greedySeating(sizes, met);
  const picked = input.seating === 'avoidRepeats' ? avoidRepeatsSeating(sizes, met, greedy) : greedy;
  const seatedTables = picked.map((x) => ({ seats: rotate(x, round).map((i) => seated[i]) }));
  return ok({ tables: [...manualTables.map((t) => ({ seats: [...t.seats] })), ...seatedTables], byes });
}

/** TA7.5 step 3: seat i gets X[(i + r - 1) mod s]. */
const rotate = <T>(x: readonly T[], round: number): T[] => x.map((_, i) => x[(i + round - 1) % x.length]);

/**
 * TA7.5 `met`, by index into `seated`: the earlier rounds in which the two both played at one
 * table (a PLAYED entry lists only table-mates who played, so forfeits never count).
 */
function metCounts(seated: readonly string[], history: History): number[][] {
  const index = new Map(seated.map((id, i) => [id, i]));
  return seated.map((id) => {
    const row = new Array<number>(seated.length).fill(0);
    for (const entry of history.get(id) ?? []) {
      if (entry.kind !== 'PLAYED') continue;
      for (const other of entry.opponents) {
        const j = index.get(other);
        if (j !== undefined) row[j]++;
      }
    }
    return row;
  });
}

/** sum over x in X of met(c, x). */
const repeatsWith = (met: number[][], c: number, table: readonly number[]): number => table.reduce((s, x) => s + met[c][x], 0);

/** Repeated meetings in a whole seating: met summed over every pair of table-mates. */
const seatingRepeats = (met: number[][], tables: readonly (readonly number[])[]): number =>
  tables.reduce((s, table) => s + table.reduce((t, c, i) => t + repeatsWith(met, c, table.slice(0, i)), 0), 0);

/**
 * TA7.5 steps 1-2 over indices in ranking order (0 = best rank): each table as X, in pick order.
 * The window is the first 2 * (s - |X|) remaining; fewest repeats wins, then the better rank.
 */
function greedySeating(sizes: readonly number[], met: number[][]): number[][] {
  const rem = met.map((_, i) => i);
  return sizes.map((size) => {
    const table = rem.splice(0, 1);
    while (table.length < size) {
      const window = rem.slice(0, 2 * (size - table.length));
      const pick = window.reduce((best, c) => (repeatsWith(met, c, table) < repeatsWith(met, best, table) ? c : best));
      table.push(pick);
      rem.splice(rem.indexOf(pick), 1);
    }
    return table;
  });
}

/**
 * `avoidRepeats`: the first seating, in the search order of `fewestRepeats`, with the fewest
 * repeated meetings (`seatingRepeats`). That is the greedy seating whenever it is already best. A
 * repeat-free seating is looked for first: the bound 1 cuts every repeat at once, so this pass is
 * quick and proves in a few hundred placements, for a dozen players, that none exists. Only then
 * are repeats minimised below the greedy's. Both passes share AVOID_REPEATS_BUDGET placements;
 * when it runs out the best seating found so far is kept, the greedy one if nothing better was
 * found. Tables come out larger first (TA7.3), each in its pick order for the rotation.
 */
function avoidRepeatsSeating(sizes: readonly number[], met: number[][], greedy: number[][]): number[][] {
  const greedyRepeats = seatingRepeats(met, greedy);
  if (greedyRepeats === 0) return greedy;
  const budget = { left: AVOID_REPEATS_BUDGET };
  const best = fewestRepeats(sizes, met, 1, budget) ?? fewestRepeats(sizes, met, greedyRepeats, budget);
  return best ? [...best].sort((a, b) => b.length - a.length) : greedy;
}

/**
 * A depth-first branch-and-bound search for the first seating with the fewest repeats below
 * `bound` (null if there is none, or none was found before the budget ran out). Its first branch
 * is the greedy seating: each table opens with the best-ranked member still free, trying the
 * larger size first when sizes differ (so every partition into the TA7.3 sizes is reachable);
 * further members are tried as the greedy would, the window by (repeats, rank), then the rest of
 * the pool by (repeats, rank).
 */
function fewestRepeats(sizes: readonly number[], met: number[][], bound: number, budget: { left: number }): number[][] | null {
  let best: number[][] | null = null;
  let bestRepeats = bound;
  let stop = false;
  const taken = met.map(() => false);
  const tables: number[][] = [];
  const distinctSizes = [...new Set(sizes)];
  const toFill = new Map(distinctSizes.map((s) => [s, sizes.filter((x) => x === s).length]));
  // The fewest repeats seen on reaching a state. A state reached again with no fewer repeats
  // cannot lead to a better seating: the first visit searched the same completions under a bound
  // that was no tighter (this prunes the orders in which one table's members can be picked).
  const reached = new Map<string, number>();

  const openTable = (repeats: number): void => {
    const head = taken.indexOf(false);
    if (head < 0) {
      // Only completions with fewer repeats than the best get here (see `fill`).
      best = tables.map((t) => [...t]);
      bestRepeats = repeats;
      stop = repeats === 0;
      return;
    }
    for (const size of distinctSizes) {
      if (stop) return;
      const left = toFill.get(size)!;
      if (left === 0) continue;
      toFill.set(size, left - 1);
      taken[head] = true;
      fill([head], size, repeats);
      taken[head] = false;
      toFill.set(size, left);
    }
  };

  const fill = (table: number[], size: number, repeats: number): void => {
    if (table.length === size) {
      tables.push(table);
      openTable(repeats);
      tables.pop();
      return;
    }
    const state = `${size}|${[...toFill.values()].join(',')}|${taken.map((t) => (t ? 1 : 0)).join('')}|${[...table].sort((a, b) => a - b).join(',')}`;
    const before = reached.get(state);
    if (before !== undefined && before <= repeats) return;
    reached.set(state, repeats);
    for (const [c, added] of candidates(table, size)) {
      if (stop) return;
      if (repeats + added >= bestRepeats) continue;
      if (--budget.left < 0) {
        stop = true;
        return;
      }
      taken[c] = true;
      fill([...table, c], size, repeats + added);
      taken[c] = false;
    }
  };

  const candidates = (table: readonly number[], size: number): [number, number][] => {
    const free = taken.flatMap((t, i) => (t ? [] : [i]));
    const windowSize = 2 * (size - table.length);
    const byRepeats = (list: number[]): [number, number][] => list.map((c): [number, number] => [c, repeatsWith(met, c, table)]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    return [...byRepeats(free.slice(0, windowSize)), ...byRepeats(free.slice(windowSize))];
  };

  openTable(0);
  return best;
}

// ---------------------------------------------------------------------------------------------
// Placement points

/**
 * TA7.7: the organizer's placement points per table size, in the recorded form: the size in
 * decimal, then the points of places 1..size as exact rationals (`{"3": ["2", "1", "0"]}`).
 * Sizes not listed use the default.
 */
export type PlacementPoints = Readonly<Record<string, readonly string[]>>;

const SIZE_KEY = /^[1-9]\d*$/;

/**
 * TA7.7: checks an organizer's placement tables: per size (2 or more) one value per place,
 * each a non-negative number (`2`, `"1/2"`, `0.5`), non-increasing from place 1.
 */
export function parsePlacementTables(input: unknown): Result<Record<string, string[]>> {
  const shape = 'placementPoints: an object from table size to the points of its places, e.g. {"3": ["2", "1", "0"]} (TA7.7)';
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return invalid(shape);
  const tables: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!SIZE_KEY.test(key) || Number(key) < 2) return invalid(`placementPoints: "${key}" is not a table size (a whole number, 2 or more)`);
    const size = Number(key);
    if (!Array.isArray(value) || value.length !== size) return invalid(`placementPoints["${key}"]: a list of ${size} values, one per place`);
    const points: Rational[] = [];
    for (const [i, v] of value.entries()) {
      const p = typeof v === 'string' || typeof v === 'number' ? parse(v) : null;
      if (!p || p.n < 0) return invalid(`placementPoints["${key}"][${i}]: a number 0 or more, such as 2, "1/2" or 0.5`);
      if (i > 0 && cmp(p, points[i - 1]) > 0) return invalid(`placementPoints["${key}"]: place ${i + 1} cannot get more than place ${i} (non-increasing)`);
      points.push(p);
    }
    tables[key] = points.map(format);
  }
  return ok(tables);
}

/**
 * TA7.7: the points of places 1..size: the organizer's table for that size, else size - 1 down
 * to 0. Throws on a table that did not come from `parsePlacementTables`.
 */
export function placementTable(size: number, placementPoints: PlacementPoints = {}): Rational[] {
  if (!Object.hasOwn(placementPoints, String(size))) return Array.from({ length: size }, (_, i) => rat(size - 1 - i));
  const given = placementPoints[String(size)];
  const points = given.map((v) => parse(v));
  if (points.length !== size || points.some((p) => p === null)) throw new RangeError(`the placement table for ${size} seats is malformed`);
  return points as Rational[];
}

/** TA7.9: the average placement points of a full table of `seatCount` seats ((T - 1) / 2 by default). */
export const tableByePoints = (seatCount: number, placementPoints?: PlacementPoints): Rational => average(placementTable(seatCount, placementPoints));

const average = (xs: readonly Rational[]): Rational => div(sum(xs), rat(xs.length));

// ---------------------------------------------------------------------------------------------
// Scoring a table

/** One scheduled seat's outcome. */
export interface SeatOutcome {
  /** false: the participant did not play (R3.5 FORFEIT_LOSS). */
  present: boolean;
  /** T1.9: the pip total, for each seat of a table that played (lower is better). */
  pips?: number;
  /** TA7.6: the game's further tie steps (malta-cross), in order, each lower-is-better. */
  tieKeys?: readonly number[];
}

export interface TableScoreInput {
  round: number;
  /** The table as scheduled, participants in seat order. */
  table: Table;
  /** One per seat, in seat order. */
  outcomes: readonly SeatOutcome[];
  /** TA7.1: the effective minimum (R3.5). */
  minSeats: number;
  placementPoints?: PlacementPoints;
}

/** One participant's entry for the round (R3.1). */
export interface ScoredSeat {
  id: string;
  entry: RoundEntry;
}

/** Lower pips first, then each tie key (TA7.6); 0 means tied. */
function compareOutcomes(a: SeatOutcome, b: SeatOutcome): number {
  const ka = [a.pips!, ...(a.tieKeys ?? [])];
  const kb = [b.pips!, ...(b.tieKeys ?? [])];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
  return 0;
}

const unplayed = (round: number, kind: 'FORFEIT_WIN' | 'FORFEIT_LOSS', tp: Rational): RoundEntry => roundEntry(round, kind, tp);

/**
 * TA7.6, TA7.7, R3.5: every seat's entry, in seat order. Present seats are placed among
 * themselves with the placement table of the scheduled size; tied seats share their places'
 * average. A seat that did not play gets FORFEIT_LOSS (0). With fewer than `minSeats` present no
 * game is played: the present share places 1..m as FORFEIT_WIN.
 */
export function scoreTable(input: TableScoreInput): Result<ScoredSeat[]> {
  const { round, table, outcomes, minSeats } = input;
  const size = table.seats.length;
  if (!Number.isInteger(round) || round < 1) return invalid(`round must be 1 or more, not ${round}`);
  if (size < 2 || new Set(table.seats).size !== size) return invalid('a table seats 2 or more different participants (T1.5)');
  if (outcomes.length !== size) return invalid(`the table has ${size} seats but ${outcomes.length} outcomes`);
  if (!Number.isInteger(minSeats) || minSeats < 2) return invalid(`minSeats must be 2 or more, not ${minSeats}`);
  const places = placementTable(size, input.placementPoints);
  const present = outcomes.flatMap((o, seat) => (o.present ? [seat] : []));
  const played = present.length >= minSeats;
  const keyCount = outcomes[present[0]]?.tieKeys?.length ?? 0;
  for (const [seat, o] of outcomes.entries()) {
    const scored = o.pips !== undefined || o.tieKeys !== undefined;
    if (!(o.present && played)) {
      if (scored) return invalid(`seat ${seat} did not play a game, so it has no pips (R3.5)`);
      continue;
    }
    if (!Number.isSafeInteger(o.pips) || o.pips! < 0) return invalid(`seat ${seat} played: its pip total must be a whole number, 0 or more (T1.9)`);
    if ((o.tieKeys?.length ?? 0) !== keyCount || o.tieKeys?.some((k) => !Number.isFinite(k))) return invalid(`every seat that played needs the same ${keyCount} finite tie keys (TA7.6)`);
  }

  if (!played) {
    // R3.5: the m present share places 1..m of the scheduled size, as in TA7.7.
    const share = present.length > 0 ? average(places.slice(0, present.length)) : ZERO;
    return ok(table.seats.map((id, seat) => ({ id, entry: outcomes[seat].present ? unplayed(round, 'FORFEIT_WIN', share) : unplayed(round, 'FORFEIT_LOSS', ZERO) })));
  }

  const entries = table.seats.map((id): ScoredSeat => ({ id, entry: unplayed(round, 'FORFEIT_LOSS', ZERO) }));
  const order = [...present].sort((a, b) => compareOutcomes(outcomes[a], outcomes[b]) || a - b);
  for (let first = 0; first < order.length; ) {
    let last = first + 1;
    while (last < order.length && compareOutcomes(outcomes[order[first]], outcomes[order[last]]) === 0) last++;
    const tp = average(places.slice(first, last));
    for (const seat of order.slice(first, last)) {
      entries[seat].entry = {
        round,
        kind: 'PLAYED',
        tp,
        opponents: present.filter((s) => s !== seat).map((s) => table.seats[s]),
        seat,
        result: null,
        gamePoints: rat(outcomes[seat].pips!),
        firstPlace: first === 0,
      };
    }
    first = last;
  }
  return ok(entries);
}
