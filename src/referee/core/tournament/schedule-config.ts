import { fail, ok, type Result } from '../../../engines/kit/index.js';

/**
 * An event that runs itself (docs/rules/tournaments.md §P2.9-P2.11): its start, its registration
 * window, its check-in and its automatic pairings, fixed at creation and recorded in
 * TournamentCreated's configuration (`config.schedule`, written only when given, so the
 * configurations recorded before it stay complete). Times are ISO 8601 instants (UTC, ms).
 */
export interface ScheduleConfig {
  /** P2.9: round 1 is paired by the referee at this instant (with at least 2 participants in). */
  startAt: string | null;
  /** P2.9: participants may register themselves from this instant (null: from creation). */
  registrationOpensAt: string | null;
  /** P2.9: ... until this one (null: until round 1 is paired, P2.1). */
  registrationClosesAt: string | null;
  /** P2.10: check-in opens this many minutes before startAt; the unconfirmed are withdrawn at the start. Null: no check-in. */
  checkInMinutes: number | null;
  /** P2.11: the next round is paired by the referee when the current one finishes. */
  autoPair: boolean;
  /** P2.11: ... at least this many seconds after it finished. */
  pairingIntervalSeconds: number;
  /** P2.11: a round-robin's every round is paired with round 1, its games all created at once. */
  scheduleAll: boolean;
}

export interface ScheduleInput {
  startAt?: unknown;
  registrationOpensAt?: unknown;
  registrationClosesAt?: unknown;
  checkInMinutes?: unknown;
  autoPair?: unknown;
  pairingIntervalSeconds?: unknown;
  scheduleAll?: unknown;
}

/** Where a scheduled tournament's steps stand (folded from its events; absent without a schedule). */
export interface ScheduleProgress {
  registration: 'PENDING' | 'OPEN' | 'CLOSED';
  checkIn: 'NONE' | 'PENDING' | 'OPEN' | 'CLOSED';
  /** P2.10: who confirmed, in the order they did. */
  checkedIn: string[];
  /** P2.11: the round the referee pairs next, and from when (RoundScheduled). */
  nextRound: { round: number; at: string } | null;
}

/** A week: the longest check-in and the longest wait between two rounds. */
const MAX_CHECK_IN_MINUTES = 7 * 24 * 60;
const MAX_INTERVAL_SECONDS = 7 * 86_400;

const invalid = (message: string): Result<never> => fail('INVALID_INPUT', message);

/** An instant in its stored form (`toISOString`), null when absent, undefined when it is not one. */
function instant(input: unknown): string | null | undefined {
  if (input === undefined || input === null) return null;
  if (typeof input !== 'string') return undefined;
  const ms = Date.parse(input);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** The complete schedule (null: none was given), or the first thing wrong with it. */
export function parseSchedule(input: unknown, format: string): Result<ScheduleConfig | null> {
  if (input === undefined || input === null) return ok(null);
  if (typeof input !== 'object' || Array.isArray(input))
    return invalid('schedule: an object with startAt, registrationOpensAt, registrationClosesAt, checkInMinutes, autoPair, pairingIntervalSeconds, scheduleAll');
  const s = input as ScheduleInput;
  const known = ['startAt', 'registrationOpensAt', 'registrationClosesAt', 'checkInMinutes', 'autoPair', 'pairingIntervalSeconds', 'scheduleAll'];
  const unknown = Object.keys(s).find((k) => !known.includes(k));
  if (unknown) return invalid(`schedule: unknown option ${unknown}; it takes ${known.join(', ')}`);
  const startAt = instant(s.startAt);
  const opensAt = instant(s.registrationOpensAt);
  const closesAt = instant(s.registrationClosesAt);
  if (startAt === undefined || opensAt === undefined || closesAt === undefined)
    return invalid('schedule: startAt, registrationOpensAt and registrationClosesAt are ISO 8601 instants (e.g. 2026-12-24T18:00:00Z)');
  if (opensAt && closesAt && opensAt >= closesAt) return invalid('schedule: registration closes after it opens (P2.9)');
  if (startAt && closesAt && closesAt > startAt) return invalid('schedule: registration closes at the start or before (P2.9)');
  if (startAt && opensAt && opensAt >= startAt) return invalid('schedule: registration opens before the start (P2.9)');
  const checkIn = s.checkInMinutes ?? null;
  if (checkIn !== null && !(Number.isInteger(checkIn) && (checkIn as number) >= 1 && (checkIn as number) <= MAX_CHECK_IN_MINUTES))
    return invalid(`schedule.checkInMinutes: 1 to ${MAX_CHECK_IN_MINUTES} (P2.10)`);
  if (checkIn !== null && !startAt) return invalid('schedule.checkInMinutes: check-in is a window before the start: give startAt (P2.10)');
  if (s.autoPair !== undefined && s.autoPair !== null && typeof s.autoPair !== 'boolean') return invalid('schedule.autoPair: true or false');
  const autoPair = s.autoPair === true;
  const interval = s.pairingIntervalSeconds ?? 0;
  if (!(Number.isInteger(interval) && (interval as number) >= 0 && (interval as number) <= MAX_INTERVAL_SECONDS))
    return invalid(`schedule.pairingIntervalSeconds: 0 to ${MAX_INTERVAL_SECONDS} (P2.11)`);
  if (interval !== 0 && !autoPair) return invalid('schedule.pairingIntervalSeconds: the wait before an automatic pairing needs autoPair (P2.11)');
  if (s.scheduleAll !== undefined && s.scheduleAll !== null && typeof s.scheduleAll !== 'boolean') return invalid('schedule.scheduleAll: true or false');
  const scheduleAll = s.scheduleAll === true;
  if (scheduleAll && format !== 'roundRobin' && format !== 'doubleRoundRobin') return invalid('schedule.scheduleAll: only a round-robin has every round known in advance (P2.11, RR4)');
  return ok({
    startAt,
    registrationOpensAt: opensAt,
    registrationClosesAt: closesAt,
    checkInMinutes: checkIn as number | null,
    autoPair,
    pairingIntervalSeconds: interval as number,
    scheduleAll,
  });
}

/** P2.10: when check-in opens (null: no check-in). */
export function checkInOpensAt(s: ScheduleConfig): string | null {
  return s.checkInMinutes !== null && s.startAt ? new Date(Date.parse(s.startAt) - s.checkInMinutes * 60_000).toISOString() : null;
}

/** Where a new tournament's steps stand. */
export function initialProgress(s: ScheduleConfig): ScheduleProgress {
  return { registration: s.registrationOpensAt ? 'PENDING' : 'OPEN', checkIn: s.checkInMinutes !== null ? 'PENDING' : 'NONE', checkedIn: [], nextRound: null };
}
