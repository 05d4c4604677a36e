import { fail, ok, type Result } from '../../../engines/kit/index.js';
import { canonicalJson } from '../canonical.js';
import { MALFORMED, type StoredEvent } from '../stream.js';
import type { TournamentEvent } from './events.js';
import { roundComplete } from './history.js';
import { checkInOpensAt, initialProgress, type ScheduleConfig, type ScheduleProgress } from './schedule-config.js';
import { currentRound, participantById, type RoundState, type TournamentState } from './state.js';

/**
 * A tournament that runs itself (docs/rules/tournaments.md §P2.9-P2.11), pure: how its timed
 * steps evolve the tournament and are checked when folded (each at or after its time, each from
 * the state it needs), which step is due at an instant, and the check-in and automatic-pairing
 * commands. The referee's own steps carry the actor null; an automatic pairing is recomputed on
 * folding exactly as the organizer's (V10.3).
 */

export type ScheduleEvent = Extract<TournamentEvent, { type: 'RegistrationOpened' | 'RegistrationClosed' | 'CheckInOpened' | 'ParticipantCheckedIn' | 'CheckInClosed' | 'RoundScheduled' }>;

export type ScheduleCommand = { type: 'CheckIn'; participantId: string } | { type: 'RunSchedule' };

const broken = (message: string): Result<never> => fail(MALFORMED, message);
const plusSeconds = (at: string, seconds: number): string => new Date(Date.parse(at) + seconds * 1000).toISOString();

/** Where a new tournament's steps stand: absent without a schedule. */
export const foundSchedule = (s: ScheduleConfig | undefined): { schedule?: ScheduleProgress } => (s ? { schedule: initialProgress(s) } : {});

/** P2.10: the participants still in who did not check in, in registration order. */
export const unconfirmed = (t: TournamentState): string[] => t.participants.filter((p) => p.withdrawnAfterRound === null && !(t.schedule?.checkedIn ?? []).includes(p.id)).map((p) => p.id);

/** The tournament after one of its timed steps or a check-in, or the rule the event breaks. */
export function evolveSchedule(t: TournamentState, e: ScheduleEvent, stored: Pick<StoredEvent, 'createdAt'>): Result<TournamentState> {
  const s = t.config.schedule;
  const p = t.schedule;
  if (!s || !p) return broken(`${e.type}: the tournament has no schedule (P2.9)`);
  const at = stored.createdAt;
  const next = (progress: Partial<ScheduleProgress>, rest: Partial<TournamentState> = {}): Result<TournamentState> => ok({ ...t, ...rest, schedule: { ...p, ...progress } });
  switch (e.type) {
    case 'RegistrationOpened':
      if (p.registration !== 'PENDING' || !s.registrationOpensAt || e.payload.opensAt !== s.registrationOpensAt) return broken('registration is not waiting to open (P2.9)');
      if (at < s.registrationOpensAt) return broken(`registration opened before ${s.registrationOpensAt} (P2.9)`);
      return next({ registration: 'OPEN' });
    case 'RegistrationClosed':
      if (p.registration === 'CLOSED' || !s.registrationClosesAt || e.payload.closesAt !== s.registrationClosesAt) return broken('registration has no closing time to reach (P2.9)');
      if (at < s.registrationClosesAt) return broken(`registration closed before ${s.registrationClosesAt} (P2.9)`);
      return next({ registration: 'CLOSED' });
    case 'CheckInOpened': {
      const opens = checkInOpensAt(s);
      if (p.checkIn !== 'PENDING' || !opens || t.rounds.length > 0 || e.payload.closesAt !== s.startAt) return broken('check-in is not waiting to open (P2.10)');
      if (at < opens) return broken(`check-in opened before ${opens} (P2.10)`);
      return next({ checkIn: 'OPEN' });
    }
    case 'ParticipantCheckedIn': {
      const who = participantById(t, e.payload.participantId);
      if (p.checkIn !== 'OPEN' || t.rounds.length > 0) return broken('a check-in while check-in is not open (P2.10)');
      if (!who || who.withdrawnAfterRound !== null || p.checkedIn.includes(who.id)) return broken(`participant ${e.payload.participantId} cannot check in (P2.10)`);
      return next({ checkedIn: [...p.checkedIn, who.id] });
    }
    case 'CheckInClosed': {
      if (p.checkIn !== 'OPEN' || t.rounds.length > 0 || !s.startAt) return broken('check-in is not open (P2.10)');
      if (at < s.startAt) return broken(`check-in closed before the start, ${s.startAt} (P2.10)`);
      const out = unconfirmed(t);
      if (canonicalJson(out) !== canonicalJson(e.payload.unconfirmed)) return broken('the participants withdrawn for not checking in are not those who did not (P2.10)');
      // P2.10 with P2.3: withdrawn before round 1, each of them.
      const participants = t.participants.map((x) => (out.includes(x.id) ? { ...x, withdrawnAfterRound: 0 } : x));
      return next({ checkIn: 'CLOSED' }, { participants });
    }
    case 'RoundScheduled': {
      const last = currentRound(t);
      if (!s.autoPair) return broken('rounds are scheduled only with autoPair (P2.11)');
      if (e.payload.round !== t.rounds.length + 1 || !last || !roundComplete(t, last)) return broken(`round ${e.payload.round} is not the one after a finished round (P2.11)`);
      if (t.totalRounds !== null && e.payload.round > t.totalRounds) return broken(`the tournament has ${t.totalRounds} rounds`);
      if (e.payload.at !== plusSeconds(at, s.pairingIntervalSeconds)) return broken(`round ${e.payload.round} is due ${s.pairingIntervalSeconds} s after round ${last.round} finished (P2.11)`);
      return next({ nextRound: { round: e.payload.round, at: e.payload.at } });
    }
  }
}

/**
 * The first round still being played: the current one, or with `scheduleAll` (P2.11) any round,
 * since every round of the round-robin is played at once; null when all have their results.
 */
export function unfinishedRound(t: TournamentState): RoundState | null {
  if (t.config.schedule?.scheduleAll) return t.rounds.find((r) => !roundComplete(t, r)) ?? null;
  const last = currentRound(t);
  return last && !roundComplete(t, last) ? last : null;
}

/** The rounds whose games are being played: the current one, or with `scheduleAll` every round (P2.11). */
export function playedRounds(t: TournamentState): RoundState[] {
  const last = currentRound(t);
  if (!last) return [];
  return t.config.schedule?.scheduleAll ? t.rounds : [last];
}

/** A round the referee paired (actor null) before it was due, or without a schedule saying so; null: in time, or the organizer's. */
export function pairedTooEarly(t: TournamentState, round: number, stored: Pick<StoredEvent, 'actor' | 'createdAt'>): string | null {
  if (stored.actor !== null) return null;
  const s = t.config.schedule;
  if (round === 1) return s?.startAt && stored.createdAt >= s.startAt ? null : 'round 1 was paired by the referee before the start (P2.9)';
  // Every round of a scheduleAll round-robin is paired with round 1 (P2.11).
  if (s?.scheduleAll) return null;
  const due = t.schedule?.nextRound;
  return s?.autoPair && due?.round === round && stored.createdAt >= due.at ? null : `round ${round} was paired by the referee before it was due (P2.11)`;
}

type Step = { at: string; event: ScheduleEvent | null };

/** The timed steps still to take, earliest first, each with the event it records (null: the pairing of the next round). */
export function pendingSteps(t: TournamentState): Step[] {
  const s = t.config.schedule;
  const p = t.schedule;
  if (!s || !p || t.finished) return [];
  const steps: Step[] = [];
  if (t.rounds.length === 0) {
    if (p.registration === 'PENDING' && s.registrationOpensAt) steps.push({ at: s.registrationOpensAt, event: { type: 'RegistrationOpened', payload: { opensAt: s.registrationOpensAt } } });
    if (p.registration !== 'CLOSED' && s.registrationClosesAt) steps.push({ at: s.registrationClosesAt, event: { type: 'RegistrationClosed', payload: { closesAt: s.registrationClosesAt } } });
    const opens = checkInOpensAt(s);
    if (p.checkIn === 'PENDING' && opens && s.startAt) steps.push({ at: opens, event: { type: 'CheckInOpened', payload: { closesAt: s.startAt } } });
    if ((p.checkIn === 'PENDING' || p.checkIn === 'OPEN') && s.startAt) steps.push({ at: s.startAt, event: { type: 'CheckInClosed', payload: { unconfirmed: unconfirmed(t) } } });
    // P2.9: the start pairs round 1 once check-in is over, with at least 2 participants in.
    const over = p.checkIn === 'NONE' || p.checkIn === 'CLOSED';
    const active = t.participants.filter((x) => x.withdrawnAfterRound === null).length;
    if (s.startAt && over && active >= 2) steps.push({ at: s.startAt, event: null });
  } else {
    const last = currentRound(t)!;
    const due = p.nextRound;
    if (s.autoPair && due && due.round === t.rounds.length + 1 && roundComplete(t, last)) steps.push({ at: due.at, event: null });
  }
  // Stable: at one instant, the order above (registration, check-in, start).
  return steps
    .map((step, i) => ({ step, i }))
    .sort((a, b) => (a.step.at < b.step.at ? -1 : a.step.at > b.step.at ? 1 : a.i - b.i))
    .map((x) => x.step);
}

/** When the tournament's next timed step is due (null: none is pending). */
export const nextStepAt = (t: TournamentState): string | null => pendingSteps(t)[0]?.at ?? null;

/** What the decider lends the schedule's commands: its state, its time and actor, and its own steps. */
export interface ScheduleHost<D> {
  readonly state: TournamentState;
  readonly now: string;
  readonly actor: { role: 'organizer' } | { role: 'participant'; participantId: string } | { role: 'referee' };
  apply(e: TournamentEvent): Result<D>;
  pair(round: number | null): Result<D>;
  done(): Result<D>;
}

/** A check-in, or the referee's steps due now (NOTHING_DUE when none is). */
export function decideSchedule<D>(host: ScheduleHost<D>, command: ScheduleCommand): Result<D> {
  if (command.type === 'CheckIn') return checkIn(host, command.participantId);
  if (host.actor.role !== 'referee') return fail('FORBIDDEN', "the schedule's steps are the referee's");
  let taken = 0;
  // Each step is decided from the state the one before left (check-in closed before round 1 is paired).
  for (let guard = 0; guard < 8; guard++) {
    const step = pendingSteps(host.state).find((x) => x.at <= host.now);
    if (!step) break;
    const r = step.event ? host.apply(step.event) : host.pair(null);
    if (!r.ok) return r;
    taken++;
  }
  return taken > 0 ? host.done() : fail('NOTHING_DUE', 'no step of the schedule is due');
}

function checkIn<D>(host: ScheduleHost<D>, participantId: string): Result<D> {
  const t = host.state;
  const a = host.actor;
  if (a.role === 'referee' || (a.role === 'participant' && a.participantId !== participantId)) return fail('FORBIDDEN', 'a participant checks itself in (or the organizer checks it in)');
  const who = participantById(t, participantId);
  if (!who) return fail('NOT_IN_TOURNAMENT', `participant ${participantId} is not in this tournament`);
  const p = t.schedule;
  const s = t.config.schedule;
  if (!p || !s || p.checkIn === 'NONE') return fail('CHECK_IN_CLOSED', 'this tournament has no check-in (P2.10)');
  if (p.checkIn === 'PENDING') return fail('CHECK_IN_CLOSED', `check-in opens at ${checkInOpensAt(s)} (P2.10)`);
  if (p.checkIn === 'CLOSED' || t.rounds.length > 0) return fail('CHECK_IN_CLOSED', `check-in closed at the start, ${s.startAt} (P2.10)`);
  if (who.withdrawnAfterRound !== null) return fail('ALREADY_WITHDRAWN', `${who.name} has withdrawn`);
  if (p.checkedIn.includes(participantId)) return fail('ALREADY_CHECKED_IN', `${who.name} has checked in already`);
  return host.apply({ type: 'ParticipantCheckedIn', payload: { participantId } });
}

/** P2.9: why a participant may not register itself now (null: it may). The organizer registers anyone until round 1 (P2.1). */
export function selfRegistrationRefused(t: TournamentState, now: string): Result<never> | null {
  const s = t.config.schedule;
  if (!s) return null;
  if (t.schedule?.registration === 'CLOSED' || (s.registrationClosesAt && now >= s.registrationClosesAt)) return fail('REGISTRATION_CLOSED', `registration closed at ${s.registrationClosesAt} (P2.9)`);
  if (s.registrationOpensAt && now < s.registrationOpensAt) return fail('REGISTRATION_CLOSED', `registration opens at ${s.registrationOpensAt} (P2.9)`);
  return null;
}

/**
 * P2.11: a round-robin scheduled at once pairs every round with round 1 (each pairing is the one
 * the round would have had, RR4). A finished round of an autoPair tournament with rounds to come
 * schedules the next one, `pairingIntervalSeconds` from now.
 */
export function scheduleNextRound<D>(host: ScheduleHost<D>): Result<D> {
  const t = host.state;
  const s = t.config.schedule;
  if (s?.scheduleAll && t.rounds.length > 0 && t.totalRounds !== null && t.rounds.length < t.totalRounds) return host.pair(null);
  const last = currentRound(t);
  const round = t.rounds.length + 1;
  if (!s?.autoPair || !last || t.finished || !roundComplete(t, last) || (t.totalRounds !== null && round > t.totalRounds) || t.schedule?.nextRound?.round === round) return host.done();
  return host.apply({ type: 'RoundScheduled', payload: { round, at: plusSeconds(host.now, s.pairingIntervalSeconds) } });
}
