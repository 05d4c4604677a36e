import { fail, ok, type Result } from '../../../engines/kit/index.js';
import { isCleanText } from '../text.js';
import type { RoundSettings } from './events.js';
import type { TournamentState } from './state.js';

/**
 * Participants registered many at once (docs/organizing.md, "Registering many"): each row as one
 * registration would be, with an external id and the rounds it asks a bye for (P2.6). All rows or
 * none: every refusal is listed by its row, and nothing is stored while one is refused.
 */

const MAX_EXTERNAL_ID = 64;
/** Rows one bulk registration takes (a tournament takes 1000 participants, P2.8). */
export const BULK_LIMIT = 1000;

/** One row of a bulk registration, as a registration command carries it. */
export interface RegistrationExtras {
  externalId?: string | null;
  /** P2.6: rounds asked for a bye, Swiss and tables only. */
  requestedByes?: number[] | null;
}

/** A refused row: its number (1 = the first row), the refusal's code and message. */
export interface RowRefusal {
  row: number;
  code: string;
  message: string;
}

/** What is wrong with a row's player, external id and requested byes in this tournament, if anything. */
export function extrasProblem(t: TournamentState, extras: RegistrationExtras & { player?: string | null }): Result<null> {
  const { externalId, requestedByes } = extras;
  // A rated tournament's games are rated games, played between players only (docs/ratings.md).
  if (t.config.rated && !extras.player) return fail('RATED_NEEDS_PLAYERS', "a rated tournament registers players only: name the participant's player, or register with its key");
  if (externalId !== undefined && externalId !== null) {
    if (typeof externalId !== 'string' || externalId.length === 0 || externalId.length > MAX_EXTERNAL_ID || !isCleanText(externalId))
      return fail('INVALID_INPUT', `an external id is a text of 1 to ${MAX_EXTERNAL_ID} characters`);
    if (t.participants.some((p) => p.externalId === externalId)) return fail('EXTERNAL_ID_TAKEN', `a participant with external id ${externalId} is registered already`);
  }
  const byes = requestedByes ?? [];
  if (byes.length === 0) return ok(null);
  if (!['swiss', 'tables'].includes(t.config.format)) return fail('INVALID_INPUT', 'requested byes are for Swiss and tables tournaments (P2.6)');
  const next = t.rounds.length + 1;
  const last = t.totalRounds ?? t.config.rounds ?? next;
  if (byes.some((r) => !Number.isInteger(r) || r < next || r > last)) return fail('INVALID_INPUT', `requested byes are rounds ${next} to ${last}, the rounds still to pair`);
  if (new Set(byes).size !== byes.length) return fail('INVALID_INPUT', 'a round is asked for a bye twice');
  if (byes.length > t.config.maxRequestedByes) return fail('BYE_LIMIT', `a participant may ask for ${t.config.maxRequestedByes} requested bye(s) at most (P2.6)`);
  return ok(null);
}

/**
 * The settings round `round` is paired with once the byes participants asked for when they
 * registered are added (P2.6): null when none is missing. Whoever withdrew, or is placed by the
 * organizer's own settings for the round, is left as the organizer set it.
 */
export function withRegisteredByes(t: TournamentState, round: number): RoundSettings | null {
  const s: RoundSettings = t.settings[round] ?? { round, manualPairings: [], manualBye: null, manualTables: [], absent: [], requestedByes: [], forbiddenPairs: [], seeds: null };
  const placed = new Set([...s.manualPairings.flatMap((p) => [p.a, p.b]), ...(s.manualBye ? [s.manualBye] : []), ...s.manualTables.flat(), ...s.absent, ...s.requestedByes]);
  const missing = t.participants.filter((p) => p.withdrawnAfterRound === null && p.requestedByes?.includes(round) && !placed.has(p.id)).map((p) => p.id);
  return missing.length > 0 ? { ...s, requestedByes: [...s.requestedByes, ...missing] } : null;
}

/**
 * Every row's refusal, deciding the rows one after another on the tournament each accepted row
 * leaves (`decide` registers one row, or refuses it): empty when every row is taken.
 */
export function rowRefusals<S, Row>(t: S, rows: readonly Row[], decide: (t: S, row: Row) => Result<S>): RowRefusal[] {
  const refusals: RowRefusal[] = [];
  let state = t;
  rows.forEach((row, i) => {
    const next = decide(state, row);
    if (next.ok) state = next.value;
    else refusals.push({ row: i + 1, code: next.error.code, message: next.error.message });
  });
  return refusals;
}
