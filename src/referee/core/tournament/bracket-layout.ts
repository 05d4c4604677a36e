/**
 * The shape of the bracket formats' rounds, and nothing else (docs/rules/tournaments.md K6.2,
 * K6.10, K6.12): how large a bracket is, how many rounds and matches each part has, which
 * tournament round holds which bracket round. Kept apart from the rules that decide matches so
 * the web page draws a bracket with these very functions without loading the verifier's.
 */

/** K6.2: the smallest power of two >= n (n >= 2). */
export function bracketSize(n: number): number {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`a knockout needs at least 2 participants, not ${n}`);
  let s = 2;
  while (s < n) s *= 2;
  return s;
}

/** K6.2: log2(S) rounds for `count` participants. */
export const knockoutRoundCount = (count: number): number => Math.log2(bracketSize(count));

/** K6.7, K6.10: which bracket a match is in, as named in its LOTS label. */
export type BracketName = 'KO' | 'WB' | 'LB' | 'GF';

/** K6.10: LB rounds LB1..LB(2k-2) for S >= 4; none for S = 2. */
export const losersRoundCount = (size: number): number => (size >= 4 ? 2 * Math.log2(size) - 2 : 0);

/** K6.10: LB(2j-1) and LB(2j) each have S / 2^(j+1) matches. */
export const losersRoundMatches = (size: number, lbRound: number): number => size / 2 ** (Math.ceil(lbRound / 2) + 1);

/** One part of a tournament round: `matches` matches of one bracket round. */
export interface BracketPart {
  bracket: BracketName;
  bracketRound: number;
  matches: number;
}

/** K6.10, *In Arbiter*: what tournament round `round` holds, for a bracket of size S = `size`. */
export function doubleEliminationLayout(size: number, round: number): BracketPart[] {
  const k = Math.log2(size);
  if (round === 2 * k) return [{ bracket: 'GF', bracketRound: 1, matches: 1 }];
  if (round === 2 * k + 1) return [{ bracket: 'GF', bracketRound: 2, matches: 1 }];
  const parts: BracketPart[] = [];
  if (round <= k) parts.push({ bracket: 'WB', bracketRound: round, matches: size / 2 ** round });
  if (round - 1 >= 1 && round - 1 <= losersRoundCount(size)) parts.push({ bracket: 'LB', bracketRound: round - 1, matches: losersRoundMatches(size, round - 1) });
  return parts;
}

/** The organizer's choices: a group count, or a group size from which the count follows; and how many advance from each group. */
export interface GroupOptions {
  groupCount?: number;
  groupSize?: number;
  advancePerGroup: number;
}

/** K6.12: the group count for `n` participants: as configured, or ceil(n / groupSize). */
export const groupCountFor = (options: GroupOptions, n: number): number => options.groupCount ?? Math.ceil(n / (options.groupSize ?? 4));
