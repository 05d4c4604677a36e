import { fail, ok, type Result, type Seat } from '../../../engines/kit/index.js';
import { durationWords } from '../text.js';

/**
 * Time controls and the clocks they give, derived from the events' stamps alone: the fold runs
 * the clocks, so a move after its deadline breaks the stream for the offline verifier too. Pure:
 * time only enters as the stamps (and the `now` a view is asked for).
 *
 * A seat's clock runs while the game waits for its decision (not while a chance is pending, the
 * game has not started or has ended, or the clock is paused). Its *turn* starts when it comes to
 * act and ends when another seat's turn starts (or the round changes): a backgammon roll and its
 * play, a Chicken Foot draw and its play, are one turn. Correspondence refills a seat's bank when
 * its turn starts; Fischer adds the increment when its turn ends. Time added (by the organizer, as
 * a gift, or a vacation) is kept apart from the seat's own time: spent after it, never capped.
 */

export type TimeControl = { kind: 'correspondence'; perMoveMs: number; bankCapMs: number | null; vacationMs: number } | { kind: 'fischer'; baseMs: number; incrementMs: number };

/** Who acts on a clock: the organizer (tournament director, the referee's staff) or a seat. */
export type ClockActor = 'organizer' | Seat;

/** What a seat that runs out of time gets: the whole game conceded, or auto-play until the round ends. */
export type TimeoutRule = 'concede' | 'autoPlay';

export interface ClockState {
  control: TimeControl;
  /** Per seat: its own time left (Fischer: base and increments; correspondence: its bank), as of `at`. */
  remainingMs: number[];
  /** Per seat: time added to it, spent once its own time is gone. */
  extraMs: number[];
  /** Per seat: whether its clock runs now. */
  running: boolean[];
  /** Per seat: whether its turn goes on (it may be waiting for a draw it called for). */
  inTurn: boolean[];
  pausedBy: 'organizer' | 'seats' | null;
  /** Seats asking to pause (clock running) or to resume (clock paused by the seats). */
  requests: boolean[];
  vacationUsedMs: number[];
  /** Per seat: time the other seats gave it (see giftRoomMs). */
  giftedMs: number[];
  /** Per seat: auto-played in the current round after its timeout. */
  autoPlayed: boolean[];
  /** Seats whose timeout was recorded, in order. */
  timedOut: Seat[];
  /** The engine's round (auto-play and turns end when it changes); null for games without rounds. */
  round: number | null;
  /** The last event's stamp (none yet right after GameCreated): clocks are run up to it. */
  at: string | null;
}

const SECOND = 1000;
const DAY = 86_400 * SECOND;

/** Bounds of a time control, in seconds: wide enough for blitz and for months-long correspondence. */
const LIMITS = {
  perMove: [60, 60 * 86_400],
  bankCap: [60, 365 * 86_400],
  vacation: [0, 365 * 86_400],
  base: [10, 30 * 86_400],
  increment: [0, 86_400],
} as const;

/** Most time one TimeAdded may give. */
const MAX_ADDED_MS = 365 * DAY;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const extraKey = (o: Record<string, unknown>, keys: readonly string[]): string | undefined => Object.keys(o).find((k) => !keys.includes(k));
const days = (s: number): string => (s % 86_400 === 0 && s > 0 ? ` (${s / 86_400} day${s === 86_400 ? '' : 's'})` : '');

class InvalidTimeControl {
  constructor(readonly message: string) {}
}

/** A whole number of seconds within its limits, as milliseconds. */
function seconds(o: Record<string, unknown>, key: string, [min, max]: readonly [number, number], fallback?: number): number {
  const v = o[key] === undefined ? fallback : o[key];
  if (v === undefined) throw new InvalidTimeControl(`timeControl.${key} is required`);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new InvalidTimeControl(`timeControl.${key} must be a whole number of seconds from ${min}${days(min)} to ${max}${days(max)}, got ${JSON.stringify(v)}`);
  }
  return v * SECOND;
}

function resolve(input: unknown): TimeControl | null {
  if (input === undefined || input === null) return null;
  const kinds = '"none", "correspondence" or "fischer"';
  if (!isObject(input)) throw new InvalidTimeControl(`timeControl must be an object with a kind (${kinds})`);
  const allowed: Record<string, readonly string[]> = {
    none: ['kind'],
    correspondence: ['kind', 'perMoveSeconds', 'bankCapSeconds', 'vacationSeconds'],
    fischer: ['kind', 'baseSeconds', 'incrementSeconds'],
  };
  const keys = typeof input.kind === 'string' && Object.hasOwn(allowed, input.kind) ? allowed[input.kind] : null;
  if (!keys) throw new InvalidTimeControl(`timeControl.kind must be ${kinds}, got ${JSON.stringify(input.kind)}`);
  const extra = extraKey(input, keys);
  if (extra) throw new InvalidTimeControl(`a ${input.kind} time control has no "${extra}" (fields: ${keys.join(', ')})`);
  if (input.kind === 'none') return null;
  if (input.kind === 'fischer') return { kind: 'fischer', baseMs: seconds(input, 'baseSeconds', LIMITS.base), incrementMs: seconds(input, 'incrementSeconds', LIMITS.increment, 0) };
  const perMoveMs = seconds(input, 'perMoveSeconds', LIMITS.perMove);
  const bankCapMs = input.bankCapSeconds === undefined || input.bankCapSeconds === null ? null : seconds(input, 'bankCapSeconds', LIMITS.bankCap);
  if (bankCapMs !== null && bankCapMs < perMoveMs) throw new InvalidTimeControl('timeControl.bankCapSeconds must be at least perMoveSeconds: a bank holds at least one move');
  return { kind: 'correspondence', perMoveMs, bankCapMs, vacationMs: seconds(input, 'vacationSeconds', LIMITS.vacation, 0) };
}

/**
 * A time control as a game's creator gives it, in seconds: `{ kind: 'none' }` (or nothing) for no
 * clock; `{ kind: 'correspondence', perMoveSeconds, bankCapSeconds?: n | null, vacationSeconds? }`
 * (no cap: unused time is not banked); `{ kind: 'fischer', baseSeconds, incrementSeconds? }`.
 */
export function parseTimeControl(input: unknown): Result<TimeControl | null> {
  try {
    return ok(resolve(input));
  } catch (e) {
    if (e instanceof InvalidTimeControl) return fail('INVALID_INPUT', `invalid time control: ${e.message}`);
    throw e;
  }
}

/** The stored form of a time control, checked strictly (exactly its fields, within the limits), or null. */
export function storedTimeControl(v: unknown): TimeControl | null {
  if (!isObject(v)) return null;
  const ms = (key: string): number => (typeof v[key] === 'number' ? (v[key] as number) / SECOND : NaN);
  const input =
    v.kind === 'fischer' && !extraKey(v, ['kind', 'baseMs', 'incrementMs'])
      ? { kind: v.kind, baseSeconds: ms('baseMs'), incrementSeconds: ms('incrementMs') }
      : v.kind === 'correspondence' && !extraKey(v, ['kind', 'perMoveMs', 'bankCapMs', 'vacationMs']) && v.bankCapMs !== undefined
        ? { kind: v.kind, perMoveSeconds: ms('perMoveMs'), bankCapSeconds: v.bankCapMs === null ? null : ms('bankCapMs'), vacationSeconds: ms('vacationMs') }
        : null;
  const parsed = input && parseTimeControl(input);
  return parsed?.ok ? parsed.value : null;
}

/** A seat's own time when the game starts (and when it comes back from auto-play). */
const initialMs = (control: TimeControl): number => (control.kind === 'fischer' ? control.baseMs : 0);

/** The clocks of a new game: nobody runs until the game waits for a seat. */
export function newClock(control: TimeControl, seats: number, round: number | null): ClockState {
  const each = <T>(v: T): T[] => Array.from({ length: seats }, () => v);
  return {
    control,
    remainingMs: each(initialMs(control)),
    extraMs: each(0),
    running: each(false),
    inTurn: each(false),
    pausedBy: null,
    requests: each(false),
    vacationUsedMs: each(0),
    giftedMs: each(0),
    autoPlayed: each(false),
    timedOut: [],
    round,
    at: null,
  };
}

/** Milliseconds of an event stamp (ISO 8601 with milliseconds, UTC), or null if it is none. */
export function stampMs(stamp: string): number | null {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(stamp)) return null;
  const ms = stampTime(stamp);
  return Number.isNaN(ms) ? null : ms;
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();

/**
 * Date.parse of a stamp the clocks hold, remembered for the last two: a fold reads the same
 * stamps several times an event (each seat's deadline, the time spent since the last event).
 */
const parsed: { stamp: string; ms: number }[] = [];
export function stampTime(stamp: string): number {
  for (const p of parsed) if (p.stamp === stamp) return p.ms;
  const ms = Date.parse(stamp);
  if (parsed.unshift({ stamp, ms }) > 2) parsed.pop();
  return ms;
}

/** When a running seat's time runs out (ms), or null when its clock does not run. */
export function deadlineMs(c: ClockState, seat: Seat): number | null {
  return c.running[seat] && c.at !== null ? stampTime(c.at) + c.remainingMs[seat] + c.extraMs[seat] : null;
}

/** The running seat whose deadline passed earliest before `t`, among those `counts` (undefined: none). */
export function firstOverdue(c: ClockState, t: number, counts: (seat: Seat) => boolean): Seat | undefined {
  let first: Seat | undefined;
  let firstMs = t;
  for (let seat = 0; seat < c.running.length; seat++) {
    const d = deadlineMs(c, seat);
    if (d !== null && d < firstMs && counts(seat)) [first, firstMs] = [seat, d];
  }
  return first;
}

/** The earliest deadline of a running seat (what the referee's deadline worker waits for), in milliseconds, or null. */
export function nextDeadline(game: { clock: ClockState | null }): { seat: Seat; ms: number } | null {
  const c = game.clock;
  if (!c) return null;
  let first: { seat: Seat; ms: number } | null = null;
  for (let seat = 0; seat < c.running.length; seat++) {
    const ms = deadlineMs(c, seat);
    if (ms !== null && (first === null || ms < first.ms)) first = { seat, ms };
  }
  return first;
}

/** nextDeadline with its time as a stamp. */
export function deadlineOf(game: { clock: ClockState | null }): { seat: Seat; at: string } | null {
  const first = nextDeadline(game);
  return first && { seat: first.seat, at: isoOf(first.ms) };
}

/** The clocks run up to `at` (a later stamp): running seats spend their own time, then what was added. */
export function elapse(c: ClockState, at: string): ClockState {
  if (c.at === null || !c.running.includes(true)) return { ...c, at };
  const spent = stampTime(at) - stampTime(c.at);
  const remainingMs = c.remainingMs.slice();
  const extraMs = c.extraMs.slice();
  for (let seat = 0; seat < c.running.length; seat++) {
    if (!c.running[seat]) continue;
    const own = Math.min(remainingMs[seat], spent);
    remainingMs[seat] -= own;
    extraMs[seat] = Math.max(0, extraMs[seat] - (spent - own));
  }
  return { ...c, remainingMs, extraMs, at };
}

/** The seat's time ran out: nothing left, its turn over (no increment), and auto-played or not. */
export function timeOut(c: ClockState, seat: Seat, rule: TimeoutRule): ClockState {
  const set = <T>(xs: T[], v: T): T[] => xs.map((x, i) => (i === seat ? v : x));
  return {
    ...c,
    remainingMs: set(c.remainingMs, 0),
    extraMs: set(c.extraMs, 0),
    inTurn: set(c.inTurn, false),
    autoPlayed: rule === 'autoPlay' ? set(c.autoPlayed, true) : c.autoPlayed,
    timedOut: [...c.timedOut, seat],
  };
}

/** Time added to a seat: by the organizer, as another seat's gift, or a vacation it takes (correspondence). */
export function addTime(c: ClockState, seat: Seat, ms: number, by: ClockActor, vacation: boolean): Result<ClockState> {
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_ADDED_MS) return fail('INVALID_INPUT', `the time added must be whole milliseconds from 1 to ${MAX_ADDED_MS} (365 days), got ${ms}`);
  const vacationUsedMs = c.vacationUsedMs.slice();
  if (vacation) {
    if (c.control.kind !== 'correspondence') return fail('INVALID_INPUT', 'vacations are for correspondence games');
    if (by !== seat) return fail('INVALID_INPUT', 'a seat takes its vacation for itself');
    const left = c.control.vacationMs - vacationUsedMs[seat];
    if (ms > left) return fail('NO_VACATION_LEFT', `seat ${seat} has ${durationWords(left)} of vacation left (${left} ms), not ${durationWords(ms)} (${ms} ms)`);
    vacationUsedMs[seat] += ms;
  } else if (by === seat) return fail('INVALID_INPUT', 'a seat does not give itself time: it takes a vacation (correspondence), or the organizer adds time');
  const gift = !vacation && by !== 'organizer' ? ms : 0;
  const add = (xs: number[], n: number) => xs.map((x, i) => (i === seat ? x + n : x));
  return ok({ ...c, extraMs: add(c.extraMs, ms), vacationUsedMs, giftedMs: add(c.giftedMs, gift) });
}

/**
 * What `seat` may still receive from the other seats in this game: gifts add up to one turn's
 * own time at most (Fischer: the base time; correspondence: the time for one move), so that no
 * seat can keep an ally clear of its deadline. The organizer's time is not counted or capped.
 * Checked when a gift is decided, not when a stream is folded: games stored before the cap
 * still verify.
 */
export function giftRoomMs(c: ClockState, seat: Seat): number {
  const allowance = c.control.kind === 'fischer' ? c.control.baseMs : c.control.perMoveMs;
  return Math.max(0, allowance - c.giftedMs[seat]);
}

const asked = (c: ClockState, seat: Seat): boolean[] => c.requests.map((r, i) => r || i === seat);

/** A seat asks to pause: the clock pauses when every seat has asked. */
export function requestPause(c: ClockState, seat: Seat): Result<ClockState> {
  if (c.pausedBy) return fail('PAUSE_CONFLICT', 'the clock is already paused');
  if (c.requests[seat]) return fail('PAUSE_CONFLICT', `seat ${seat} has already asked to pause`);
  return ok({ ...c, requests: asked(c, seat) });
}

/** A seat asks to resume a pause the seats asked for: the clock resumes when every seat has asked. */
export function requestResume(c: ClockState, seat: Seat): Result<ClockState> {
  if (!c.pausedBy) return fail('PAUSE_CONFLICT', 'the clock is not paused');
  if (c.pausedBy === 'organizer') return fail('PAUSE_CONFLICT', 'the organizer paused the clock: the organizer resumes it');
  if (c.requests[seat]) return fail('PAUSE_CONFLICT', `seat ${seat} has already asked to resume`);
  return ok({ ...c, requests: asked(c, seat) });
}

/**
 * A seat declines the others' request to pause (docs/time-controls.md, "Pausing"): every request
 * is withdrawn and the clocks run on; a seat that still wants the pause asks again.
 */
export function declinePause(c: ClockState, seat: Seat): Result<ClockState> {
  if (c.pausedBy) return fail('PAUSE_CONFLICT', 'the clock is paused: there is no request to pause to decline');
  if (c.requests[seat]) return fail('PAUSE_CONFLICT', `seat ${seat} asked to pause itself`);
  if (!c.requests.some(Boolean)) return fail('PAUSE_CONFLICT', 'no seat asks to pause');
  return ok({ ...c, requests: c.requests.map(() => false) });
}

/** Whether every seat has asked (to pause, or to resume the seats' pause). */
export const everySeatAsked = (c: ClockState): boolean => c.requests.every(Boolean);

export function pause(c: ClockState, by: 'organizer' | 'seats'): Result<ClockState> {
  if (c.pausedBy) return fail('PAUSE_CONFLICT', 'the clock is already paused');
  if (by === 'seats' && !everySeatAsked(c)) return fail('PAUSE_CONFLICT', 'not every seat has asked to pause');
  return ok({ ...c, pausedBy: by, requests: c.requests.map(() => false) });
}

export function resume(c: ClockState, by: 'organizer' | 'seats'): Result<ClockState> {
  if (!c.pausedBy) return fail('PAUSE_CONFLICT', 'the clock is not paused');
  if (by === 'seats' && (c.pausedBy === 'organizer' || !everySeatAsked(c))) return fail('PAUSE_CONFLICT', 'not every seat has asked to resume a pause the seats asked for');
  return ok({ ...c, pausedBy: null, requests: c.requests.map(() => false) });
}

/**
 * The clocks after an event, from the seats the game now waits for and its round: turns end and
 * start (increment, refill), auto-play ends with the round, and the awaited seats run unless paused.
 */
export function followGame(c: ClockState, awaited: readonly Seat[], round: number | null): ClockState {
  const { control } = c;
  const remainingMs = c.remainingMs.slice();
  const inTurn = c.inTurn.slice();
  const autoPlayed = c.autoPlayed.slice();
  const endTurn = (seat: Seat) => {
    inTurn[seat] = false;
    if (control.kind === 'fischer') remainingMs[seat] += control.incrementMs;
  };
  if (round !== c.round) {
    for (let seat = 0; seat < inTurn.length; seat++) {
      if (inTurn[seat]) endTurn(seat);
      // Back from auto-play: the seat plays on with a fresh clock.
      if (autoPlayed[seat]) remainingMs[seat] = initialMs(control);
      autoPlayed[seat] = false;
    }
  }
  const waiting = awaited.filter((seat) => !autoPlayed[seat]);
  const starting = waiting.filter((seat) => !inTurn[seat]);
  if (starting.length > 0) for (let seat = 0; seat < inTurn.length; seat++) if (inTurn[seat] && !waiting.includes(seat)) endTurn(seat);
  for (const seat of starting) {
    inTurn[seat] = true;
    if (control.kind === 'correspondence') remainingMs[seat] = control.bankCapMs === null ? control.perMoveMs : Math.min(control.bankCapMs, remainingMs[seat] + control.perMoveMs);
  }
  const running = c.running.map((_, seat) => c.pausedBy === null && waiting.includes(seat));
  return { ...c, remainingMs, inTurn, autoPlayed, running, round };
}

/** The clocks as the API serves them. */
export interface ClockView {
  control: TimeControl;
  /** Per seat, as of `now`: its own time and what was added. */
  remainingMs: number[];
  /** Seats whose clock runs. */
  running: Seat[];
  /** The earliest running seat's deadline. */
  deadline: string | null;
  paused: boolean;
  pausedBy: 'organizer' | 'seats' | null;
  /** Seats asking to pause (or, while the seats' pause lasts, to resume). */
  requests: Seat[];
  /** Seats out of time: timeouts recorded (each seat once), then running seats past their deadline at `now`. */
  timedOut: Seat[];
  /** Seats the referee plays for until the round ends. */
  autoPlayed: Seat[];
  /** Per seat: vacation it may still take (correspondence; 0 otherwise). */
  vacationLeftMs: number[];
}

const seatsWhere = (xs: readonly boolean[]): Seat[] => xs.flatMap((x, seat) => (x ? [seat] : []));

/** The clocks as of `now` (ISO 8601), or null for a game without a time control. */
export function clockView(game: { clock: ClockState | null }, now: string): ClockView | null {
  const c = game.clock;
  if (!c) return null;
  const since = c.at === null ? 0 : Math.max(0, Date.parse(now) - stampTime(c.at));
  const remainingMs = c.remainingMs.map((own, seat) => Math.max(0, own + c.extraMs[seat] - (c.running[seat] ? since : 0)));
  const flagged = seatsWhere(c.running).filter((seat) => remainingMs[seat] === 0);
  const vacation = c.control.kind === 'correspondence' ? c.control.vacationMs : 0;
  return {
    control: c.control,
    remainingMs,
    running: seatsWhere(c.running),
    deadline: deadlineOf(game)?.at ?? null,
    paused: c.pausedBy !== null,
    pausedBy: c.pausedBy,
    requests: seatsWhere(c.requests),
    timedOut: [...new Set([...c.timedOut, ...flagged])],
    autoPlayed: seatsWhere(c.autoPlayed),
    vacationLeftMs: c.vacationUsedMs.map((used) => vacation - used),
  };
}
