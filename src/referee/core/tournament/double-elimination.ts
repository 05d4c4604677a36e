import { ok, type Result } from '../../../engines/kit/index.js';
import { doubleEliminationLayout } from './bracket-layout.js';
import { boardMatch, type MatchBoard, matchBoards } from './brackets.js';
import {
  bracketSize,
  type DecidedMatch,
  doubleEliminationPlacings,
  firstRound,
  grandFinal,
  type KnockoutMatch,
  knockoutSeeds,
  koTieLabel,
  losersRound,
  matchLosers,
  nextRound,
  openGrandFinal,
  openMatch,
  type Placing,
  secondGrandFinalNeeded,
  winnersRoundFeeding,
} from './knockout.js';
import type { Lots } from './lots.js';
import type { TournamentState } from './state.js';

/**
 * Double elimination (K6.10 in docs/rules/tournaments.md) as tournament rounds: its schedule
 * (K6.10, *In Arbiter*), each round's matches from the bracket so far, the match label for a tie's
 * lot, when the event is over, and its placings. knockout.ts has the bracket rules themselves.
 *
 * The schedule: round r holds WB round r (r <= k) and then LB round r-1 (1 <= r-1 <= 2k-2), so a
 * bracket round is paired as soon as what feeds it is decided; the first grand final is round 2k
 * and the second (bracket reset) round 2k+1. Boards are numbered WB matches first, then LB matches.
 */

export { type BracketPart, doubleEliminationLayout } from './bracket-layout.js';

/** The most rounds an event can take: the second grand final is played only after a reset (K6.10). */
export const doubleEliminationRounds = (count: number, bracketReset: boolean): number => 2 * Math.log2(bracketSize(count)) + (bracketReset ? 1 : 0);

/** The bracket so far, from the rounds paired: WB and LB rounds and grand finals, as matches (winner undefined while played). */
export function bracketOf(t: TournamentState): { size: number; wb: DecidedMatch[][]; lb: DecidedMatch[][]; gf: DecidedMatch[] } {
  const size = bracketSize(t.rounds[0].order!.length);
  const wb: DecidedMatch[][] = [];
  const lb: DecidedMatch[][] = [];
  const gf: DecidedMatch[] = [];
  for (const round of t.rounds) {
    let next = 0;
    for (const part of doubleEliminationLayout(size, round.round)) {
      const matches = round.boards.slice(next, next + part.matches).map((b, i) => ({ ...boardMatch(b), match: i + 1 }));
      next += part.matches;
      if (part.bracket === 'WB') wb[part.bracketRound - 1] = matches;
      else if (part.bracket === 'LB') lb[part.bracketRound - 1] = matches;
      else gf.push(...matches);
    }
  }
  return { size, wb, lb, gf };
}

/** K6.10 with K6.7: the lot label of board `board` of round `round` (`ko-tie|LB|r3|m2`). */
export function doubleEliminationLabel(t: TournamentState, round: number, board: number): string {
  const size = bracketSize(t.rounds[0].order!.length);
  let first = 1;
  for (const part of doubleEliminationLayout(size, round)) {
    if (board < first + part.matches) return koTieLabel(part.bracket, part.bracketRound, board - first + 1);
    first += part.matches;
  }
  throw new RangeError(`round ${round} of a double elimination has no board ${board}`);
}

/** K6.10: round `round`'s boards: round 1 from the seeds (K6.1), later ones from the bracket so far. */
export function doubleEliminationBoards(t: TournamentState, round: number, lots: Lots): Result<{ boards: MatchBoard[]; order?: string[] }> {
  if (round === 1) {
    const entrants = t.participants.filter((p) => p.withdrawnAfterRound === null);
    const seeded = knockoutSeeds(entrants, t.config.koSeeding, lots, t.settings[1]?.seeds ?? undefined);
    if (!seeded.ok) return seeded;
    const seeds = seeded.value;
    return ok({ boards: matchBoards(t, 1, firstRound(seeds), (m) => openMatch(m, seeds)), order: seeds });
  }
  const seeds = t.rounds[0].order!;
  const { size, wb, lb, gf } = bracketOf(t);
  const winners = (matches: readonly DecidedMatch[]) => matches.map((m) => m.winner ?? null);
  const boards: MatchBoard[] = [];
  for (const part of doubleEliminationLayout(size, round)) {
    let matches: KnockoutMatch[];
    if (part.bracket === 'WB') matches = nextRound(winners(wb[part.bracketRound - 2]));
    else if (part.bracket === 'LB') {
      const j = part.bracketRound;
      const feeding = winnersRoundFeeding(j);
      matches = losersRound(j, j === 1 ? [] : winners(lb[j - 2]), feeding === null ? [] : matchLosers(wb[feeding - 1]));
    } else if (part.bracketRound === 1) {
      const lbChampion = size === 2 ? matchLosers(wb[0])[0] : (lb[lb.length - 1][0].winner ?? null);
      matches = [grandFinal(wb[wb.length - 1][0].winner ?? null, lbChampion)];
    } else matches = [grandFinal(gf[0].slots[0], gf[0].slots[1])];
    boards.push(...matchBoards(t, round, matches, part.bracket === 'GF' ? openGrandFinal : (m) => openMatch(m, seeds)));
  }
  return ok({ boards });
}

/** K6.10: over once the last grand final is decided: the first, unless the LB champion won it and a reset follows. */
export function doubleEliminationOver(t: TournamentState): boolean {
  if (!t.rounds[0]?.order) return false;
  const { gf } = bracketOf(t);
  const last = gf[gf.length - 1];
  if (!last || last.winner === undefined) return false;
  return gf.length === 2 || !secondGrandFinalNeeded(last, t.config.bracketReset !== false);
}

/** K6.10 placings of the bracket so far: only who is out, and the champion once it is over. */
export function doubleEliminationPlacingsOf(t: TournamentState): Placing[] {
  if (!t.rounds[0]?.order) return [];
  const { size, wb, lb, gf } = bracketOf(t);
  return doubleEliminationPlacings(size, wb, lb, gf, t.config.bracketReset !== false);
}
