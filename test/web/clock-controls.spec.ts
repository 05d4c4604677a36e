import fc from 'fast-check';
import { clockControls, type LoggedEvent, type SeatGame } from '../../web/src/pages/clock-controls.js';
import type { GameClock } from '../../web/src/pages/clocks.js';

/** The time section under a game's clocks (issue 28, item 4), read as the markup a player gets. */
const DAY_MS = 86_400_000;
const names = ['Ada', 'Bo'];
const seatName = (i: number) => names[i];

function clock(over: Partial<GameClock> = {}): GameClock {
  return {
    kind: 'CORRESPONDENCE',
    paused: false,
    pauseRequests: [],
    running: [0],
    remainingMs: [DAY_MS, DAY_MS],
    timedOut: [],
    deadline: null,
    vacationLeftMs: [3 * DAY_MS, 3 * DAY_MS],
    control: { baseSeconds: null, perMoveSeconds: 86_400 },
    ...over,
  };
}
const game = (over: Partial<SeatGame> = {}): SeatGame => ({ id: 'g', status: 'ACTIVE', mySeat: 0, clock: clock(), ...over });
const moved: LoggedEvent[] = [{ seq: 4, type: 'ActionTaken', actor: 1, payload: { action: { type: 'roll' } } }];
const added = (payload: Record<string, unknown>, seq = 5): LoggedEvent => ({ seq, type: 'TimeAdded', actor: null, payload });
const text = (markup: { text: string }) =>
  markup.text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('the time section of a game’s page', () => {
  it('names who gave each amount of time: a vacation, a seat’s gift, the organizer', () => {
    const events = [
      ...moved,
      added({ seat: 0, ms: 2 * DAY_MS, by: 0, vacation: true }),
      added({ seat: 0, ms: 60_000, by: 1, vacation: false }),
      added({ seat: 1, ms: 600_000, by: 'organizer', vacation: false }),
    ];
    const shown = text(clockControls(game({ mySeat: null }), events, seatName));
    expect(shown).toBe('Time Time given Ada took 2 d 0 h of vacation Bo gave Ada 1:00 The organizer gave Bo 10:00');
  });

  it('offers a spectator nothing to do, and a seat its controls', () => {
    expect(clockControls(game({ mySeat: null }), moved, seatName).text).toBe('');
    const seat = clockControls(game(), moved, seatName).text;
    expect(seat).toContain('data-clock-cmd="vacation"');
    expect(seat).toContain('data-clock-cmd="pause"');
    expect(seat).not.toContain('data-clock-cmd="abort"');
  });

  it('offers abort only while no seat has moved (the referee’s forced plays do not count)', () => {
    const forced: LoggedEvent = { seq: 3, type: 'ActionTaken', actor: 0, payload: { forced: true } };
    expect(clockControls(game(), [forced], seatName).text).toContain('data-clock-cmd="abort"');
    expect(clockControls(game({ status: 'WAITING', clock: null }), [], seatName).text).toContain('data-clock-cmd="abort"');
    expect(clockControls(game(), [forced, ...moved], seatName).text).not.toContain('data-clock-cmd="abort"');
  });

  it('asks a seat to answer the other seat’s request, and tells the seat that asked whom it waits for', () => {
    expect(text(clockControls(game({ clock: clock({ pauseRequests: [1] }) }), moved, seatName))).toContain('Bo asks to pause the clocks. Accept Decline');
    expect(text(clockControls(game({ clock: clock({ pauseRequests: [0] }) }), moved, seatName))).toContain('You asked to pause the clocks; waiting for Bo.');
    expect(text(clockControls(game({ clock: clock({ paused: true, pauseRequests: [1] }) }), moved, seatName))).toContain('Bo asks to resume the clocks.');
  });

  it('never offers more vacation than is left: whole days, or hours under a day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 * DAY_MS }), (left) => {
        const markup = clockControls(game({ clock: clock({ vacationLeftMs: [left, 0] }) }), moved, seatName).text;
        const offered = [...markup.matchAll(/<option value="(\d+)">/g)].map((m) => Number(m[1]) * 1000);
        expect(offered.every((ms) => ms <= left)).toBe(true);
        expect(offered.length > 0).toBe(left >= 3_600_000);
        expect(offered.every((ms) => ms % (left >= DAY_MS ? DAY_MS : 3_600_000) === 0)).toBe(true);
      }),
    );
  });
});
