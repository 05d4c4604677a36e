import { Logger } from '@nestjs/common';
import { nextWarning, rowStands, STANDING_MARGIN_MS, wakeOf } from '../../src/referee/application/deadline-rows.js';
import type { RefereeMetrics } from '../../src/referee/application/metrics.port.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { addTime, type ClockState, elapse, followGame, newClock, parseTimeControl, type TimeControl } from '../../src/referee/core/game/clock.js';
import { MemoryEventStore } from '../../src/referee/store/memory-event-store.js';
import { type NotificationStore, Notifications, type Registration } from '../../src/webhooks/notifications.js';
import type { OutboxMessage } from '../../src/webhooks/outbox.js';
import { ManualClock } from '../support/clock.js';
import { duelEngine, type DuelState } from '../support/duel-engine.js';

/**
 * Low-time warnings: when the deadline worker is due to tell one (nextWarning, the row's
 * `warnAt`), and what telling it stores (Notifications: one message per registration, threshold
 * and turn). The worker itself, with its table, is tested end to end (test/e2e/webhooks.spec.ts).
 */
const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const SECOND = 1000;
const at = (ms: number) => new Date(T0 + ms).toISOString();

function control(input: unknown): TimeControl {
  const parsed = parseTimeControl(input);
  if (!parsed.ok || !parsed.value) throw new Error(`not a time control: ${JSON.stringify(input)}`);
  return parsed.value;
}
const FISCHER_120 = control({ kind: 'fischer', baseSeconds: 120 });

/** Two seats' clocks at T0 + `ms`, `running` awaited (their turns start then). */
function clocks(running: number[], ms = 0, c: TimeControl = FISCHER_120): ClockState {
  return { ...followGame(newClock(c, 2, null), running, null), at: at(ms) };
}

describe('nextWarning: when a running seat next crosses one of its thresholds', () => {
  it('is each threshold in turn, highest first, as the seat spends its time; none past the last', () => {
    const c = clocks([0]);
    const thresholds = [[60, 20], []];
    expect(nextWarning(c, thresholds)).toBe(T0 + 60 * SECOND);
    // Told at its crossing (or later, up to the next one): the next threshold.
    expect(nextWarning(c, thresholds, T0 + 60 * SECOND)).toBe(T0 + 100 * SECOND);
    expect(nextWarning(c, thresholds, T0 + 99 * SECOND)).toBe(T0 + 100 * SECOND);
    expect(nextWarning(c, thresholds, T0 + 100 * SECOND)).toBeNull();
    // The same clocks later in the turn (a roll before its play) have the same crossings.
    expect(nextWarning(elapse(c, at(30 * SECOND)), thresholds)).toBe(T0 + 60 * SECOND);
  });

  it("is at once, at the version's time, when the seat is below a threshold already; then the next one below it", () => {
    const c = elapse(clocks([0]), at(75 * SECOND));
    expect(nextWarning(c, [[60, 20], []])).toBe(T0 + 75 * SECOND);
    expect(nextWarning(c, [[60, 20], []], T0 + 75 * SECOND)).toBe(T0 + 100 * SECOND);
    // Below both: once at once (the lowest is told), then nothing.
    const later = elapse(clocks([0]), at(110 * SECOND));
    expect(nextWarning(later, [[60, 20], []])).toBe(T0 + 110 * SECOND);
    expect(nextWarning(later, [[60, 20], []], T0 + 110 * SECOND)).toBeNull();
  });

  it('is null without a running clock or without thresholds for the seats that run', () => {
    expect(nextWarning(newClock(FISCHER_120, 2, null), [[60], [60]])).toBeNull();
    expect(nextWarning(clocks([]), [[60], [60]])).toBeNull();
    expect(nextWarning(clocks([0]), [[], [60]])).toBeNull();
    expect(nextWarning(clocks([0]), [])).toBeNull();
    const paused = { ...clocks([0]), pausedBy: 'seats' as const };
    expect(nextWarning(followGame(paused, [0], null), [[60], []])).toBeNull();
  });

  it('counts time added to the seat, and each running seat with its own thresholds', () => {
    const gift = addTime(clocks([0]), 0, 30 * SECOND, 1, false);
    if (!gift.ok) throw new Error(gift.error.message);
    expect(nextWarning(gift.value, [[60], []])).toBe(T0 + 90 * SECOND);
    // Both seats run (a simultaneous decision): the earliest crossing of either.
    const both = elapse(clocks([0, 1]), at(10 * SECOND));
    expect(nextWarning(both, [[30], [90]])).toBe(T0 + 30 * SECOND);
    expect(nextWarning(both, [[30], [90]], T0 + 30 * SECOND)).toBe(T0 + 90 * SECOND);
  });

  it("refills a correspondence bank when a turn starts: the crossings are the new turn's", () => {
    const daily = control({ kind: 'correspondence', perMoveSeconds: 86_400 });
    const c = clocks([1], 5 * SECOND, daily);
    expect(nextWarning(c, [[3600], [3600]])).toBe(T0 + 5 * SECOND + (86_400 - 3600) * SECOND);
  });
});

describe('Notifications.timeRunningLow and lowTimeThresholds', () => {
  const registry = EngineRegistry.of([duelEngine]);
  const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };
  beforeAll(() => Logger.overrideLogger(false));

  const registration = (id: string, seat: number | null, thresholds: number[], events: Registration['events'] = ['TIME_RUNNING_LOW']): Registration => ({
    id,
    events,
    lowTimeThresholdsSeconds: thresholds,
    gameId: 'set below',
    seat,
    tournamentId: null,
    participantId: null,
    playerId: null,
  });

  /** A duel with a clock over the in-memory store, its registrations, and the messages they were told (kept once per id, as the outbox does). */
  async function setup(registrations: Registration[]) {
    const clock = new ManualClock(new Date(T0));
    const referee = new RefereeService(new MemoryEventStore(), registry, metrics, undefined, clock);
    const { game, tokens } = await referee.createGame({ kind: 'duel', timeControl: { kind: 'fischer', baseSeconds: 120 } });
    const told = new Map<string, OutboxMessage>();
    const store: NotificationStore = {
      registrationsFor: async () => registrations.map((r) => ({ ...r, gameId: game.gameId })),
      changes: async () => ({ any: true, changes: [] }),
      enqueue: async (messages) => {
        for (const m of messages) if (!told.has(m.id)) told.set(m.id, m);
      },
    };
    const notifications = new Notifications(store, clock);
    await notifications.refresh();
    return { referee, game, tokens, clock, notifications, told: () => [...told.values()] };
  }

  it('per seat: the thresholds of the registrations about that seat that ask for low time, highest first', async () => {
    const { game, notifications } = await setup([registration('wh_game', null, [60, 20]), registration('wh_seat1', 1, [300, 60]), registration('wh_turns', 0, [], ['YOUR_TURN'])]);
    expect(await notifications.lowTimeThresholds(game)).toEqual([
      [60, 20],
      [300, 60, 20],
    ]);
  });

  it('tells each registration its lowest threshold passed, once per turn whatever the version, in the order the turn passes them', async () => {
    const { referee, game, tokens, clock, notifications, told } = await setup([registration('wh_a', null, [60, 20]), registration('wh_b', 0, [30])]);
    // Seat 0 plays first; its clock runs from the creation.
    const seat = 0;
    expect(duelEngine.toAct(game.state as DuelState)).toEqual([seat]);
    clock.advance(65 * SECOND);
    await notifications.timeRunningLow(game, seat, 55 * SECOND);
    await notifications.timeRunningLow(game, seat, 50 * SECOND);
    expect(told().map((m) => [m.webhookId, (m.payload as { data: { thresholdSeconds: number } }).data.thresholdSeconds])).toEqual([['wh_a', 60]]);
    clock.advance(40 * SECOND);
    await notifications.timeRunningLow(game, seat, 15 * SECOND);
    const messages = told();
    expect(messages.map((m) => [m.webhookId, m.type, (m.payload as { data: Record<string, unknown> }).data])).toEqual([
      ['wh_a', 'game.time_running_low', expect.objectContaining({ gameId: game.gameId, seat, thresholdSeconds: 60, remainingMs: 55 * SECOND })],
      ['wh_a', 'game.time_running_low', expect.objectContaining({ seat, thresholdSeconds: 20, remainingMs: 15 * SECOND })],
      ['wh_b', 'game.time_running_low', expect.objectContaining({ seat, thresholdSeconds: 30, remainingMs: 15 * SECOND })],
    ]);
    // Delivered in (seq, n) order: after the move's own messages, the higher threshold first.
    expect(messages[0].n).toBeLessThan(messages[1].n);
    expect(messages[0].createdAt).toBe(at(65 * SECOND));

    // The seat's turn goes on at a later version (time given to the other seat moves no deadline of this one): nothing new.
    const gift = await referee.addTime(game.gameId, tokens.find((x) => x.seat === seat)!.token, 1 - seat, 60, false);
    expect(gift.accepted).toBe(true);
    const later = await referee.game(game.gameId);
    expect(later.version).toBeGreaterThan(game.version);
    await notifications.timeRunningLow(later, seat, 14 * SECOND);
    expect(told()).toHaveLength(3);
    // A seat whose clock does not run is told nothing.
    await notifications.timeRunningLow(later, 1 - seat, 5 * SECOND);
    expect(told()).toHaveLength(3);
  });
});

describe('rowStands: when a move leaves the stored deadline row as it was', () => {
  const MINUTE = 60 * SECOND;
  const now = T0;
  const far = now + STANDING_MARGIN_MS + MINUTE;

  it("stands while it wakes the worker no later than the move's own row would, and is too far off for any instance to be deciding it", () => {
    expect(rowStands(far, far, now)).toBe(true);
    expect(rowStands(far, far + 60 * MINUTE, now)).toBe(true);
  });

  it('is written when the move brings the wake-up nearer, when no time runs any more (a pause), or when none was stored', () => {
    expect(rowStands(far, far - 1, now)).toBe(false);
    expect(rowStands(far, null, now)).toBe(false);
    expect(rowStands(null, far, now)).toBe(false);
  });

  it('is written when its time is within the margin: an instance may be claiming it', () => {
    expect(rowStands(now + STANDING_MARGIN_MS, far, now)).toBe(false);
    expect(rowStands(now - MINUTE, far, now)).toBe(false);
  });

  it("wakes the worker at the row's deadline or warning, whichever comes first; an ended game's, never", () => {
    const row = (due: number | null, warn: number | null) => ({ gameId: 'g', seat: 0, dueAt: due === null ? null : new Date(due), warnAt: warn === null ? null : new Date(warn), version: 3 });
    expect(wakeOf(row(far, null))).toBe(far);
    expect(wakeOf(row(far, far - MINUTE))).toBe(far - MINUTE);
    expect(wakeOf(row(null, null))).toBeNull();
    expect(wakeOf({ gameId: 'g', version: 3, ended: true })).toBeNull();
  });
});
