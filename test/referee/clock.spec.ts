import fc from 'fast-check';
import { clockView, deadlineOf, parseTimeControl } from '../../src/referee/core/game/clock.js';
import type { GameCommand } from '../../src/referee/core/game/commands.js';
import { foldGame } from '../../src/referee/core/game/fold.js';
import { eventHash } from '../../src/referee/core/stream.js';
import type { DuelState } from '../support/duel-engine.js';
import {
  accepted,
  addTime,
  at,
  BANKED,
  clock,
  create,
  ctx,
  DAILY,
  DAY,
  FISCHER,
  GAME,
  game,
  games,
  given,
  HOUR,
  MINUTE,
  playDuel,
  registry,
  SECOND,
  SEED,
  T0,
  toAct,
  view,
  when,
} from '../support/timed-games.js';

/**
 * Clocks: time controls, the clocks read from the stamps, and folding the decided events again
 * (test/support/timed-games.ts decides them at explicit times).
 */

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
    h = accepted(h, { type: 'JoinSeat', seat: 1, name: 'Bo', clientSeed: null, seats: [seat, open] }, 5 * DAY);
    expect(deadlineOf(game(h))).toEqual({ seat: toAct(h), at: at(6 * DAY) });
  });

  it('never runs backwards: a decision behind the last stamp (another instance lagging) is stamped at it', () => {
    const h = given([create(FISCHER), 0], [addTime(0, MINUTE, 'organizer'), 10 * SECOND]);
    const r = when(h, addTime(1, MINUTE, 'organizer'), 5 * SECOND);
    expect(r.ok && r.value.steps[0].draft.createdAt).toBe(at(10 * SECOND));
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
