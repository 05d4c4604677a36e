import request from 'supertest';
import { DatabaseService } from '../../src/database/database.service.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { DeadlineStore } from '../../src/referee/store/deadline-store.js';
import type { TestApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ownStorageEach } from '../support/own-database.js';
import { CREATE } from '../support/queries.js';
import { eventually, WebhookReceiver } from '../support/webhook-receiver.js';
import { type Gql, joinDuel, log, newDuel, ofGame, play, QUICK, register } from '../support/webhook-games.js';

/**
 * Webhooks on a clock, on PostgreSQL (TEST_DATABASE_URL) or a fresh embedded database: retries and
 * giving up driven by a hand-moved clock, and the low-time warnings and timeouts of a game on a
 * Fischer clock, every signature checked with the standardwebhooks package.
 */

describe('webhooks on a hand-moved clock', () => {
  const storage = ownStorageEach('webhooks');
  it('retries when the clock says so, and gives a message up after 26 hours; the next one then goes', async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    // The default schedule (30 s, doubling to 1 h, given up after 26 h); only the looks are frequent.
    const t = await startAppWithClock(clock, { ...storage(), webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }], webhookPollMs: 20 });
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    try {
      receiver.status = 503;
      const { id, token0 } = await newDuel(gql);
      const hook = await register(gql, token0, { url: receiver.url, gameId: id, events: ['YOUR_TURN'] });
      /**
       * Waits until attempt `n` of the game's message `i` (oldest first) is recorded, stamped with
       * the standing clock: an outcome is judged by the clock's time when the answer came, so the
       * clock moves only once the worker has read it (on a busy machine the answer can be read
       * after the test's next step).
       */
      const recorded = (i: number, n: number) =>
        eventually(
          () => log(gql, hook.id, token0),
          (e) => e[i]?.attempts === n && e[i].lastAttemptAt !== null && Date.parse(e[i].lastAttemptAt!) === clock.now().getTime(),
        );
      const token1 = await joinDuel(gql, id);
      await receiver.until(() => receiver.received.length === 1);
      await recorded(0, 1);
      // The first retry is due within 30 s of clock time: none comes while the clock stands still.
      await new Promise((r) => setTimeout(r, 200));
      expect(receiver.received).toHaveLength(1);
      clock.advance(30_000);
      await receiver.until(() => receiver.received.length === 2);
      await recorded(0, 2);
      await play(gql, id, [token0, token1], 1);
      // Just past the first message's 26 hours (not yet the second's, caused 30 s later).
      clock.advance(26 * 3600_000 - 20_000);
      const entries = await recorded(0, 3);
      expect(entries[0]).toMatchObject({ attempts: 3, lastStatus: 503, nextAttemptAt: null, deliveredAt: null, givenUpAt: expect.any(String) });
      // Given up, the first no longer holds the second back: it is tried at once (refused too),
      // then again when its own time comes.
      expect((await recorded(1, 1))[1]).toMatchObject({ lastStatus: 503, givenUpAt: null });
      receiver.status = 200;
      clock.advance(30_000);
      await receiver.until(() => receiver.delivered().length === 1);
      expect(WebhookReceiver.body(receiver.delivered()[0]).data).toMatchObject({ gameId: id, seat: 1 });
      expect(receiver.delivered()[0].id).toBe(entries[1].messageId);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});

describe('webhooks of a game with a clock', () => {
  const storage = ownStorageEach('webhooks');
  /** Signatures are checked against the wall clock: each test's clock starts at it and moves less than four minutes. */
  const SECOND = 1000;
  const LOW = 'game.time_running_low';
  const hosts = (receiver: WebhookReceiver) => ({ ...storage(), webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }], ...QUICK });

  /** A duel with a Fischer clock, seat 1 left open: its clock starts when someone joins. */
  async function timedDuel(gql: Gql, baseSeconds: number): Promise<{ id: string; token0: string }> {
    const res = await gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, seats: [{ name: 'a' }, { open: true }], timeControl: { kind: 'FISCHER', baseSeconds } } });
    expect(res.data.createGame.__typename).toBe('GameCreated');
    return { id: res.data.createGame.game.id, token0: res.data.createGame.tokens[0].token };
  }

  /** The messages stored for a game (the outbox: what will be delivered), in delivery order. */
  async function stored(t: TestApp, gameId: string): Promise<{ type: string; seat: number | null; thresholdSeconds?: number; remainingMs?: number; rule?: string }[]> {
    const { rows } = await t.app.get(DatabaseService).pool.query('SELECT payload FROM webhook_messages WHERE game_id = $1 ORDER BY seq, n', [gameId]);
    return rows.map((r: { payload: { type: string; data: Record<string, any> } }) => ({ type: r.payload.type, ...r.payload.data }) as any);
  }

  it("tells a seat's time running low once per threshold as the worker reaches each, nothing once it moved, then its opponent's timeout and the end", async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    const t = await startAppWithClock(clock, hosts(receiver));
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    const worker = t.app.get(RefereeService).deadlines!;
    // The test ticks the worker itself, so that each tick is known to be done.
    await worker.stop();
    try {
      const { id, token0 } = await timedDuel(gql, 120);
      const hook = await register(gql, token0, { url: receiver.url, gameId: id, events: ['TIME_RUNNING_LOW', 'TIMED_OUT', 'GAME_OVER'], lowTimeThresholdsSeconds: [20, 60] });
      // The registration counts from the next move: the join, which starts seat 0's clock.
      const token1 = await joinDuel(gql, id);
      const rows = t.app.get(DeadlineStore);
      const started = await rows.get(id);
      expect(started).toMatchObject({ seat: 0, claimedUntil: null });
      expect(started!.warnAt!.getTime()).toBe(started!.dueAt!.getTime() - 60 * SECOND);
      const lows = async () => (await stored(t, id)).filter((m) => m.type === LOW);

      clock.advance(59 * SECOND);
      await worker.tick();
      expect(await lows()).toEqual([]);
      clock.advance(2 * SECOND);
      await worker.tick();
      await worker.tick();
      expect(await lows()).toEqual([expect.objectContaining({ seat: 0, thresholdSeconds: 60, remainingMs: 59 * SECOND })]);
      expect((await rows.get(id))!.warnAt!.getTime()).toBe(started!.dueAt!.getTime() - 20 * SECOND);
      clock.advance(40 * SECOND);
      await worker.tick();
      expect((await lows()).map((m) => [m.seat, m.thresholdSeconds, m.remainingMs])).toEqual([
        [0, 60, 59 * SECOND],
        [0, 20, 19 * SECOND],
      ]);

      // Seat 0 moves: its clock stops, seat 1's runs from 120 s (its thresholds are a minute off).
      expect(await play(gql, id, [token0, token1], 1)).toEqual([0]);
      clock.advance(30 * SECOND);
      await worker.tick();
      expect(await lows()).toHaveLength(2);
      clock.advance(31 * SECOND);
      await worker.tick();
      expect((await lows()).map((m) => [m.seat, m.thresholdSeconds])).toEqual([
        [0, 60],
        [0, 20],
        [1, 60],
      ]);
      // Past seat 1's deadline (and its 20 s threshold): only the timeout is told.
      clock.advance(60 * SECOND);
      expect(await worker.tick()).toBeGreaterThanOrEqual(1);
      expect(await rows.get(id)).toBeNull();

      const all = await stored(t, id);
      expect(all.map((m) => [m.type, m.seat])).toEqual([
        [LOW, 0],
        [LOW, 0],
        [LOW, 1],
        ['game.timed_out', 1],
        ['game.over', null],
      ]);
      await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === all.length);
      const bodies = receiver
        .delivered()
        .filter(ofGame(id))
        .map((r) => WebhookReceiver.verify(r, hook.secret));
      expect(bodies.map((b) => [b.type, b.data.seat, b.data.thresholdSeconds ?? b.data.rule ?? null])).toEqual([
        [LOW, 0, 60],
        [LOW, 0, 20],
        [LOW, 1, 60],
        ['game.timed_out', 1, 'concede'],
        ['game.over', null, null],
      ]);
      expect(bodies[4].data).toMatchObject({ result: { winners: [0] } });
      // Each was delivered at its first attempt: nothing came twice.
      expect(receiver.received.filter(ofGame(id))).toHaveLength(all.length);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  it("carries the game as REST answers the registrant's seat at that version (its clock and deadline included), without the view and legal actions", async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    const t = await startAppWithClock(clock, hosts(receiver));
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    try {
      const { id, token0 } = await timedDuel(gql, 120);
      const hook = await register(gql, token0, { url: receiver.url, events: ['YOUR_TURN'] });
      // Seat 0's own registration. The join starts its clock: its turn, told with the game as it stands, the clock not moved since.
      await joinDuel(gql, id);
      await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === 1);
      const told = WebhookReceiver.verify(receiver.delivered().filter(ofGame(id))[0], hook.secret).data;
      const rest = await request(t.app.getHttpServer()).get(`/api/games/${id}`).set('authorization', `Bearer ${token0}`).expect(200);
      const { view: _view, legalActions: _legal, ...shown } = rest.body;
      expect(told.game).toEqual(shown);
      expect(told.game).toMatchObject({ version: told.seq, mySeat: 0, toAct: [0], clock: { running: [0], deadline: expect.any(String), remainingMs: [120 * SECOND, 120 * SECOND] } });
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  it('delivers a low-time warning at once, not at the next poll of the outbox', async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    // A poll far longer than the test may wait: only the warning's own wake-up delivers it.
    const t = await startAppWithClock(clock, { ...hosts(receiver), webhookPollMs: 3_600_000 });
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    const worker = t.app.get(RefereeService).deadlines!;
    await worker.stop();
    try {
      const { id, token0 } = await timedDuel(gql, 120);
      const hook = await register(gql, token0, { url: receiver.url, gameId: id, events: ['TIME_RUNNING_LOW'], lowTimeThresholdsSeconds: [60] });
      await joinDuel(gql, id);
      clock.advance(61 * SECOND);
      await worker.tick();
      await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === 1);
      expect(WebhookReceiver.verify(receiver.delivered().filter(ofGame(id))[0], hook.secret).data).toMatchObject({ seat: 0, thresholdSeconds: 60 });
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  it('tells at start-up, once, a warning whose time came while no instance ran; a deadline that came too is only a timeout', async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    // The same (own) database across the restart.
    const settings = hosts(receiver);
    let t = await startAppWithClock(clock, settings);
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    try {
      const warned = await timedDuel(gql, 120);
      const hook = await register(gql, warned.token0, { url: receiver.url, gameId: warned.id, events: ['TIME_RUNNING_LOW'], lowTimeThresholdsSeconds: [30, 60] });
      await joinDuel(gql, warned.id);
      const late = await timedDuel(gql, 60);
      await register(gql, late.token0, { url: receiver.url, gameId: late.id, events: ['TIME_RUNNING_LOW', 'TIMED_OUT'], lowTimeThresholdsSeconds: [30] });
      await joinDuel(gql, late.id);
      await t.close();

      // While no instance runs, both of the first game's thresholds pass (the lowest is told), and the second game's deadline.
      clock.advance(100 * SECOND);
      t = await startAppWithClock(clock, settings);
      // The start-up scan runs in the background; a tick waits for it, and finds nothing more to do.
      await t.app.get(RefereeService).deadlines!.tick();
      await t.app.get(RefereeService).deadlines!.tick();
      expect(await stored(t, warned.id)).toEqual([expect.objectContaining({ type: LOW, seat: 0, thresholdSeconds: 30, remainingMs: 20 * SECOND })]);
      expect((await stored(t, late.id)).map((m) => m.type)).toEqual(['game.timed_out']);
      expect((await t.app.get(DeadlineStore).get(warned.id))!.warnAt).toBeNull();

      await receiver.until(() => receiver.delivered().filter(ofGame(warned.id)).length === 1);
      const [told] = receiver.delivered().filter(ofGame(warned.id));
      expect(WebhookReceiver.verify(told, hook.secret).data).toMatchObject({ gameId: warned.id, seat: 0, thresholdSeconds: 30, remainingMs: 20 * SECOND });
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});
