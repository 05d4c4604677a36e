import type { DecidedMatch, KnockoutMatch, MatchOpening } from './knockout.js';
import { type BoardState, type TournamentState, withdrawnBefore } from './state.js';
import type { Format } from './types.js';

/**
 * What every bracket format (knockout, double elimination) shares: a round's matches as boards,
 * and a board read back as a bracket match. Rules cited: docs/rules/tournaments.md §K6.
 */

/** Formats whose boards are matches that a winner leaves (K6.6-K6.8) rather than games that score. */
export const BRACKET_FORMATS: readonly Format[] = ['knockout', 'doubleElimination'];

export const isBracket = (format: Format): boolean => BRACKET_FORMATS.includes(format);

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
