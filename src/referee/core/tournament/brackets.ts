import { groupStageRoundCount, groupsOf } from './groups.js';
import { type DecidedMatch, firstRound, type KnockoutMatch, knockoutRoundCount, type MatchOpening, nextRound, thirdPlaceMatch } from './knockout.js';
import { type BoardState, type TournamentState, withdrawnBefore } from './state.js';
import type { Format } from './types.js';

/**
 * What every bracket format (knockout, double elimination) shares: a round's matches as boards,
 * and a board read back as a bracket match. Rules cited: docs/rules/tournaments.md §K6.
 */

/** Formats ranked by placings (K6.9, K6.10, K6.12) rather than standings. */
export const BRACKET_FORMATS: readonly Format[] = ['knockout', 'doubleElimination', 'groupsKnockout'];

export const isBracket = (format: Format): boolean => BRACKET_FORMATS.includes(format);

/** The rounds of a group stage (K6.12), 0 outside groupsKnockout or before round 1. */
export function groupStageRounds(t: TournamentState): number {
  if (t.config.format !== 'groupsKnockout') return 0;
  const groups = groupsOf(t);
  return groups ? groupStageRoundCount(groups) : 0;
}

/** Whether round `round`'s boards are matches that a winner leaves (K6.6-K6.8), not games that score: a group round's are not (round 1 always is one). */
export function matchesIn(t: TournamentState, round: number): boolean {
  if (t.config.format !== 'groupsKnockout') return t.config.format === 'knockout' || t.config.format === 'doubleElimination';
  const groups = groupsOf(t);
  return groups !== null && round > groupStageRoundCount(groups);
}

/** R3.7 with K6.4, K6.12: a result of round `round` can no longer be corrected once what it decided is paired (the bracket, or the knockout seeded from the groups). */
export function bracketStands(t: TournamentState, round: number): boolean {
  if (matchesIn(t, round)) return t.rounds.length > round;
  return t.config.format === 'groupsKnockout' && t.rounds.length > groupStageRounds(t);
}

/**
 * K6.3-K6.5, K6.11: the matches of round `round` of a knockout stage that starts with round
 * `start` from `seeds`: round 1 of the bracket from the seeds, later rounds from the winners, the
 * last one with the third-place match when the organizer asked for it.
 */
export function knockoutStageMatches(t: TournamentState, round: number, start: number, seeds: readonly string[]): KnockoutMatch[] {
  if (round === start) return firstRound(seeds);
  const previous = t.rounds[round - 2].boards;
  const matches = nextRound(previous.map((b) => b.winner ?? null));
  if (t.config.thirdPlaceMatch && round === start - 1 + knockoutRoundCount(seeds.length)) matches.push(thirdPlaceMatch(previous.map(boardMatch)));
  return matches;
}

export interface MatchBoard {
  seats: string[];
  games: string[][];
  manual: boolean;
  walkover: string | null;
}

/**
 * K6.5, K6.6, K6.8: the boards of a round's matches, in match order. A match facing an empty slot
 * has no game; a participant who withdrew forfeits its match (and its bye: nobody goes through).
 * The better side takes seat 0 in game 1, and seats alternate over `gamesPerMatch` games.
 */
export function matchBoards(t: TournamentState, round: number, matches: readonly KnockoutMatch[], open: (m: KnockoutMatch) => MatchOpening): MatchBoard[] {
  return matches.map((m) => {
    const opening = open(m);
    if (opening.kind === 'EMPTY') return { seats: [], games: [], manual: false, walkover: null };
    if (opening.kind === 'KO_BYE') return { seats: [opening.winner], games: [], manual: false, walkover: withdrawnBefore(t, opening.winner, round) ? opening.winner : null };
    const seats = [opening.betterSeed, opening.other];
    const walkover = seats.find((s) => withdrawnBefore(t, s, round)) ?? null;
    const games = walkover ? [] : Array.from({ length: t.config.gamesPerMatch }, (_, i) => (i % 2 === 0 ? seats : [seats[1], seats[0]]));
    return { seats, games, manual: false, walkover };
  });
}

/** A board as a bracket match: its seats as slots and its winner (undefined while it is played). */
export const boardMatch = (b: BoardState): DecidedMatch => ({ match: b.board, slots: [b.seats[0] ?? null, b.seats[1] ?? null], winner: b.winner as DecidedMatch['winner'] });
