import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { MetricsService } from '../../src/ops/metrics.service.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { DeadlineStore } from '../../src/referee/store/deadline-store.js';
import { EventStore } from '../../src/referee/store/event-store.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import type { TestApp } from '../support/app.js';
import { ownStorage } from '../support/own-database.js';
import { ACT, CREATE, EVENTS, VERIFY } from '../support/queries.js';

/**
 * Time controls end to end, time driven by a clock moved by hand: deadlines act on their own
 * (the worker's tick), exactly once, also across instances and a restart. On PostgreSQL the suite
 * has a database of its own, dropped at the end: its clock runs weeks ahead, so on the shared
 * database its ticks would time out other suites' running games, and the games it leaves running
 * would fall due, days later, for another suite's (or run's) worker.
 */
const clock = new ManualClock();
let storage: Awaited<ReturnType<typeof ownStorage>>;
let settings: Awaited<ReturnType<typeof ownStorage>>['settings'];
let t: TestApp;

beforeAll(async () => {
  storage = await ownStorage('clocks');
  settings = storage.settings;
  t = await startAppWithClock(clock, settings);
  // The tests tick the worker themselves, so that each knows what its tick decided.
  await worker().stop();
});
afterAll(async () => {
  await t?.close();
  await storage?.drop();
});

const SECOND = 1000;
const DAY = 86_400 * SECOND;
const referee = () => t.app.get(RefereeService);
const worker = () => referee().deadlines!;

const GAME = `query($id: ID!) { game(id: $id) {
  id status version toAct legalActions result
  clock { kind remainingMs running deadline paused pauseRequests timedOut autoPlayed vacationLeftMs
          control { kind perMoveSeconds bankCapSeconds vacationSeconds baseSeconds incrementSeconds } }
} }`;
const MOVE_RESULT = `__typename ... on MoveAccepted { seat version status events { type actor payload createdAt } } ... on Rejection { code message }`;
const ADD_TIME = `mutation($g: ID!, $seat: Int!, $s: Int!, $v: Boolean) { addTime(gameId: $g, seat: $seat, seconds: $s, vacation: $v) { ${MOVE_RESULT} } }`;
const PAUSE = `mutation($g: ID!) { pauseClock(gameId: $g) { ${MOVE_RESULT} } }`;
const RESUME = `mutation($g: ID!) { resumeClock(gameId: $g) { ${MOVE_RESULT} } }`;
const DECLINE = `mutation($g: ID!) { declinePause(gameId: $g) { ${MOVE_RESULT} } }`;

interface Clocked {
  id: string;
  status: string;
  version: number;
  toAct: number[];
  legalActions: { type: string }[];
  result: { winners: number[]; summary: string } | null;
  clock: {
    kind: string;
    remainingMs: number[];
    running: number[];
    deadline: string | null;
    paused: boolean;
    pauseRequests: number[];
    timedOut: number[];
    autoPlayed: number[];
    vacationLeftMs: number[];
    control: Record<string, unknown>;
  } | null;
}

async function create(kind: string, ruleset: unknown, timeControl: unknown, seats?: { name: string }[]): Promise<{ id: string; tokens: string[] }> {
  const res = await t.gql(CREATE, { input: { kind, ruleset, timeControl, seats } });
  const created = res.data?.createGame;
  if (created?.__typename !== 'GameCreated') throw new Error(`createGame: ${JSON.stringify(res)}`);
  return { id: created.game.id, tokens: created.tokens.map((x: { token: string }) => x.token) };
}

const game = async (id: string, token?: string): Promise<Clocked> => (await t.gql(GAME, { id }, token)).data.game;
const events = async (id: string): Promise<{ seq: number; type: string; actor: number | null; payload: Record<string, unknown>; createdAt: string }[]> =>
  (await t.gql(EVENTS, { gameId: id })).data.gameEvents.nodes;
/** The game's deadline row, once the writes of the moves made so far are stored (they are written after the answer). */
const row = async (id: string) => {
  const rows = t.app.get(DeadlineStore);
  await rows.flushed();
  return rows.get(id);
};
const timeouts = async (id: string) => (await events(id)).filter((e) => e.type === 'TimedOut');

let moveNo = 0;
/** The seat to act plays its first legal action but those in `avoid`; answers the seat. */
async function playOne(id: string, tokens: string[], avoid: string[] = ['resign', 'double']): Promise<number> {
  const spectator = await game(id);
  const seat = spectator.toAct[0];
  const mine = await game(id, tokens[seat]);
  const action = mine.legalActions.find((a) => !avoid.includes(a.type)) ?? mine.legalActions[0];
  const res = await t.gql(ACT, { gameId: id, moveId: `m${moveNo++}`, action, expectedVersion: mine.version }, tokens[seat]);
  if (res.data?.submitAction?.__typename !== 'MoveAccepted') throw new Error(`move refused: ${JSON.stringify(res)}`);
  return seat;
}

describe(`time controls (${process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'})`, () => {
  it('createGame refuses an invalid time control with a typed rejection, and stores nothing', async () => {
    const refused = async (timeControl: unknown) => (await t.gql(CREATE, { input: { kind: 'backgammon', timeControl } })).data.createGame;
    const count = async () => (await t.gql('{ games { totalCount } }')).data.games.totalCount as number;
    const before = await count();
    expect(await refused({ kind: 'FISCHER' })).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT', message: expect.stringMatching(/baseSeconds is required/) });
    expect(await refused({ kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, baseSeconds: 60 })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/no "baseSeconds"/) });
    expect(await refused({ kind: 'CORRESPONDENCE', perMoveSeconds: 5 })).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/perMoveSeconds must be a whole number of seconds from 60/),
    });
    expect(await refused({ kind: 'FISCHER', baseSeconds: 60, incrementSeconds: -1 })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await count()).toBe(before);
    // NONE is a game without a clock, as is no time control at all.
    const none = await create('backgammon', {}, { kind: 'NONE' });
    expect((await game(none.id)).clock).toBeNull();
    expect(await row(none.id)).toBeNull();
  });

  it('a correspondence backgammon match: the seat that lets its time run out loses the match, recorded once at its deadline', async () => {
    const players = ['Alice', 'Bob'];
    const { id, tokens } = await create(
      'backgammon',
      { matchLength: 3 },
      { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, bankCapSeconds: 3 * 86_400 },
      players.map((name) => ({ name })),
    );
    for (let i = 0; i < 3; i++) {
      clock.advance(3600 * SECOND);
      await playOne(id, tokens);
    }
    const before = await game(id);
    const late = before.clock!.running[0];
    expect(before.clock).toMatchObject({ kind: 'CORRESPONDENCE', running: [late], paused: false, timedOut: [], control: { perMoveSeconds: 86_400, bankCapSeconds: 259_200, baseSeconds: null } });
    // The row the worker watches wakes it no later than the deadline: each move's deadline was later than the one before
    // and a day off, so the moves after the first left the row as it was (the worker, woken early, finds nothing due).
    const watched = await row(id);
    expect(watched!.version).toBeLessThan(before.version);
    expect(watched!.dueAt!.getTime()).toBeLessThanOrEqual(Date.parse(before.clock!.deadline!));
    const deadline = before.clock!.deadline!;

    clock.set(new Date(Date.parse(deadline) + 5 * SECOND));
    // Past its deadline the seat may not move any more: its timeout comes first.
    const mine = await game(id, tokens[late]);
    const moved = await t.gql(ACT, { gameId: id, moveId: 'too-late', action: mine.legalActions[0] }, tokens[late]);
    expect(moved.data.submitAction).toMatchObject({ __typename: 'Rejection', code: 'OUT_OF_TIME' });
    expect((await game(id)).clock!.timedOut).toEqual([late]);

    // Counted per game: the suite's other games may fall due with it.
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    await worker().tick();
    const after = await game(id);
    expect(after.status).toBe('FINISHED');
    expect(after.result!.winners).toEqual([1 - late]);
    // The summary says it was on time, naming the players (docs/time-controls.md, "How a game's end is told").
    expect(after.result!.summary).toBe(`${players[1 - late]} wins on time`);
    expect(after.clock).toMatchObject({ running: [], deadline: null, timedOut: [late] });
    const timedOut = await timeouts(id);
    expect(timedOut).toEqual([expect.objectContaining({ actor: null, payload: { seat: late, rule: 'concede' }, createdAt: deadline })]);
    expect(await row(id)).toBeNull();
    expect((await t.gql(VERIFY, { gameId: id })).data.verifyGame).toMatchObject({ ok: true, problem: null });
    // The .mat record has no clocks: the timeout is the loser's whole-match concession there.
    const mat = (await t.gql('query($id: ID!) { backgammonRecord(gameId: $id) }', { id })).data.backgammonRecord as string;
    expect(mat).toMatch(/Wins \d+ points? by forfeit/);
    expect(mat.split('\n')[0]).toBe(`; ${players[1 - late]} wins on time: .mat has no clock, so the match ends as conceded by forfeit`);
  });

  it('a Fischer Cerke game: each turn adds the increment, and a timeout loses the game', async () => {
    const { id, tokens } = await create('cerke', {}, { kind: 'FISCHER', baseSeconds: 600, incrementSeconds: 10 });
    const start = await game(id);
    expect(start.clock).toMatchObject({ kind: 'FISCHER', remainingMs: [600_000, 600_000], control: { baseSeconds: 600, incrementSeconds: 10, perMoveSeconds: null } });
    const mover = start.clock!.running[0];
    clock.advance(5 * SECOND);
    // The whole turn (a stepping cast may ask the same seat again).
    do await playOne(id, tokens);
    while ((await game(id)).clock!.running.includes(mover));
    const next = await game(id);
    const other = 1 - mover;
    expect(next.clock!.running).toEqual([other]);
    expect(next.clock!.remainingMs[mover]).toBe(600_000 - 5000 + 10_000);
    expect(next.clock!.remainingMs[other]).toBe(600_000);
    clock.advance(200 * SECOND);
    expect((await game(id)).clock!.remainingMs[other]).toBe(400_000);

    clock.advance(400 * SECOND);
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    const over = await game(id);
    expect(over.status).toBe('FINISHED');
    expect(over.result!.winners).toEqual([mover]);
    // Unnamed seats are called as Cerke calls them.
    expect(over.result!.summary).toBe(`${['IA', 'A'][mover]} wins on time`);
    expect((await timeouts(id)).map((e) => e.payload)).toEqual([{ seat: other, rule: 'concede' }]);
    expect((await t.gql(VERIFY, { gameId: id })).data.verifyGame).toMatchObject({ ok: true, summary: expect.stringContaining(`result: ${['IA', 'A'][mover]} wins on time`) });
  });

  it('Chicken Foot: a seat that runs out of time is auto-played until its round ends, then plays on with a fresh clock', async () => {
    const { id, tokens } = await create('chicken-foot', { preset: 'classic', players: 3, setMax: 6, handSize: 5 }, { kind: 'FISCHER', baseSeconds: 60 });
    const late = (await game(id)).clock!.running[0];
    clock.advance(61 * SECOND);
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    const timed = await game(id);
    expect(timed.clock!.autoPlayed).toEqual([late]);
    expect(timed.status).toBe('ACTIVE');
    expect((await timeouts(id)).map((e) => e.payload)).toEqual([{ seat: late, rule: 'autoPlay' }]);
    // The others play on; the referee plays the late seat's turns itself, until the round ends.
    for (let i = 0; ; i++) {
      const now = await game(id);
      if (now.status === 'FINISHED' || now.clock!.autoPlayed.length === 0) break;
      if (i > 500) throw new Error('the round did not end');
      expect(now.toAct).not.toContain(late);
      await playOne(id, tokens, ['resign']);
    }
    const auto = (await events(id)).filter((e) => e.type === 'ActionTaken' && e.payload.auto === true);
    expect(auto.length).toBeGreaterThan(0);
    expect(new Set(auto.map((e) => e.actor))).toEqual(new Set([late]));
    const after = await game(id);
    if (after.status === 'ACTIVE') {
      expect(after.clock!.autoPlayed).toEqual([]);
      expect(after.clock!.remainingMs[late]).toBe(60_000);
    }
    expect((await t.gql(VERIFY, { gameId: id })).data.verifyGame.ok).toBe(true);
  });

  it('addTime (a vacation, a gift), pauseClock and resumeClock move the deadline, declinePause withdraws a request; a game without a clock refuses them', async () => {
    const { id, tokens } = await create('backgammon', {}, { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, vacationSeconds: 7 * 86_400 });
    const start = await game(id);
    const seat = start.clock!.running[0];
    const deadline = Date.parse(start.clock!.deadline!);
    expect(start.clock!.vacationLeftMs).toEqual([7 * DAY, 7 * DAY]);

    const vacation = (await t.gql(ADD_TIME, { g: id, seat, s: 2 * 86_400, v: true }, tokens[seat])).data.addTime;
    expect(vacation).toMatchObject({ __typename: 'MoveAccepted', seat, events: [{ type: 'TimeAdded', actor: seat, payload: { seat, ms: 2 * DAY, by: seat, vacation: true } }] });
    const gift = (await t.gql(ADD_TIME, { g: id, seat, s: 3600 }, tokens[1 - seat])).data.addTime;
    expect(gift).toMatchObject({ __typename: 'MoveAccepted', seat: 1 - seat });
    const extended = await game(id);
    expect(Date.parse(extended.clock!.deadline!)).toBe(deadline + 2 * DAY + 3600 * SECOND);
    expect(extended.clock!.vacationLeftMs[seat]).toBe(5 * DAY);
    // Time given moves the deadline later: the row keeps its earlier time (an early wake-up, never a late one).
    expect((await row(id))!.dueAt!.getTime()).toBeLessThanOrEqual(Date.parse(extended.clock!.deadline!));

    expect((await t.gql(ADD_TIME, { g: id, seat, s: 6 * 86_400, v: true }, tokens[seat])).data.addTime).toMatchObject({ code: 'NO_VACATION_LEFT' });
    expect((await t.gql(ADD_TIME, { g: id, seat: 1 - seat, s: 60, v: true }, tokens[seat])).data.addTime).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await t.gql(ADD_TIME, { g: id, seat, s: 60 })).data.addTime).toMatchObject({ code: 'UNAUTHORIZED' });

    // Paused once every seat asked: no deadline, nothing to time out however long it lasts.
    expect((await t.gql(PAUSE, { g: id }, tokens[0])).data.pauseClock).toMatchObject({ __typename: 'MoveAccepted' });
    expect((await t.gql(PAUSE, { g: id }, tokens[0])).data.pauseClock).toMatchObject({ code: 'PAUSE_CONFLICT' });
    expect((await game(id)).clock).toMatchObject({ paused: false, pauseRequests: [0] });
    // Declined by the other seat: the request withdrawn, the clocks run on; then asked again.
    const declined = (await t.gql(DECLINE, { g: id }, tokens[1])).data.declinePause;
    expect(declined).toMatchObject({ __typename: 'MoveAccepted', seat: 1, events: [{ type: 'PauseDeclined', actor: 1, payload: { seat: 1 } }] });
    expect((await game(id)).clock).toMatchObject({ paused: false, pauseRequests: [], running: [seat] });
    expect((await t.gql(DECLINE, { g: id }, tokens[1])).data.declinePause).toMatchObject({ code: 'PAUSE_CONFLICT' });
    expect((await t.gql(PAUSE, { g: id }, tokens[0])).data.pauseClock).toMatchObject({ __typename: 'MoveAccepted' });
    clock.advance(3600 * SECOND);
    expect((await t.gql(PAUSE, { g: id }, tokens[1])).data.pauseClock).toMatchObject({ __typename: 'MoveAccepted' });
    const paused = await game(id);
    expect(paused.clock).toMatchObject({ paused: true, running: [], deadline: null });
    expect(await row(id)).toMatchObject({ seat: null, dueAt: null, version: paused.version });
    clock.advance(30 * DAY);
    await worker().tick();
    expect(await timeouts(id)).toEqual([]);
    expect((await t.gql(RESUME, { g: id }, tokens[1])).data.resumeClock).toMatchObject({ __typename: 'MoveAccepted' });
    expect((await t.gql(RESUME, { g: id }, tokens[0])).data.resumeClock).toMatchObject({ __typename: 'MoveAccepted' });
    const resumed = await game(id);
    expect(resumed.clock).toMatchObject({ paused: false, running: [seat] });
    // The hour before the pause was spent; the pause itself was not.
    expect(resumed.clock!.remainingMs[seat]).toBe(DAY + 2 * DAY + 3600 * SECOND - 3600 * SECOND);
    expect(await row(id)).toMatchObject({ seat, dueAt: new Date(resumed.clock!.deadline!) });

    const plain = await create('backgammon', {}, null);
    expect((await t.gql(PAUSE, { g: plain.id }, plain.tokens[0])).data.pauseClock).toMatchObject({ code: 'NO_CLOCK' });
    expect((await t.gql(ADD_TIME, { g: 'no-such-game', seat: 0, s: 60 }, plain.tokens[0])).data.addTime).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('the sweep recomputes a deadline row that was lost or left stale', async () => {
    const { id, tokens } = await create('backgammon', {}, { kind: 'FISCHER', baseSeconds: 3600, incrementSeconds: 5 });
    await playOne(id, tokens);
    const now = await game(id);
    const rows = t.app.get(DeadlineStore);
    await rows.flushed();
    const db = (t.app.get(EventStore) as unknown as { db: { pool: { query(sql: string, values: unknown[]): Promise<unknown> } } }).db;
    await db.pool.query('DELETE FROM deadlines WHERE game_id = $1', [id]);
    expect(await worker().sweep()).toBeGreaterThanOrEqual(1);
    expect(await rows.get(id)).toMatchObject({ seat: now.clock!.running[0], dueAt: new Date(now.clock!.deadline!), version: now.version });
    // A row older than the game and earlier than its deadline is an early wake-up, as a move that pushed the deadline later leaves it: not stale.
    await db.pool.query("UPDATE deadlines SET version = version - 1, due_at = due_at - interval '1 hour' WHERE game_id = $1", [id]);
    expect(await worker().sweep()).toBe(0);
    expect(await rows.get(id)).toMatchObject({ dueAt: new Date(Date.parse(now.clock!.deadline!) - 3600 * SECOND), version: now.version - 1 });
  });

  it("a move that pushes a far deadline later leaves the row as it was; the worker, woken at the row's time, finds nothing due and writes the exact row", async () => {
    const { id, tokens } = await create('backgammon', {}, { kind: 'FISCHER', baseSeconds: 3600, incrementSeconds: 5 });
    await playOne(id, tokens);
    const first = await row(id);
    // The row written with the game's creation stands as long as its deadline does.
    expect(first!.dueAt).toEqual(new Date((await game(id)).clock!.deadline!));
    // Until the turn passes (a backgammon turn may take several actions): the next seat's deadline is later.
    let later = await game(id);
    for (let i = 0; i < 10 && Date.parse(later.clock!.deadline!) === first!.dueAt!.getTime(); i++) {
      clock.advance(60 * SECOND);
      await playOne(id, tokens);
      later = await game(id);
    }
    expect(Date.parse(later.clock!.deadline!)).toBeGreaterThan(first!.dueAt!.getTime());
    expect(await row(id)).toEqual(first);
    clock.set(new Date(first!.dueAt!.getTime() + SECOND));
    // (Other tests' games may time out in this tick: not this one.)
    await worker().tick();
    expect(await timeouts(id)).toEqual([]);
    expect(await row(id)).toMatchObject({ dueAt: new Date(later.clock!.deadline!), version: later.version, claimedUntil: null });
  });

  it('a game whose deadline is minutes off writes its row with every move', async () => {
    const { id, tokens } = await create('backgammon', {}, { kind: 'FISCHER', baseSeconds: 120, incrementSeconds: 2 });
    for (let i = 0; i < 3; i++) {
      clock.advance(SECOND);
      await playOne(id, tokens);
      const now = await game(id);
      expect(await row(id)).toMatchObject({ dueAt: new Date(now.clock!.deadline!), version: now.version });
    }
  });

  it('two instances on one database racing for the same deadline store exactly one TimedOut', async () => {
    const instance = () => new RefereeService(t.app.get(EventStore), t.app.get(EngineRegistry), new MetricsService(), undefined, clock, t.app.get(DeadlineStore), { pollMs: 60_000, sweepMs: 60_000 });
    const [a, b] = [instance(), instance()];
    const games = await Promise.all(Array.from({ length: 4 }, () => create('backgammon', {}, { kind: 'FISCHER', baseSeconds: 60 })));
    // Both hold every game, so each decides from its own copy.
    for (const g of games) await Promise.all([a.game(g.id), b.game(g.id)]);
    clock.advance(61 * SECOND);
    // Other games of these tests may fall due too: each game is checked on its own.
    const decided = await Promise.all([a.deadlines!.tick(), b.deadlines!.tick(), worker().tick()]);
    expect(decided.reduce((x, y) => x + y)).toBeGreaterThanOrEqual(games.length);
    for (const g of games) {
      expect(await timeouts(g.id)).toHaveLength(1);
      expect((await game(g.id)).status).toBe('FINISHED');
    }
    // An instance that decides from a stale row (the other instance's timeout not known to it) stores nothing.
    const [first] = games;
    await t.app.get(DeadlineStore).write({ gameId: first.id, seat: 0, dueAt: new Date(clock.now().getTime() - 1000), version: 1 });
    await b.game(first.id);
    await b.deadlines!.tick();
    expect(await timeouts(first.id)).toHaveLength(1);
    expect(await row(first.id)).toBeNull();
    expect((await b.verify(first.id)).ok).toBe(true);
  });

  it('the worker acts on its own: it wakes, claims the due deadline and times the game out', async () => {
    const own = new RefereeService(t.app.get(EventStore), t.app.get(EngineRegistry), new MetricsService(), undefined, clock, t.app.get(DeadlineStore), { pollMs: 20, sweepMs: 60_000 });
    own.deadlines!.start();
    try {
      const { id } = await create('cerke', {}, { kind: 'FISCHER', baseSeconds: 30 });
      clock.advance(31 * SECOND);
      for (let i = 0; (await timeouts(id)).length === 0; i++) {
        if (i > 500) throw new Error('the worker did not act');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await timeouts(id)).toHaveLength(1);
    } finally {
      await own.deadlines!.stop();
    }
  });

  it('a deadline that passed while the service was stopped is applied once at start-up, stamped with its own time', async () => {
    const { id, tokens } = await create('backgammon', {}, { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400 });
    await playOne(id, tokens);
    const deadline = (await game(id)).clock!.deadline!;
    await t.close();
    clock.set(new Date(Date.parse(deadline) + 3 * DAY));
    t = await startAppWithClock(clock, settings);
    // The start-up scan runs in the background; a tick waits for it.
    await worker().tick();
    const over = await game(id);
    expect(over.status).toBe('FINISHED');
    expect(await timeouts(id)).toEqual([expect.objectContaining({ createdAt: deadline })]);
    expect((await t.gql(VERIFY, { gameId: id })).data.verifyGame.ok).toBe(true);
  });
});
