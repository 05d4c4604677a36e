import { backgammonEngine, type BackgammonState } from '../../src/games/backgammon/engine/index.js';
import { verifyStream } from '../../src/referee/core/audit.js';
import { clockView, deadlineOf } from '../../src/referee/core/game/clock.js';
import { foldGame } from '../../src/referee/core/game/fold.js';
import { eventHash, StreamError } from '../../src/referee/core/stream.js';
import type { DuelState } from '../support/duel-engine.js';
import { accepted, addTime, at, create, DAILY, DAY, FISCHER, GAME, game, given, HOUR, MINUTE, playDuel, registry, SECOND, SEED, timeOut, toAct, types, view, when } from '../support/timed-games.js';

/**
 * Clocks: deadlines (what is refused after one, a timeout applied late, a stream edited past
 * one) and what a timeout costs in each game (test/support/timed-games.ts decides at explicit times).
 */

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
    const revived = accepted(h, addTime(seat, HOUR, 'organizer'), late);
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

describe('what a timeout costs, game by game', () => {
  it('backgammon: the seat on roll loses the whole match, scored as a resignation of the match', () => {
    let h = given([create(FISCHER, 'backgammon', { matchLength: 5, resignWhen: 'any-time' }), 0]);
    const state = () => game(h).state as BackgammonState;
    // The bystander may offer to resign at any time, but its clock does not run.
    expect(backgammonEngine.toAct(state())).toHaveLength(2);
    expect(view(h, MINUTE).running).toEqual([deadlineOf(game(h))!.seat]);
    const onRoll = deadlineOf(game(h))!.seat;
    h = accepted(h, timeOut(onRoll, 300 * SECOND), HOUR);
    expect(h.events.slice(-3).map((e) => e.type)).toEqual(['TimedOut', 'GameEnded', 'SeedRevealed']);
    expect(game(h).outcome).toMatchObject({ winners: [1 - onRoll], summary: expect.stringContaining('wins the 5-point match') });
    expect(game(h).outcome!.points[1 - onRoll]).toBeGreaterThanOrEqual(5);
    expect(state().games.at(-1)).toMatchObject({ winner: 1 - onRoll, endedBy: 'forfeit' });
  });

  it('Cerke: the seat to move loses the game', () => {
    let h = given([create(DAILY, 'cerke', {}), 0]);
    const seat = deadlineOf(game(h))!.seat;
    h = accepted(h, timeOut(seat, DAY), DAY);
    expect(game(h).outcome).toMatchObject({ winners: [1 - seat] });
    expect(game(h).ended).toBe(true);
    expect(foldGame(registry, GAME, h.events, SEED, { checkHashes: true }).outcome).toEqual(game(h).outcome);
  });
});
