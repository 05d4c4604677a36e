import { Codes, fail, ok, type Result } from '../../../engines/kit/index.js';
import { cmp, eq, type Rational, ZERO } from './rational.js';
import { Matching } from './swiss-matching.js';
import type { History, Pairing, Participant } from './types.js';

/**
 * The Swiss system (section 5 of docs/rules/tournaments.md): the bye, the pairings and the seats of
 * one round, computed from the participants, their results so far and the organizer's settings.
 */

/** S5.1: everything one Swiss round is paired from. */
export interface SwissInput {
  /** r, 1-based. */
  round: number;
  /** Everyone registered, withdrawn participants and late entries included. */
  participants: readonly Participant[];
  /** Entries of rounds 1..r-1 per participant id. */
  history: History;
  /** TP after round r-1 per participant, late-entry points included; a missing id has 0. */
  tp: ReadonlyMap<string, Rational>;
  forbidden: readonly (readonly [string, string])[];
  manual: { pairings: readonly { a: string; b: string; seats?: readonly [string, string] }[]; bye: string | null };
  /** P2.6: not paired this round. */
  absent: readonly string[];
  /** P2.6: not paired this round. */
  requestedByes: readonly string[];
}

/** One paired Swiss round. */
export interface SwissRound {
  /** In board order (S5.12), manual pairings included, seat 0 first. */
  pairings: Pairing[];
  /** The PAB, listed after the boards: the algorithm's (S5.9), else the manual one (S5.3). */
  bye: string | null;
  /**
   * Every PAB of the round in ranking order: at most one, except when a manual bye leaves an odd
   * pool, which then gives a second one (S5.3, S5.9).
   */
  byes: string[];
  /** Rematches (S5.10 step 2) and the organizer's overrides (S5.3). */
  warnings: string[];
}

/** A participant's earlier rounds as S5.6, S5.9 and S5.13 read them. */
interface TrackRecord {
  /** T1.13: opponents of played games (forfeits do not count, R3.3). */
  met: Set<string>;
  /** S5.9: rounds scored without playing (PAB and FORFEIT_WIN). */
  unplayedPoints: number;
  /** S5.13: played games at seat 0 minus played games at seat 1. */
  balance: number;
  /** S5.13: the seat of the last played game, null before the first. */
  lastSeat: number | null;
}

/**
 * S5.3-S5.13: round r of a Swiss tournament. Fails with INVALID_INPUT when the settings name
 * unknown or unpairable participants, and with PAIRING_IMPOSSIBLE per S5.10 step 3.
 */
export function pairSwiss(input: SwissInput): Result<SwissRound> {
  const byId = new Map(input.participants.map((p) => [p.id, p]));
  const problem = settingsProblem(input, byId);
  if (problem !== null) return fail(Codes.INVALID_INPUT, problem);

  const { round, manual } = input;
  const tpOf = (id: string): Rational => input.tp.get(id) ?? ZERO;
  // T1.12: the ranking order of every participant; board order and manual seats use it too.
  const ranking = [...input.participants].sort((x, y) => cmp(tpOf(y.id), tpOf(x.id)) || y.rating - x.rating || x.registrationNo - y.registrationNo);
  const rank = new Map(ranking.map((p, i) => [p.id, i]));
  const records = readHistory(input.history);
  const recordOf = (id: string): TrackRecord => records.get(id) ?? { met: new Set(), unplayedPoints: 0, balance: 0, lastSeat: null };
  const forbidden: Relation = new Map();
  for (const [a, b] of input.forbidden) relate(forbidden, a, b);
  const isForbidden = (a: string, b: string): boolean => forbidden.get(a)?.has(b) ?? false;

  // S5.4: the pool, in ranking order (S5.5).
  const notInPool = new Set([...input.absent, ...input.requestedByes, ...manual.pairings.flatMap((m) => [m.a, m.b])]);
  if (manual.bye !== null) notInPool.add(manual.bye);
  const pool = ranking.filter((p) => playsIn(p, round) && !notInPool.has(p.id));

  const drawn = pairPool(
    pool.map((p) => ({ id: p.id, tp: tpOf(p.id), record: recordOf(p.id) })),
    forbidden,
  );
  if (drawn === null) {
    return fail('PAIRING_IMPOSSIBLE', `round ${round}: no complete pairing of the pool avoids the forbidden pairs with an eligible bye (S5.9, S5.10 step 3); enter manual pairings`);
  }

  const boards: { pairing: Pairing; best: number; warnings: string[] }[] = [];
  for (const m of manual.pairings) {
    const [p, q] = rank.get(m.a)! < rank.get(m.b)! ? [m.a, m.b] : [m.b, m.a];
    const warnings: string[] = [];
    if (isForbidden(p, q)) warnings.push(`manual pairing ${p}-${q} is a forbidden pair (S5.3, S5.6)`);
    if (recordOf(p).met.has(q)) warnings.push(`manual pairing ${p}-${q} is a rematch (S5.3, S5.6)`);
    const seats: [string, string] = m.seats ? [m.seats[0], m.seats[1]] : seatsFor(p, q, round, recordOf);
    boards.push({ pairing: { seats }, best: rank.get(p)!, warnings });
  }
  for (const [p, q] of drawn.pairs) {
    const warnings = recordOf(p).met.has(q) ? [`rematch ${p}-${q} (S5.10 step 2)`] : [];
    boards.push({ pairing: { seats: seatsFor(p, q, round, recordOf) }, best: rank.get(p)!, warnings });
  }
  // S5.12: by the better rank of the two members.
  boards.sort((x, y) => x.best - y.best);

  const warnings = boards.flatMap((b) => b.warnings);
  if (manual.bye !== null && recordOf(manual.bye).unplayedPoints > 0) {
    warnings.push(`manual bye to ${manual.bye}, who already had a PAB or FORFEIT_WIN (S5.3, S5.9)`);
  }
  if (manual.bye !== null && drawn.bye !== null) {
    warnings.push(`the manual bye to ${manual.bye} leaves an odd pool, so ${drawn.bye} gets a PAB too (S5.9)`);
  }
  const byes = [manual.bye, drawn.bye].filter((id): id is string => id !== null).sort((a, b) => rank.get(a)! - rank.get(b)!);
  return ok({ pairings: boards.map((b) => b.pairing), bye: drawn.bye ?? manual.bye, byes, warnings });
}

/** S5.4: entered by round r and not withdrawn before it (P2.2, P2.3). */
const playsIn = (p: Participant, round: number): boolean => p.entryRound <= round && (p.withdrawnAfterRound === null || p.withdrawnAfterRound >= round);

/** A symmetric relation between participant ids, stored both ways. */
type Relation = Map<string, Set<string>>;

function relate(relation: Relation, a: string, b: string): void {
  relation.set(a, (relation.get(a) ?? new Set()).add(b));
  relation.set(b, (relation.get(b) ?? new Set()).add(a));
}

/** Settings that cannot describe a round; null when they can. */
function settingsProblem(input: SwissInput, byId: ReadonlyMap<string, Participant>): string | null {
  const { round, participants, manual } = input;
  if (!Number.isInteger(round) || round < 1) return `round must be a positive integer, not ${round}`;
  if (byId.size !== participants.length) return 'participant ids must be unique';
  if (new Set(participants.map((p) => p.registrationNo)).size !== participants.length) return 'registration numbers must be unique';
  const named = [...manual.pairings.flatMap((m) => [m.a, m.b]), ...(manual.bye === null ? [] : [manual.bye]), ...input.absent, ...input.requestedByes];
  const seen = new Set<string>();
  for (const id of named) {
    if (!byId.has(id)) return `unknown participant ${id}`;
    if (seen.has(id)) return `${id} is named more than once in the pairings, bye, absences and requested byes of round ${round}`;
    seen.add(id);
  }
  for (const m of manual.pairings) {
    if (m.seats && !((m.seats[0] === m.a && m.seats[1] === m.b) || (m.seats[0] === m.b && m.seats[1] === m.a))) {
      return `the seats of the manual pairing ${m.a}-${m.b} must be ${m.a} and ${m.b}`;
    }
  }
  for (const id of [...manual.pairings.flatMap((m) => [m.a, m.b]), ...(manual.bye === null ? [] : [manual.bye])]) {
    if (!playsIn(byId.get(id)!, round)) return `${id} cannot be paired in round ${round}: not entered yet or withdrawn`;
  }
  return null;
}

function readHistory(history: History): Map<string, TrackRecord> {
  const records = new Map<string, TrackRecord>();
  const recordOf = (id: string): TrackRecord => {
    let record = records.get(id);
    if (!record) records.set(id, (record = { met: new Set(), unplayedPoints: 0, balance: 0, lastSeat: null }));
    return record;
  };
  for (const [id, entries] of history) {
    const record = recordOf(id);
    for (const entry of entries) {
      if (entry.kind === 'PAB' || entry.kind === 'FORFEIT_WIN') record.unplayedPoints++;
      if (entry.kind !== 'PLAYED') continue;
      // Both sides' entries name the game; reading either one keeps "met" symmetric.
      for (const other of entry.opponents) {
        record.met.add(other);
        recordOf(other).met.add(id);
      }
      if (entry.seat !== null) {
        record.balance += entry.seat === 0 ? 1 : -1;
        record.lastSeat = entry.seat;
      }
    }
  }
  return records;
}

/** S5.13: [seat 0, seat 1] for p and q, p ranked higher. */
function seatsFor(p: string, q: string, round: number, recordOf: (id: string) => TrackRecord): [string, string] {
  const rp = recordOf(p);
  const rq = recordOf(q);
  if (rp.balance !== rq.balance) return rp.balance < rq.balance ? [p, q] : [q, p];
  if ((rp.lastSeat === 1) !== (rq.lastSeat === 1)) return rp.lastSeat === 1 ? [p, q] : [q, p];
  if ((rp.lastSeat === 0) !== (rq.lastSeat === 0)) return rp.lastSeat === 0 ? [q, p] : [p, q];
  return round % 2 === 1 ? [p, q] : [q, p];
}

interface PoolMember {
  id: string;
  tp: Rational;
  record: TrackRecord;
}

/** One search of S5.10: the pairs it may use, and whether rematches go last (step 2). */
interface Phase {
  edges: Uint8Array;
  rematchesLast: boolean;
}

/**
 * S5.9 and S5.10 on the ranked pool: the pairs as [higher-ranked, lower-ranked] ids and the
 * PAB, or null when no complete pairing exists (S5.10 step 3).
 */
function pairPool(pool: readonly PoolMember[], forbidden: Relation): { pairs: [string, string][]; bye: string | null } | null {
  const n = pool.length;
  // Members are numbered by rank (0 = best); the pair tables are n x n.
  const index = new Map(pool.map((m, i) => [m.id, i]));
  const met = new Uint8Array(n * n);
  const relaxed = new Uint8Array(n * n).fill(1);
  for (let i = 0; i < n; i++) {
    relaxed[i * n + i] = 0;
    for (const other of pool[i].record.met) {
      const j = index.get(other);
      if (j !== undefined) met[i * n + j] = 1;
    }
    for (const other of forbidden.get(pool[i].id) ?? []) {
      const j = index.get(other);
      if (j !== undefined) relaxed[i * n + j] = 0;
    }
  }
  const strict = relaxed.map((allowed, ij) => allowed & (met[ij] ^ 1));
  // S5.5: a score group is a run of equal TP in the ranked pool; group[i] is its first member.
  const group = new Int32Array(n);
  for (let i = 1; i < n; i++) group[i] = eq(pool[i].tp, pool[i - 1].tp) ? group[i - 1] : i;
  // S5.9 step 1: no PAB and no FORFEIT_WIN yet, or else the fewest of them; "the fewest" covers both.
  const fewest = Math.min(...pool.map((m) => m.record.unplayedPoints));
  const byeOrder: number[] = [];
  for (let i = n - 1; i >= 0; i--) if (pool[i].record.unplayedPoints === fewest) byeOrder.push(i);

  const phases: Phase[] = [
    { edges: strict, rematchesLast: false },
    { edges: relaxed, rematchesLast: true },
  ];
  const everyone = pool.map((_, i) => i);
  for (const phase of phases) {
    const matching = new Matching(n, phase.edges);
    const pairs = matching.maximize();
    let bye: number | null = null;
    if (n % 2 === 1) {
      // S5.9 steps 2-3: the worst-placed eligible member whose absence leaves a complete pairing.
      if (2 * pairs !== n - 1) continue;
      bye = byeOrder.find((b) => matching.removeKeepingPerfect(b)) ?? null;
      if (bye === null) continue;
    } else if (2 * pairs !== n) {
      continue;
    }
    const paired = firstPairing(
      everyone.filter((i) => i !== bye),
      matching,
      phase,
      met,
      group,
    );
    return { pairs: paired.map(([p, c]) => [pool[p].id, pool[c].id]), bye: bye === null ? null : pool[bye].id };
  }
  return null;
}

/**
 * S5.8: the first complete pairing in the search order of S5.7, for members that have a perfect
 * matching (kept in `matching`). Backtracking is replaced by an exact test: a candidate c of the
 * head p is taken iff p-c is allowed and the others can still all be paired, which is when the
 * kept matching survives losing p and c (one augmenting-path search, none when it pairs p-c).
 * The recursion would take the same c, so the result is the same.
 */
function firstPairing(members: number[], matching: Matching, phase: Phase, met: Uint8Array, group: Int32Array): [number, number][] {
  const n = group.length;
  const pairs: [number, number][] = [];
  let rest = members;
  while (rest.length > 0) {
    const p = rest[0];
    let chosen = -1;
    for (const c of candidates(rest, group, phase.rematchesLast ? met : null, n)) {
      if (phase.edges[p * n + c] && matching.removePairKeepingPerfect(p, c)) {
        chosen = c;
        break;
      }
    }
    // The kept matching pairs p with an allowed candidate, so some candidate always succeeds.
    pairs.push([p, chosen]);
    rest = rest.filter((i) => i !== p && i !== chosen);
  }
  return pairs;
}

/** S5.7 (and S5.10 step 2 when `met` is given: those p has not met first) for the head of `rest`. */
function* candidates(rest: readonly number[], group: Int32Array, met: Uint8Array | null, n: number): Generator<number> {
  if (met === null) {
    yield* candidateOrder(rest, group);
    return;
  }
  const p = rest[0];
  for (const c of candidateOrder(rest, group)) if (!met[p * n + c]) yield c;
  for (const c of candidateOrder(rest, group)) if (met[p * n + c]) yield c;
}

/** S5.7: p's score group G (bottom half from its top, then top half from its bottom), then everyone below. */
function* candidateOrder(rest: readonly number[], group: Int32Array): Generator<number> {
  let k = 1;
  while (k < rest.length && group[rest[k]] === group[rest[0]]) k++;
  const h = Math.floor(k / 2);
  if (h >= 1) {
    for (let i = h; i < k; i++) yield rest[i];
    for (let i = h - 1; i >= 1; i--) yield rest[i];
  }
  for (let i = k; i < rest.length; i++) yield rest[i];
}
