import type { Lots } from './lots.js';
import type { Participant } from './types.js';

/**
 * Round-robin (section 4 of docs/rules/tournaments.md): pairing numbers and the Berger schedule.
 * Pairing numbers run 1..N; the schedule speaks in numbers only, and `roundRobinNumbers` says
 * which participant holds each one. The schedule is fixed in advance (RR4.6).
 */

/** RR4.1: `lots` (default) or the ranking order T1.12. */
export type RoundRobinNumbering = 'lots' | 'rating';

/** One tournament round: its games in board order (seat 0 first) and who rests (RR4.4). */
export interface RoundRobinRound {
  round: number;
  boards: { seats: [number, number] }[];
  /** The number paired with the dummy when N is odd; null when N is even. */
  rest: number | null;
}

/**
 * RR4.1: the participant ids in pairing-number order (index 0 holds number 1). The input is
 * sorted by registrationNo first, so the caller's order never changes the outcome.
 */
export function roundRobinNumbers(participants: readonly Participant[], mode: RoundRobinNumbering, lots: Lots): string[] {
  const byRegistration = [...participants].sort((a, b) => a.registrationNo - b.registrationNo);
  if (mode === 'lots') return lots.shuffle('rr-numbers', byRegistration).map((p) => p.id);
  // T1.12 before round 1: everyone has 0 TP, so rating then registrationNo decide.
  return byRegistration.sort((a, b) => b.rating - a.rating || a.registrationNo - b.registrationNo).map((p) => p.id);
}

/** RR4.2: the even table size, counting the dummy number when N is odd. */
const tableSize = (count: number): number => (count % 2 === 0 ? count : count + 1);

/** RR4.2, RR4.5: m rounds per cycle, two cycles in a double round-robin. */
export function roundRobinRoundCount(count: number, double: boolean): number {
  if (!Number.isInteger(count) || count < 2) throw new RangeError(`a round-robin needs at least 2 participants, not ${count}`);
  return (tableSize(count) - 1) * (double ? 2 : 1);
}

/** RR4.2: Berger round r (1..n-1) for an even n, as [seat 0, seat 1] pairs in board order. */
export function bergerRound(n: number, r: number): [number, number][] {
  if (!Number.isInteger(n) || n < 2 || n % 2 !== 0) throw new RangeError(`Berger tables need an even n >= 2, not ${n}`);
  if (!Number.isInteger(r) || r < 1 || r > n - 1) throw new RangeError(`Berger round ${r} is outside 1..${n - 1}`);
  const m = n - 1;
  const h = n / 2;
  const base = (r - 1) * h;
  // JavaScript's % keeps the dividend's sign; RR4.2 wants results in 0..m-1.
  const mod = (x: number): number => ((x % m) + m) % m;
  const x = 1 + mod(base);
  const boards: [number, number][] = [r % 2 === 1 ? [x, n] : [n, x]];
  for (let b = 2; b <= h; b++) boards.push([1 + mod(base + b - 1), 1 + mod(base - b + 1)]);
  return boards;
}

/** RR4.2-RR4.5: tournament round `round` (1-based) for `count` participants. */
export function roundRobinRound(count: number, double: boolean, round: number): RoundRobinRound {
  const rounds = roundRobinRoundCount(count, double);
  if (!Number.isInteger(round) || round < 1 || round > rounds) throw new RangeError(`round ${round} is outside 1..${rounds}`);
  const n = tableSize(count);
  const m = n - 1;
  const secondCycle = round > m;
  let berger = secondCycle ? round - m : round;
  // RR4.5: cycle 1 of a double round-robin plays its last two rounds swapped (m >= 3).
  if (double && !secondCycle && m >= 3 && berger >= m - 1) berger = berger === m ? m - 1 : m;
  let rest: number | null = null;
  const boards: { seats: [number, number] }[] = [];
  for (const [a, b] of bergerRound(n, berger)) {
    // RR4.4: with odd N, number n is the dummy and its opponent rests.
    if (n !== count && (a === n || b === n)) rest = a === n ? b : a;
    else boards.push({ seats: secondCycle ? [b, a] : [a, b] });
  }
  return { round, boards, rest };
}

/** The whole schedule, rounds 1..m (or 1..2m for a double round-robin). */
export function roundRobinSchedule(count: number, double: boolean): RoundRobinRound[] {
  return Array.from({ length: roundRobinRoundCount(count, double) }, (_, i) => roundRobinRound(count, double, i + 1));
}
