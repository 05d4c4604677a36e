import fc from 'fast-check';
import { backgammonEngine, type BackgammonState } from '../../src/games/backgammon/engine/index.js';
import { cerkeEngine } from '../../src/games/cerke/engine/index.js';
import type { Result } from '../../src/engines/kit/index.js';
import { verifyStream } from '../../src/referee/core/audit.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { clockView, deadlineOf, parseTimeControl, type TimeControl } from '../../src/referee/core/game/clock.js';
import type { DecideContext, Decision, GameCommand } from '../../src/referee/core/game/commands.js';
import { gameDecider } from '../../src/referee/core/game/decider.js';
import { foldGame } from '../../src/referee/core/game/fold.js';
import { eventHash, StreamError } from '../../src/referee/core/stream.js';
import { type GameHistory, gameSpec } from '../support/given-when-then.js';
import { duelEngine, type DuelState } from '../support/duel-engine.js';

/**
 * Clocks, Given/When/Then: given a game's commands at explicit times, when a command is decided
 * at `now`, then these events, clocks and deadlines. The clocks come from the stamps alone, so
 * folding the stored events gives them again.
 */
const registry = EngineRegistry.of([duelEngine, backgammonEngine, cerkeEngine]);
const decider = gameDecider(registry);
const SEED = 'cd'.repeat(32);
const GAME = 'timed';
const T0 = Date.parse('2026-11-30T12:00:00.000Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The stamp `ms` after T0. */
const at = (ms: number): string => new Date(T0 + ms).toISOString();

function control(input: unknown): TimeControl {
  const parsed = parseTimeControl(input);
  if (!parsed.ok || !parsed.value) throw new Error(`not a time control: ${JSON.stringify(input)}`);
  return parsed.value;
}
const FISCHER = control({ kind: 'fischer', baseSeconds: 300, incrementSeconds: 5 });
const DAILY = control({ kind: 'correspondence', perMoveSeconds: 86_400 });
const BANKED = control({ kind: 'correspondence', perMoveSeconds: 86_400, bankCapSeconds: 2 * 86_400, vacationSeconds: 3 * 86_400 });

const create = (timeControl: TimeControl | null, kind = 'duel', ruleset: unknown = { cards: 10, handSize: 3 }): GameCommand => ({
  type: 'CreateGame',
  gameId: GAME,
  kind,
  ruleset,
  seats: null,
  timeControl,
});

const games = gameSpec(decider, GAME);
/** Deciding `now` ms after T0. */
const ctx = (now: number): DecideContext => ({ now: at(now), serverSeed: SEED, supplied: [] });

/** Each command at its time (ms after T0), every one accepted. */
const given = (...steps: [GameCommand, number][]) => games.given(steps.map(([command, now]) => [command, ctx(now)] as const));
/** Decides and, when accepted, moves the history on (a game played step by step). */
const then = (h: GameHistory, command: GameCommand, now: number) => games.accepted(h, command, ctx(now));
const when = (h: GameHistory, command: GameCommand, now: number) => games.when(h, command, ctx(now)).result;
const types = (r: Result<Decision>) => games.eventsOrRefusal(r);
const game = (h: GameHistory) => h.folded!;
const clock = (h: GameHistory) => game(h).clock!;
const toAct = (h: GameHistory) => game(h).engine.toAct(game(h).state)[0];
const view = (h: GameHistory, now: number) => clockView(game(h), at(now))!;

let moves = 0;
/** The duel seat to act plays its first card. */
function playDuel(h: GameHistory, now: number): GameHistory {
  const seat = toAct(h);
  return then(h, { type: 'TakeAction', seat, moveId: `m${moves++}`, bodyHash: 'b', action: { type: 'play', card: (game(h).state as DuelState).hands[seat][0] }, expectedVersion: null }, now);
}
const timeOut = (seat: number, when: number): GameCommand => ({ type: 'TimeOut', seat, at: at(when) });
const addTime = (seat: number, ms: number, by: 'organizer' | number, vacation = false): GameCommand => ({ type: 'AddTime', seat, ms, by, vacation });

describe('time controls', () => {
  it('are parsed from seconds into their canonical form in milliseconds', () => {
    expect(parseTimeControl({ kind: 'none' })).toEqual({ ok: true, value: null });
    expect(parseTimeControl(undefined)).toEqual({ ok: true, value: null });
    expect(FISCHER).toEqual({ kind: 'fischer', baseMs: 300_000, incrementMs: 5_000 });
    expect(DAILY).toEqual({ kind: 'correspondence', perMoveMs: DAY, bankCapMs: null, vacationMs: 0 });
    expect(BANKED).toEqual({ kind: 'correspondence', perMoveMs: DAY, bankCapMs: 2 * DAY, vacationMs: 3 * DAY });
  });

  it.each([
    [{ kind: 'blitz' }, 'timeControl.kind must be'],
    [{ kind: 'fischer', incrementSeconds: 2 }, 'timeControl.baseSeconds is required'],
    [{ kind: 'fischer', baseSeconds: 1.5 }, 'whole number of seconds'],
    [{ kind: 'correspondence', perMoveSeconds: 10 }, 'from 60 to'],
    [{ kind: 'correspondence', perMoveSeconds: 86_400, bankCapSeconds: 3_600 }, 'at least perMoveSeconds'],
    [{ kind: 'correspondence', perMoveSeconds: 86_400, days: 3 }, 'has no "days"'],
    ['fischer', 'must be an object'],
  ])('refuses %j', (input, message) => {
    expect(parseTimeControl(input)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining(message) } });
  });

  it('are recorded in GameCreated only when there is one, so untimed games keep their payload and hash', () => {
    expect(given([create(null), 0]).events[0].payload).not.toHaveProperty('timeControl');
    expect(given([create(FISCHER), 0]).events[0].payload.timeControl).toEqual(FISCHER);
    expect(given([create(null), 0]).folded!.clock).toBeNull();
  });

  it('are refused by the fold on an imported game: an imported record carries no clock', () => {
    const h = given([create(FISCHER), 0]);
    const forged = { ...h.events[0], payload: { ...h.events[0].payload, imported: true } };
    forged.hash = eventHash(GAME, forged);
    expect(() => foldGame(registry, GAME, [forged], SEED)).toThrow('an imported record carries no clock');
  });
});

describe('the clocks, from the stamps', () => {
  it('Fischer: each seat starts with the base, spends what it thinks and earns the increment when its turn ends', () => {
    let h = given([create(FISCHER), 0]);
    const first = toAct(h);
    const second = 1 - first;
    expect(clock(h).remainingMs).toEqual([300_000, 300_000]);
    expect(deadlineOf(game(h))).toEqual({ seat: first, at: at(300 * SECOND) });
    h = playDuel(h, 10 * SECOND);
    expect(clock(h).remainingMs[first]).toBe(300_000 - 10_000 + 5_000);
    expect(deadlineOf(game(h))).toEqual({ seat: second, at: at(10 * SECOND + 300 * SECOND) });
    h = playDuel(h, 40 * SECOND);
    expect(clock(h).remainingMs[second]).toBe(300_000 - 30_000 + 5_000);
    expect(view(h, 50 * SECOND)).toMatchObject({
      remainingMs: first === 0 ? [285_000, 275_000] : [275_000, 285_000],
      running: [first],
      deadline: at(40 * SECOND + 295 * SECOND),
      paused: false,
      timedOut: [],
    });
  });

  it('correspondence without a bank: each turn brings the time per move, and unused time is not kept', () => {
    let h = given([create(DAILY), 0]);
    const first = toAct(h);
    expect(deadlineOf(game(h))).toEqual({ seat: first, at: at(DAY) });
    h = playDuel(h, 2 * HOUR);
    expect(clock(h).remainingMs[first]).toBe(22 * HOUR);
    h = playDuel(h, 3 * HOUR);
    expect(clock(h).remainingMs[first]).toBe(DAY);
    expect(deadlineOf(game(h))).toEqual({ seat: first, at: at(3 * HOUR + DAY) });
  });

  it('correspondence with a bank: unused time is kept up to the cap', () => {
    let h = given([create(BANKED), 0]);
    const first = toAct(h);
    h = playDuel(h, 2 * HOUR);
    h = playDuel(h, 3 * HOUR);
    expect(clock(h).remainingMs[first]).toBe(22 * HOUR + DAY);
    h = playDuel(h, 4 * HOUR);
    h = playDuel(h, 5 * HOUR);
    // 46h - 1h + 24h = 69h, capped at 48h.
    expect(clock(h).remainingMs[first]).toBe(2 * DAY);
    expect(deadlineOf(game(h))).toEqual({ seat: first, at: at(5 * HOUR + 2 * DAY) });
  });

  it('no clock runs before the game starts, while the last seat is awaited', () => {
    const open = { name: null, clientSeed: null, taken: false };
    const seat = { name: null, clientSeed: null, taken: true };
    let h = given([{ ...create(DAILY), seats: [seat, open] } as GameCommand, 0]);
    expect(deadlineOf(game(h))).toBeNull();
    h = then(h, { type: 'JoinSeat', seat: 1, name: 'Bo', clientSeed: null, seats: [seat, open] }, 5 * DAY);
    expect(deadlineOf(game(h))).toEqual({ seat: toAct(h), at: at(6 * DAY) });
  });

  it('never runs backwards: a decision behind the last stamp (another instance lagging) is stamped at it', () => {
    const h = given([create(FISCHER), 0], [addTime(0, MINUTE, 'organizer'), 10 * SECOND]);
    const r = when(h, addTime(1, MINUTE, 'organizer'), 5 * SECOND);
    expect(r.ok && r.value.steps[0].draft.createdAt).toBe(at(10 * SECOND));
  });
});

describe('deadlines', () => {
  it('a timeout is refused before the deadline, for a seat whose clock is not running, or at a time still to come', () => {
    const h = given([create(DAILY), 0]);
    const seat = toAct(h);
    expect(when(h, timeOut(seat, DAY - 1), 2 * DAY)).toMatchObject({ ok: false, error: { code: 'NOT_TIMED_OUT' } });
    expect(when(h, timeOut(1 - seat, 2 * DAY), 3 * DAY)).toMatchObject({ ok: false, error: { code: 'NOT_TIMED_OUT', message: `seat ${1 - seat}'s clock is not running` } });
    expect(when(h, timeOut(seat, DAY), DAY - 1)).toMatchObject({ ok: false, error: { code: 'NOT_TIMED_OUT' } });
    expect(types(when(given([create(null), 0]), timeOut(seat, DAY), 2 * DAY))).toBe('NO_CLOCK');
  });

  it('a timeout applied late (the referee was down) is stamped at the deadline; the seat concedes the game', () => {
    const h = given([create(DAILY), 0]);
    const seat = toAct(h);
    const r = when(h, timeOut(seat, DAY), 3 * DAY);
    expect(types(r)).toEqual(['TimedOut', 'GameEnded', 'SeedRevealed']);
    if (!r.ok) return;
    expect(r.value.steps.map((s) => s.draft.createdAt)).toEqual([at(DAY), at(DAY), at(DAY)]);
    expect(r.value.steps[0].draft).toMatchObject({ actor: null, payload: { seat, rule: 'concede' } });
    expect(r.value.game.outcome?.winners).toEqual([1 - seat]);
    // The other seat never had a turn: its bank is still empty.
    expect(clockView(r.value.game, at(3 * DAY))).toMatchObject({ remainingMs: [0, 0], running: [], deadline: null, timedOut: [seat] });
  });

  it('after a deadline nothing is decided but the timeout, the organizer adding time for that seat, or an adjudication', () => {
    const h = given([create(DAILY), 0]);
    const seat = toAct(h);
    const late = DAY + 1;
    const move = { type: 'TakeAction', seat, moveId: 'late', bodyHash: 'b', action: { type: 'play', card: (game(h).state as DuelState).hands[seat][0] }, expectedVersion: null } as const;
    expect(when(h, move, late)).toMatchObject({ ok: false, error: { code: 'OUT_OF_TIME', message: expect.stringContaining("after the seat's deadline") } });
    expect(types(when(h, { type: 'Resign', seat, moveId: 'r', bodyHash: 'b', expectedVersion: null }, late))).toBe('OUT_OF_TIME');
    expect(types(when(h, { type: 'PauseClock', by: 1 - seat }, late))).toBe('OUT_OF_TIME');
    expect(types(when(h, addTime(seat, HOUR, 1 - seat), late))).toBe('OUT_OF_TIME');
    // The organizer may give the seat time again, from now.
    const revived = then(h, addTime(seat, HOUR, 'organizer'), late);
    expect(deadlineOf(game(revived))).toEqual({ seat, at: at(late + HOUR) });
    expect(types(when(revived, move, late + MINUTE))).toEqual(expect.arrayContaining(['ActionTaken']));
  });

  it('a move stamped after its deadline in an edited stream fails the fold at that event', () => {
    let h = given([create(DAILY), 0]);
    h = playDuel(h, 2 * HOUR);
    const mover = toAct(h);
    h = playDuel(h, 3 * HOUR);
    const at3 = h.events.findIndex((e) => e.type === 'ActionTaken' && e.actor === mover);
    const edited = structuredClone(h.events);
    edited[at3].createdAt = at(2 * HOUR + DAY + 1);
    for (let i = at3; i < edited.length; i++) {
      if (i > at3) edited[i].prevHash = edited[i - 1].hash;
      edited[i].hash = eventHash(GAME, edited[i]);
    }
    expect(() => foldGame(registry, GAME, edited, SEED)).toThrow(StreamError);
    expect(() => foldGame(registry, GAME, edited, SEED)).toThrow(
      `event ${edited[at3].seq}: OUT_OF_TIME: seat ${mover} acted at ${at(2 * HOUR + DAY + 1)}, after the seat's deadline (${at(2 * HOUR + DAY)})`,
    );
    expect(verifyStream(registry, GAME, edited, { serverSeed: null })).toMatchObject({ ok: false, badSeq: edited[at3].seq });
    expect(verifyStream(registry, GAME, h.events, { serverSeed: null })).toMatchObject({ ok: true, summary: expect.stringContaining('no move after its deadline') });
  });

  it('a stream whose stamps run backwards fails the fold', () => {
    let h = given([create(FISCHER), 0]);
    h = playDuel(h, 10 * SECOND);
    const edited = structuredClone(h.events);
    const last = edited.length - 1;
    edited[last].createdAt = at(-1);
    edited[last].hash = eventHash(GAME, edited[last]);
    expect(() => foldGame(registry, GAME, edited, SEED)).toThrow('time does not run backwards');
  });
});

describe('pauses', () => {
  it('pause when every seat asked, resume when every seat asked again; the running seat restarts with what it had', () => {
    let h = given([create(DAILY), 0]);
    const seat = toAct(h);
    expect(types(when(h, { type: 'PauseClock', by: 0 }, HOUR))).toEqual(['PauseRequested']);
    h = then(h, { type: 'PauseClock', by: 0 }, HOUR);
    expect(h.events.at(-1)).toMatchObject({ type: 'PauseRequested', actor: 0, payload: { seat: 0 } });
    expect(types(when(h, { type: 'PauseClock', by: 0 }, HOUR))).toBe('PAUSE_CONFLICT');
    expect(types(when(h, { type: 'ResumeClock', by: 0 }, HOUR))).toBe('PAUSE_CONFLICT');
    expect(types(when(h, { type: 'PauseClock', by: 1 }, 2 * HOUR))).toEqual(['PauseRequested', 'ClockPaused']);
    h = then(h, { type: 'PauseClock', by: 1 }, 2 * HOUR);
    expect(h.events.at(-1)).toMatchObject({ type: 'ClockPaused', actor: null, payload: { by: 'seats' } });
    expect(deadlineOf(game(h))).toBeNull();
    expect(view(h, 10 * DAY)).toMatchObject({ paused: true, pausedBy: 'seats', running: [], remainingMs: [0, 1].map((s) => (s === seat ? 22 * HOUR : 0)) });
    h = then(h, { type: 'ResumeClock', by: 1 }, 5 * DAY);
    expect(deadlineOf(game(h))).toBeNull();
    expect(types(when(h, { type: 'ResumeClock', by: 0 }, 6 * DAY))).toEqual(['ResumeRequested', 'ClockResumed']);
    h = then(h, { type: 'ResumeClock', by: 0 }, 6 * DAY);
    expect(deadlineOf(game(h))).toEqual({ seat, at: at(6 * DAY + 22 * HOUR) });
  });

  it('a seat declines the other’s request to pause: the request is withdrawn, the clocks run on, and it may be asked again', () => {
    let h = given([create(DAILY), 0]);
    const seat = toAct(h);
    expect(types(when(h, { type: 'DeclinePause', seat: 1 }, HOUR))).toBe('PAUSE_CONFLICT');
    h = then(h, { type: 'PauseClock', by: 0 }, HOUR);
    expect(types(when(h, { type: 'DeclinePause', seat: 0 }, HOUR))).toBe('PAUSE_CONFLICT');
    h = then(h, { type: 'DeclinePause', seat: 1 }, 2 * HOUR);
    expect(h.events.at(-1)).toMatchObject({ type: 'PauseDeclined', actor: 1, payload: { seat: 1 } });
    expect(view(h, 3 * HOUR)).toMatchObject({ paused: false, requests: [], running: [seat] });
    expect(deadlineOf(game(h))).toEqual({ seat, at: at(DAY) });
    // Asked again, both this time: paused, and nothing left to decline.
    h = then(then(h, { type: 'PauseClock', by: 0 }, 4 * HOUR), { type: 'PauseClock', by: 1 }, 5 * HOUR);
    expect(types(when(h, { type: 'DeclinePause', seat: 1 }, 6 * HOUR))).toBe('PAUSE_CONFLICT');
  });

  it('the organizer pauses and resumes at once; only the organizer lifts its pause', () => {
    let h = given([create(FISCHER), 0]);
    const seat = toAct(h);
    h = then(h, { type: 'PauseClock', by: 'organizer' }, MINUTE);
    expect(h.events.at(-1)).toMatchObject({ type: 'ClockPaused', actor: null, payload: { by: 'organizer' } });
    expect(types(when(h, { type: 'ResumeClock', by: seat }, HOUR))).toBe('PAUSE_CONFLICT');
    expect(types(when(h, { type: 'PauseClock', by: 'organizer' }, HOUR))).toBe('PAUSE_CONFLICT');
    h = then(h, { type: 'ResumeClock', by: 'organizer' }, DAY);
    expect(h.events.at(-1)).toMatchObject({ type: 'ClockResumed', payload: { by: 'organizer' } });
    expect(deadlineOf(game(h))).toEqual({ seat, at: at(DAY + 240 * SECOND) });
  });

  it('moves may go on during a pause: the next turn starts, its clock waits for the resumption', () => {
    let h = given([create(DAILY), 0], [{ type: 'PauseClock', by: 'organizer' }, HOUR]);
    const mover = toAct(h);
    h = playDuel(h, 2 * HOUR);
    expect(clock(h).remainingMs[mover]).toBe(23 * HOUR);
    expect(clock(h).remainingMs[1 - mover]).toBe(DAY);
    expect(deadlineOf(game(h))).toBeNull();
    h = then(h, { type: 'ResumeClock', by: 'organizer' }, 3 * DAY);
    expect(deadlineOf(game(h))).toEqual({ seat: 1 - mover, at: at(4 * DAY) });
    expect(types(when(given([create(null), 0]), { type: 'PauseClock', by: 0 }, HOUR))).toBe('NO_CLOCK');
  });
});

describe('added time', () => {
  it('the organizer or another seat adds time; it is spent after the seat’s own and survives the next turn’s refill', () => {
    let h = given([create(DAILY), 0]);
    const seat = toAct(h);
    const other = 1 - seat;
    h = then(h, addTime(seat, HOUR, 'organizer'), MINUTE);
    expect(h.events.at(-1)).toMatchObject({ type: 'TimeAdded', actor: null, payload: { seat, ms: HOUR, by: 'organizer', vacation: false } });
    expect(deadlineOf(game(h))).toEqual({ seat, at: at(DAY + HOUR) });
    h = then(h, addTime(other, 5 * HOUR, seat), 2 * MINUTE);
    expect(h.events.at(-1)).toMatchObject({ type: 'TimeAdded', actor: seat, payload: { by: seat } });
    h = playDuel(h, 2 * HOUR);
    // The mover spent 2 hours of its own day; its hour of extra time is left.
    expect(view(h, 2 * HOUR).remainingMs[seat]).toBe(22 * HOUR + HOUR);
    expect(deadlineOf(game(h))).toEqual({ seat: other, at: at(2 * HOUR + DAY + 5 * HOUR) });
    expect(when(h, addTime(seat, HOUR, seat), 3 * HOUR)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('does not give itself time') } });
    expect(types(when(h, addTime(seat, 0, 'organizer'), 3 * HOUR))).toBe('INVALID_INPUT');
    expect(types(when(h, addTime(7, HOUR, 'organizer'), 3 * HOUR))).toBe('INVALID_INPUT');
  });

  it("gifts from the other seats add up to one turn's own time at most; the organizer's time is not capped", () => {
    let h = given([create(DAILY), 0]);
    const seat = toAct(h);
    const other = 1 - seat;
    // 40 gifts of a year each gave a seat 14,600 days: now a day (the time per move) in all.
    h = then(h, addTime(other, 20 * HOUR, seat), MINUTE);
    expect(when(h, addTime(other, 365 * DAY, seat), 2 * MINUTE)).toMatchObject({ ok: false, error: { code: 'GIFT_LIMIT', message: expect.stringContaining(`4 hours (${4 * HOUR} ms) more`) } });
    h = then(h, addTime(other, 4 * HOUR, seat), 2 * MINUTE);
    expect(types(when(h, addTime(other, 1, seat), 3 * MINUTE))).toBe('GIFT_LIMIT');
    h = then(h, addTime(other, 365 * DAY, 'organizer'), 3 * MINUTE);
    expect(clock(h).extraMs[other]).toBe(DAY + 365 * DAY);
    // Fischer: the base time.
    const fischer = given([create(FISCHER), 0]);
    const mover = toAct(fischer);
    expect(types(when(fischer, addTime(1 - mover, 5 * MINUTE + 1, mover), MINUTE))).toBe('GIFT_LIMIT');
    expect(types(when(fischer, addTime(1 - mover, 5 * MINUTE, mover), MINUTE))).toEqual(['TimeAdded']);
  });

  it('a seat takes vacation for itself, up to its allowance, in correspondence games only', () => {
    let h = given([create(BANKED), 0]);
    const seat = toAct(h);
    h = then(h, addTime(seat, 2 * DAY, seat, true), HOUR);
    expect(deadlineOf(game(h))).toEqual({ seat, at: at(3 * DAY) });
    expect(when(h, addTime(seat, 2 * DAY, seat, true), 2 * HOUR)).toMatchObject({ ok: false, error: { code: 'NO_VACATION_LEFT' } });
    h = then(h, addTime(1 - seat, DAY, 1 - seat, true), 2 * HOUR);
    h = then(h, addTime(seat, DAY, seat, true), 3 * HOUR);
    expect(view(h, 3 * HOUR).vacationLeftMs).toEqual([0, 1].map((s) => (s === seat ? 0 : 2 * DAY)));
    expect(when(h, addTime(seat, HOUR, 1 - seat, true), 3 * HOUR)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: 'a seat takes its vacation for itself' } });
    const fischer = given([create(FISCHER), 0]);
    expect(when(fischer, addTime(0, HOUR, 0, true), MINUTE)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: 'vacations are for correspondence games' } });
  });
});

describe('what a timeout costs, game by game', () => {
  it('backgammon: the seat on roll loses the whole match, scored as a resignation of the match', () => {
    let h = given([create(FISCHER, 'backgammon', { matchLength: 5, resignWhen: 'any-time' }), 0]);
    const state = () => game(h).state as BackgammonState;
    // The bystander may offer to resign at any time, but its clock does not run.
    expect(backgammonEngine.toAct(state())).toHaveLength(2);
    expect(view(h, MINUTE).running).toEqual([deadlineOf(game(h))!.seat]);
    const onRoll = deadlineOf(game(h))!.seat;
    h = then(h, timeOut(onRoll, 300 * SECOND), HOUR);
    expect(h.events.slice(-3).map((e) => e.type)).toEqual(['TimedOut', 'GameEnded', 'SeedRevealed']);
    expect(game(h).outcome).toMatchObject({ winners: [1 - onRoll], summary: expect.stringContaining('wins the 5-point match') });
    expect(game(h).outcome!.points[1 - onRoll]).toBeGreaterThanOrEqual(5);
    expect(state().games.at(-1)).toMatchObject({ winner: 1 - onRoll, endedBy: 'forfeit' });
  });

  it('Cerke: the seat to move loses the game', () => {
    let h = given([create(DAILY, 'cerke', {}), 0]);
    const seat = deadlineOf(game(h))!.seat;
    h = then(h, timeOut(seat, DAY), DAY);
    expect(game(h).outcome).toMatchObject({ winners: [1 - seat] });
    expect(game(h).ended).toBe(true);
    expect(foldGame(registry, GAME, h.events, SEED, { checkHashes: true }).outcome).toEqual(game(h).outcome);
  });
});

describe('folding the decided events again', () => {
  type Step = { op: 'move' | 'organizer' | 'gift' | 'vacation' | 'pause' | 'resume' | 'decline' | 'timeout'; seat: number; wait: number };
  const step = fc.record({
    op: fc.constantFrom<Step['op']>('move', 'move', 'move', 'organizer', 'gift', 'vacation', 'pause', 'pause', 'resume', 'resume', 'decline', 'timeout'),
    seat: fc.constantFrom(0, 1, 'organizer' as const).map((s) => (s === 'organizer' ? -1 : s)),
    /** Thousandths of a typical turn's time. */
    wait: fc.integer({ min: 0, max: 1200 }),
  });

  it('gives the same clocks and deadlines as deciding them did', () => {
    fc.assert(
      fc.property(fc.constantFrom(FISCHER, DAILY, BANKED), fc.array(step, { maxLength: 40 }), (timeControl, steps) => {
        let h = given([create(timeControl, 'duel', { cards: 20, handSize: 10 }), 0]);
        const turn = timeControl.kind === 'fischer' ? 100 * SECOND : DAY;
        let now = 0;
        for (const s of steps) {
          if (game(h).ended) break;
          now += Math.round((s.wait * turn) / 1000);
          const by = s.seat < 0 ? 'organizer' : s.seat;
          const deadline = deadlineOf(game(h));
          const command: GameCommand | null =
            s.op === 'move'
              ? {
                  type: 'TakeAction',
                  seat: toAct(h),
                  moveId: `p${now}-${h.events.length}`,
                  bodyHash: 'b',
                  action: { type: 'play', card: (game(h).state as DuelState).hands[toAct(h)][0] },
                  expectedVersion: null,
                }
              : s.op === 'organizer'
                ? addTime(Math.max(0, s.seat), HOUR, 'organizer')
                : s.op === 'gift'
                  ? addTime(1 - Math.max(0, s.seat), 10 * MINUTE, Math.max(0, s.seat))
                  : s.op === 'vacation'
                    ? addTime(Math.max(0, s.seat), DAY, Math.max(0, s.seat), true)
                    : s.op === 'pause'
                      ? { type: 'PauseClock', by }
                      : s.op === 'resume'
                        ? { type: 'ResumeClock', by }
                        : s.op === 'decline'
                          ? { type: 'DeclinePause', seat: Math.max(0, s.seat) }
                          : deadline && { type: 'TimeOut', seat: deadline.seat, at: deadline.at };
          if (command) h = games.when(h, command, ctx(Math.max(now, deadline && s.op === 'timeout' ? Date.parse(deadline.at) - T0 : 0))).next;
        }
        const folded = foldGame(registry, GAME, h.events, SEED, { checkHashes: true });
        expect(folded.clock).toEqual(game(h).clock);
        expect(deadlineOf(folded)).toEqual(deadlineOf(game(h)));
        expect(clockView(folded, at(now))).toEqual(clockView(game(h), at(now)));
      }),
      { numRuns: 60 },
    );
  });
});
