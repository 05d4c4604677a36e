import { checkInOpensAt, nextStepAt, type TournamentState } from '../referee/index.js';
import type { TournamentSchedule } from './models/schedule.js';

const dateOf = (iso: string | null): Date | null => (iso === null ? null : new Date(iso));

/** A scheduled tournament's schedule and where its steps stand, for GraphQL and REST alike (null: none). */
export function scheduleView(t: TournamentState): TournamentSchedule | null {
  const s = t.config.schedule;
  const p = t.schedule;
  if (!s || !p) return null;
  return {
    startAt: dateOf(s.startAt),
    registrationOpensAt: dateOf(s.registrationOpensAt),
    registrationClosesAt: dateOf(s.registrationClosesAt),
    // Round 1 paired closes registration (P2.1) and check-in with it.
    registration: t.rounds.length > 0 ? 'CLOSED' : p.registration,
    checkInOpensAt: dateOf(checkInOpensAt(s)),
    checkIn: t.rounds.length > 0 && p.checkIn !== 'NONE' ? 'CLOSED' : p.checkIn,
    checkedIn: p.checkedIn,
    autoPair: s.autoPair,
    pairingIntervalSeconds: s.pairingIntervalSeconds,
    scheduleAll: s.scheduleAll,
    nextRound: p.nextRound && p.nextRound.round === t.rounds.length + 1 ? p.nextRound.round : null,
    nextStepAt: dateOf(nextStepAt(t)),
  };
}
