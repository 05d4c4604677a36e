import { deadlineOf } from '../../src/referee/core/game/clock.js';
import { accepted, addTime, at, BANKED, clock, create, DAILY, DAY, FISCHER, game, given, HOUR, MINUTE, playDuel, SECOND, toAct, types, view, when } from '../support/timed-games.js';

/**
 * Clocks: pauses asked by the seats or the organizer, time added by the organizer or another
 * seat, and vacations (test/support/timed-games.ts decides at explicit times).
 */

describe('pauses', () => {
  it('pause when every seat asked, resume when every seat asked again; the running seat restarts with what it had', () => {
    let h = given([create(DAILY), 0]);
    const seat = toAct(h);
    expect(types(when(h, { type: 'PauseClock', by: 0 }, HOUR))).toEqual(['PauseRequested']);
    h = accepted(h, { type: 'PauseClock', by: 0 }, HOUR);
    expect(h.events.at(-1)).toMatchObject({ type: 'PauseRequested', actor: 0, payload: { seat: 0 } });
    expect(types(when(h, { type: 'PauseClock', by: 0 }, HOUR))).toBe('PAUSE_CONFLICT');
    expect(types(when(h, { type: 'ResumeClock', by: 0 }, HOUR))).toBe('PAUSE_CONFLICT');
    expect(types(when(h, { type: 'PauseClock', by: 1 }, 2 * HOUR))).toEqual(['PauseRequested', 'ClockPaused']);
    h = accepted(h, { type: 'PauseClock', by: 1 }, 2 * HOUR);
    expect(h.events.at(-1)).toMatchObject({ type: 'ClockPaused', actor: null, payload: { by: 'seats' } });
    expect(deadlineOf(game(h))).toBeNull();
    expect(view(h, 10 * DAY)).toMatchObject({ paused: true, pausedBy: 'seats', running: [], remainingMs: [0, 1].map((s) => (s === seat ? 22 * HOUR : 0)) });
    h = accepted(h, { type: 'ResumeClock', by: 1 }, 5 * DAY);
    expect(deadlineOf(game(h))).toBeNull();
    expect(types(when(h, { type: 'ResumeClock', by: 0 }, 6 * DAY))).toEqual(['ResumeRequested', 'ClockResumed']);
    h = accepted(h, { type: 'ResumeClock', by: 0 }, 6 * DAY);
    expect(deadlineOf(game(h))).toEqual({ seat, at: at(6 * DAY + 22 * HOUR) });
  });

  it('a seat declines the other’s request to pause: the request is withdrawn, the clocks run on, and it may be asked again', () => {
    let h = given([create(DAILY), 0]);
    const seat = toAct(h);
    expect(types(when(h, { type: 'DeclinePause', seat: 1 }, HOUR))).toBe('PAUSE_CONFLICT');
    h = accepted(h, { type: 'PauseClock', by: 0 }, HOUR);
    expect(types(when(h, { type: 'DeclinePause', seat: 0 }, HOUR))).toBe('PAUSE_CONFLICT');
    h = accepted(h, { type: 'DeclinePause', seat: 1 }, 2 * HOUR);
    expect(h.events.at(-1)).toMatchObject({ type: 'PauseDeclined', actor: 1, payload: { seat: 1 } });
    expect(view(h, 3 * HOUR)).toMatchObject({ paused: false, requests: [], running: [seat] });
    expect(deadlineOf(game(h))).toEqual({ seat, at: at(DAY) });
    // Asked again, both this time: paused, and nothing left to decline.
    h = accepted(accepted(h, { type: 'PauseClock', by: 0 }, 4 * HOUR), { type: 'PauseClock', by: 1 }, 5 * HOUR);
    expect(types(when(h, { type: 'DeclinePause', seat: 1 }, 6 * HOUR))).toBe('PAUSE_CONFLICT');
  });

  it('the organizer pauses and resumes at once; only the organizer lifts its pause', () => {
    let h = given([create(FISCHER), 0]);
    const seat = toAct(h);
    h = accepted(h, { type: 'PauseClock', by: 'organizer' }, MINUTE);
    expect(h.events.at(-1)).toMatchObject({ type: 'ClockPaused', actor: null, payload: { by: 'organizer' } });
    expect(types(when(h, { type: 'ResumeClock', by: seat }, HOUR))).toBe('PAUSE_CONFLICT');
    expect(types(when(h, { type: 'PauseClock', by: 'organizer' }, HOUR))).toBe('PAUSE_CONFLICT');
    h = accepted(h, { type: 'ResumeClock', by: 'organizer' }, DAY);
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
    h = accepted(h, { type: 'ResumeClock', by: 'organizer' }, 3 * DAY);
    expect(deadlineOf(game(h))).toEqual({ seat: 1 - mover, at: at(4 * DAY) });
    expect(types(when(given([create(null), 0]), { type: 'PauseClock', by: 0 }, HOUR))).toBe('NO_CLOCK');
  });
});

describe('added time', () => {
  it('the organizer or another seat adds time; it is spent after the seat’s own and survives the next turn’s refill', () => {
    let h = given([create(DAILY), 0]);
    const seat = toAct(h);
    const other = 1 - seat;
    h = accepted(h, addTime(seat, HOUR, 'organizer'), MINUTE);
    expect(h.events.at(-1)).toMatchObject({ type: 'TimeAdded', actor: null, payload: { seat, ms: HOUR, by: 'organizer', vacation: false } });
    expect(deadlineOf(game(h))).toEqual({ seat, at: at(DAY + HOUR) });
    h = accepted(h, addTime(other, 5 * HOUR, seat), 2 * MINUTE);
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
    h = accepted(h, addTime(other, 20 * HOUR, seat), MINUTE);
    expect(when(h, addTime(other, 365 * DAY, seat), 2 * MINUTE)).toMatchObject({ ok: false, error: { code: 'GIFT_LIMIT', message: expect.stringContaining(`4 hours (${4 * HOUR} ms) more`) } });
    h = accepted(h, addTime(other, 4 * HOUR, seat), 2 * MINUTE);
    expect(types(when(h, addTime(other, 1, seat), 3 * MINUTE))).toBe('GIFT_LIMIT');
    h = accepted(h, addTime(other, 365 * DAY, 'organizer'), 3 * MINUTE);
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
    h = accepted(h, addTime(seat, 2 * DAY, seat, true), HOUR);
    expect(deadlineOf(game(h))).toEqual({ seat, at: at(3 * DAY) });
    expect(when(h, addTime(seat, 2 * DAY, seat, true), 2 * HOUR)).toMatchObject({ ok: false, error: { code: 'NO_VACATION_LEFT' } });
    h = accepted(h, addTime(1 - seat, DAY, 1 - seat, true), 2 * HOUR);
    h = accepted(h, addTime(seat, DAY, seat, true), 3 * HOUR);
    expect(view(h, 3 * HOUR).vacationLeftMs).toEqual([0, 1].map((s) => (s === seat ? 0 : 2 * DAY)));
    expect(when(h, addTime(seat, HOUR, 1 - seat, true), 3 * HOUR)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: 'a seat takes its vacation for itself' } });
    const fischer = given([create(FISCHER), 0]);
    expect(when(fischer, addTime(0, HOUR, 0, true), MINUTE)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: 'vacations are for correspondence games' } });
  });
});
