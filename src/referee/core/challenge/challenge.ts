import { fail, ok, type Result } from '../../../engines/kit/index.js';
import type { EngineRegistry } from '../engine-registry.js';
import { parseTimeControl, storedTimeControl, type TimeControl } from '../game/clock.js';
import { type Aggregate, type DraftEvent, decodeTyped, type Folded, foldStream, MALFORMED, type PayloadChecks, type StoredEvent } from '../stream.js';
import { isCleanText } from '../text.js';

/**
 * A challenge (docs/players.md, "Challenges"): a player offers another player (or, open, anyone)
 * a game of a kind, ruleset and clock; the other accepts, and the game is created with both seats
 * bound, or declines; the challenger may cancel; past its expiry nobody may accept it. Its own
 * hash-chained stream, like an account's. Time comes in as `now` (expiry is read from it, no
 * worker closes a challenge), the accepted game's id and a random seat's coin with the command.
 */

/** The challenger's seat: the first (seat 0, who usually moves first), the second, or drawn at acceptance. */
export const SEAT_CHOICES = ['first', 'second', 'random'] as const;
export type SeatChoice = (typeof SEAT_CHOICES)[number];

export const MESSAGE_MAX = 500;
export const REASON_MAX = 500;
const MINUTE = 60;
const DAY = 86_400;
/** A challenge stands 7 days unless its challenger says otherwise: from 1 minute to 30 days. */
export const EXPIRY_DEFAULT_SECONDS = 7 * DAY;
export const EXPIRY_LIMITS = [MINUTE, 30 * DAY] as const;

/** The game a challenge offers, as checked when it is issued: a kind this referee plays, its resolved ruleset (two seats), its clock. */
export type ChallengeGame = {
  kind: string;
  ruleset: unknown;
  timeControl: TimeControl | null;
  /** The game is created rated (docs/ratings.md); absent: unrated (and every challenge issued before ratings). */
  rated?: true;
};

/** OPEN until accepted, declined or cancelled; an OPEN challenge past its expiry reads EXPIRED. */
export type ChallengeStatus = 'OPEN' | 'ACCEPTED' | 'DECLINED' | 'CANCELLED' | 'EXPIRED';

export interface ChallengeState extends ChallengeGame {
  challengeId: string;
  /** When it was issued (its first event's time). */
  issuedAt: string;
  challengerId: string;
  /** The player challenged; null for an open challenge (any other player may accept it). */
  challengedId: string | null;
  seat: SeatChoice;
  message: string | null;
  expiresAt: string;
  status: Exclude<ChallengeStatus, 'EXPIRED'>;
  /** Once accepted: who accepted, the game's id and the challenger's seat in it. */
  acceptedBy: string | null;
  gameId: string | null;
  challengerSeat: number | null;
  /** A decline's reason, if one was given. */
  reason: string | null;
}

export type ChallengeEvent =
  | { type: 'ChallengeIssued'; payload: { challengerId: string; challengedId: string | null; seat: SeatChoice; message: string | null; expiresAt: string } & ChallengeGame }
  | { type: 'ChallengeAccepted'; payload: { by: string; gameId: string; challengerSeat: number } }
  | { type: 'ChallengeDeclined'; payload: { reason: string | null } }
  | { type: 'ChallengeCancelled'; payload: Record<string, never> };

export type ChallengeCommand =
  | {
      type: 'IssueChallenge';
      challengerId: string;
      challengedId: string | null;
      game: ChallengeGame;
      seat: SeatChoice;
      message: string | null;
      /** Omitted: EXPIRY_DEFAULT_SECONDS. */
      expiresInSeconds: number | null;
    }
  /** `gameId`: the id the game is to be created with; `coin`: the challenger's seat (0 or 1) if its choice is random. */
  | { type: 'AcceptChallenge'; playerId: string; gameId: string; coin: number }
  | { type: 'DeclineChallenge'; playerId: string; reason: string | null }
  | { type: 'CancelChallenge'; playerId: string };

export interface ChallengeDecision {
  state: ChallengeState;
  drafts: DraftEvent[];
}

const isNullableString = (v: unknown) => v === null || typeof v === 'string';
const isSeatChoice = (v: unknown): v is SeatChoice => (SEAT_CHOICES as readonly unknown[]).includes(v);

const REQUIRED: PayloadChecks<ChallengeEvent['type']> = {
  ChallengeIssued: (p) =>
    typeof p.challengerId === 'string' &&
    isNullableString(p.challengedId) &&
    typeof p.kind === 'string' &&
    'ruleset' in p &&
    (p.timeControl === null || storedTimeControl(p.timeControl) !== null) &&
    isSeatChoice(p.seat) &&
    isNullableString(p.message) &&
    typeof p.expiresAt === 'string' &&
    (p.rated === undefined || p.rated === true),
  ChallengeAccepted: (p) => typeof p.by === 'string' && typeof p.gameId === 'string' && (p.challengerSeat === 0 || p.challengerSeat === 1),
  ChallengeDeclined: (p) => isNullableString(p.reason),
  ChallengeCancelled: () => true,
};

export const decodeChallengeEvent = (e: Pick<StoredEvent, 'type' | 'payload'>): Result<ChallengeEvent> => decodeTyped<ChallengeEvent>('challenge', REQUIRED, e);

function found(challengeId: string, first: ChallengeEvent, issuedAt: string): Result<ChallengeState> {
  if (first.type !== 'ChallengeIssued') return fail(MALFORMED, `a challenge's first event must be ChallengeIssued, found ${first.type}`);
  const p = first.payload;
  return ok({
    challengeId,
    issuedAt,
    challengerId: p.challengerId,
    challengedId: p.challengedId,
    kind: p.kind,
    ruleset: p.ruleset,
    timeControl: p.timeControl === null ? null : storedTimeControl(p.timeControl),
    ...(p.rated ? { rated: true as const } : {}),
    seat: p.seat,
    message: p.message,
    expiresAt: p.expiresAt,
    status: 'OPEN',
    acceptedBy: null,
    gameId: null,
    challengerSeat: null,
    reason: null,
  });
}

/** The one transition, for deciding and folding alike: only an open challenge changes, once. */
export function evolveChallenge(c: ChallengeState, e: ChallengeEvent): Result<ChallengeState> {
  if (e.type === 'ChallengeIssued') return fail(MALFORMED, 'the challenge was issued already');
  if (c.status !== 'OPEN') return fail('CHALLENGE_CLOSED', `the challenge was ${c.status.toLowerCase()} already`);
  switch (e.type) {
    case 'ChallengeAccepted':
      return ok({ ...c, status: 'ACCEPTED', acceptedBy: e.payload.by, gameId: e.payload.gameId, challengerSeat: e.payload.challengerSeat });
    case 'ChallengeDeclined':
      return ok({ ...c, status: 'DECLINED', reason: e.payload.reason });
    case 'ChallengeCancelled':
      return ok({ ...c, status: 'CANCELLED' });
  }
}

export const challengeAggregate: Aggregate<ChallengeState, ChallengeEvent, null> = {
  decode: decodeChallengeEvent,
  found: (id, first) => found(id, first, ''),
  evolve: (c, e) => evolveChallenge(c, e),
  follows: () => false,
};

/** The status as read at `now`: an open challenge past its expiry is EXPIRED. */
export const statusAt = (c: Pick<ChallengeState, 'status' | 'expiresAt'>, now: string): ChallengeStatus => (c.status === 'OPEN' && Date.parse(now) >= Date.parse(c.expiresAt) ? 'EXPIRED' : c.status);

/**
 * Checks the game a challenge offers as createGame checks it (a known kind, a ruleset its engine
 * takes, a time control), and that it is a game for two: a bad offer is refused when issued, not
 * when accepted. The ruleset is kept resolved, as the game will store it.
 */
export function checkChallengeGame(registry: EngineRegistry, kind: string, ruleset: unknown, timeControl: unknown, rated = false): Result<ChallengeGame> {
  const engine = registry.get(kind);
  if (!engine) return fail('INVALID_INPUT', `unknown game kind "${kind}"; this referee plays: ${registry.kinds().join(', ')}`);
  const resolved = engine.parseRuleset(ruleset ?? {});
  if (!resolved.ok) return resolved;
  const seats = engine.seatCount(resolved.value);
  if (seats !== 2) return fail('INVALID_INPUT', `a challenge is a game for two; this ruleset has ${seats} seats`);
  const clock = parseTimeControl(timeControl);
  if (!clock.ok) return clock;
  return ok(rated ? { kind, ruleset: resolved.value, timeControl: clock.value, rated: true } : { kind, ruleset: resolved.value, timeControl: clock.value });
}

/** A time control as createGame takes it (in seconds), from the form a challenge keeps. */
export function timeControlInput(c: TimeControl | null): unknown {
  if (!c) return null;
  if (c.kind === 'fischer') return { kind: c.kind, baseSeconds: c.baseMs / 1000, incrementSeconds: c.incrementMs / 1000 };
  return { kind: c.kind, perMoveSeconds: c.perMoveMs / 1000, bankCapSeconds: c.bankCapMs === null ? null : c.bankCapMs / 1000, vacationSeconds: c.vacationMs / 1000 };
}

function checkText(text: string | null, max: number, what: string): Result<string | null> {
  if (text === null) return ok(null);
  const trimmed = text.trim();
  if (trimmed === '') return ok(null);
  if (trimmed.length > max || !isCleanText(trimmed)) return fail('INVALID_INPUT', `${what} is at most ${max} characters, without control characters`);
  return ok(trimmed);
}

function issue(c: Extract<ChallengeCommand, { type: 'IssueChallenge' }>, now: string): Result<ChallengeEvent> {
  if (c.challengedId === c.challengerId) return fail('OWN_CHALLENGE', 'a player cannot challenge itself');
  if (!isSeatChoice(c.seat)) return fail('INVALID_INPUT', `seat must be one of ${SEAT_CHOICES.join(', ')}`);
  const message = checkText(c.message, MESSAGE_MAX, 'a message');
  if (!message.ok) return message;
  const seconds = c.expiresInSeconds ?? EXPIRY_DEFAULT_SECONDS;
  const [min, max] = EXPIRY_LIMITS;
  if (!Number.isInteger(seconds) || seconds < min || seconds > max) return fail('INVALID_INPUT', `expiresInSeconds must be a whole number from ${min} (a minute) to ${max} (30 days)`);
  const expiresAt = new Date(Date.parse(now) + seconds * 1000).toISOString();
  return ok({ type: 'ChallengeIssued', payload: { challengerId: c.challengerId, challengedId: c.challengedId, ...c.game, seat: c.seat, message: message.value, expiresAt } });
}

/** The event an answer to an open challenge stands for, or its refusal; null: a retry of the acceptance it answered already (nothing to store). */
function answer(s: ChallengeState, c: Exclude<ChallengeCommand, { type: 'IssueChallenge' }>, now: string): Result<ChallengeEvent | null> {
  if (c.type === 'AcceptChallenge' && s.status === 'ACCEPTED' && s.acceptedBy === c.playerId) return ok(null);
  if (c.type === 'CancelChallenge') {
    if (c.playerId !== s.challengerId) return fail('NOT_YOUR_CHALLENGE', 'only its challenger may cancel a challenge');
  } else if (c.playerId === s.challengerId) {
    return fail('OWN_CHALLENGE', c.type === 'AcceptChallenge' ? 'a player cannot accept its own challenge (cancel it instead)' : 'a player cannot decline its own challenge (cancel it instead)');
  } else if (s.challengedId === null ? c.type === 'DeclineChallenge' : s.challengedId !== c.playerId) {
    return fail('NOT_YOUR_CHALLENGE', s.challengedId === null ? 'an open challenge is declined by nobody: leave it' : 'this challenge is addressed to another player');
  }
  const status = statusAt(s, now);
  if (status === 'EXPIRED') return fail('CHALLENGE_EXPIRED', `the challenge expired at ${s.expiresAt}`);
  if (status !== 'OPEN') return fail('CHALLENGE_CLOSED', `the challenge was ${status.toLowerCase()} already`);
  switch (c.type) {
    case 'AcceptChallenge': {
      const challengerSeat = s.seat === 'first' ? 0 : s.seat === 'second' ? 1 : c.coin;
      if (challengerSeat !== 0 && challengerSeat !== 1) return fail('INVALID_INPUT', 'the coin is 0 or 1');
      return ok({ type: 'ChallengeAccepted', payload: { by: c.playerId, gameId: c.gameId, challengerSeat } });
    }
    case 'DeclineChallenge': {
      const reason = checkText(c.reason, REASON_MAX, 'a reason');
      return reason.ok ? ok({ type: 'ChallengeDeclined', payload: { reason: reason.value } }) : reason;
    }
    case 'CancelChallenge':
      return ok({ type: 'ChallengeCancelled', payload: {} });
  }
}

const draft = (e: ChallengeEvent, createdAt: string): DraftEvent => ({ type: e.type, actor: null, moveId: null, bodyHash: null, payload: e.payload, createdAt });

/**
 * A challenge's decider: the events a command stands for, or its refusal. `state` is null for
 * IssueChallenge (which founds the stream). Every refusal changes nothing.
 */
export function decideChallenge(challengeId: string, state: ChallengeState | null, command: ChallengeCommand, now: string): Result<ChallengeDecision> {
  if (command.type === 'IssueChallenge') {
    if (state) return fail('INVALID_INPUT', 'the challenge was issued already');
    const issued = issue(command, now);
    if (!issued.ok) return issued;
    const next = found(challengeId, issued.value, now);
    return next.ok ? ok({ state: next.value, drafts: [draft(issued.value, now)] }) : next;
  }
  if (!state) return fail('NOT_FOUND', 'no such challenge');
  const event = answer(state, command, now);
  if (!event.ok) return event;
  if (event.value === null) return ok({ state, drafts: [] });
  const next = evolveChallenge(state, event.value);
  return next.ok ? ok({ state: next.value, drafts: [draft(event.value, now)] }) : next;
}

/** A challenge's stream folded, every hash checked; it was issued when its first event was. */
export function foldChallenge(challengeId: string, events: readonly StoredEvent[], from?: Folded<ChallengeState>): Folded<ChallengeState> {
  const folded = foldStream(challengeAggregate, challengeId, events, null, { checkHashes: true, from });
  return from ? folded : { ...folded, issuedAt: events[0].createdAt };
}
