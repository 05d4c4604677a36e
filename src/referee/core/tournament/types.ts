import type { Rational } from './rational.js';

/**
 * The tournament vocabulary shared by pairing, seating, brackets and standings (rule numbers
 * from docs/rules/tournaments.md). Everything here is plain data: the aggregate builds it from its
 * events, the formats and standings read it, and the offline verifier rebuilds it the same way.
 */

export type Format = 'roundRobin' | 'doubleRoundRobin' | 'swiss' | 'knockout' | 'doubleElimination' | 'groupsKnockout' | 'tables';

/** Formats whose games have exactly two seats (T1.3). */
export const TWO_SEAT_FORMATS: readonly Format[] = ['roundRobin', 'doubleRoundRobin', 'swiss', 'knockout', 'doubleElimination', 'groupsKnockout'];

/** T1.2: a registered entrant. */
export interface Participant {
  id: string;
  /** 1, 2, 3... in order of registration, never reused. */
  registrationNo: number;
  /** 0 when unrated. */
  rating: number;
  /** 1 unless a late entry (P2.2). */
  entryRound: number;
  /** P2.3: not paired from the round after this one on. */
  withdrawnAfterRound: number | null;
}

/** T1.8: tournament points for a 2-seat result. */
export interface PointValues {
  win: Rational;
  draw: Rational;
  loss: Rational;
}

/** R3.1: what one participant's round was. */
export type EntryKind = 'PLAYED' | 'FORFEIT_WIN' | 'FORFEIT_LOSS' | 'DOUBLE_FORFEIT' | 'PAB' | 'REQUESTED_BYE' | 'ABSENT' | 'REST';

/** TB8.5: unplayed rounds the participant chose (cut first by BH-C1). */
export const VOLUNTARILY_UNPLAYED: ReadonlySet<EntryKind> = new Set(['FORFEIT_LOSS', 'DOUBLE_FORFEIT', 'REQUESTED_BYE', 'ABSENT']);

/**
 * One participant's entry for one round (R3.1, R3.5). Every participant has exactly one entry
 * per round with results, `ABSENT` before entry and after withdrawal included.
 */
export interface RoundEntry {
  round: number;
  kind: EntryKind;
  /** Tournament points earned this round (placement points at a table). */
  tp: Rational;
  /**
   * 2-seat formats: the scheduled opponent (PLAYED and forfeits), none for byes, absences, REST.
   * Tables: the table-mates who played at the same table (PLAYED only).
   */
  opponents: string[];
  /** Seat in the game (PLAYED only; forfeits do not count for seat balance, R3.3). */
  seat: number | null;
  /** 2-seat PLAYED: the game's result for this participant. */
  result: 'win' | 'draw' | 'loss' | null;
  /** PLAYED only (R3.4): backgammon points won, Cerke final points, Chicken Foot pips. */
  gamePoints: Rational | null;
  /** Tables PLAYED: first place, alone or shared (the WON tie-break). */
  firstPlace: boolean;
}

/** An entry with nothing but its kind and points: no opponent, seat, result or game points unless given. */
export const roundEntry = (round: number, kind: EntryKind, tp: Rational, rest: Partial<RoundEntry> = {}): RoundEntry => ({
  round,
  kind,
  tp,
  opponents: [],
  seat: null,
  result: null,
  gamePoints: null,
  firstPlace: false,
  ...rest,
});

/** Every participant's entries, in round order (index 0 = round 1). */
export type History = ReadonlyMap<string, readonly RoundEntry[]>;

/** A pairing of two participants (2-seat formats): seat 0 first. */
export interface Pairing {
  seats: [string, string];
}

/** A table (tables format): participants in seat order. */
export interface Table {
  seats: string[];
}

/** TB8.3: the tie-breaks an organizer may list. */
export type TieBreak = 'BH' | 'BH-C1' | 'SB' | 'DE' | 'WON' | 'GP' | 'LOTS';

/** Whether more game points are better (backgammon, Cerke) or fewer (Chicken Foot pips). */
export type GamePointsOrder = 'higher' | 'lower';
