import request from 'supertest';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import type { TestApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ownStorage } from '../support/own-database.js';
import { type Notice, openStream, until } from '../support/player-stream.js';
import { type Received, WebhookReceiver, type WebhookBody } from '../support/webhook-receiver.js';

/**
 * Issue 25's first "Done when", end to end: two players with keys challenge, accept and play a
 * correspondence backgammon game; the inbox lists the game for the player to act and not for the
 * other (GraphQL and REST); each player's NDJSON stream and player webhook (every delivery
 * checked with the standardwebhooks package) tell the start, every turn of theirs with its
 * deadline and time left, and the end on time once one of them lets the clock run out.
 *
 * Time is a hand-moved clock and the deadline worker is ticked by the test; nothing waits for
 * time to pass. On PostgreSQL the suite has a database of its own (test/e2e/clocks.spec.ts says
 * why). Signatures are checked against the wall clock (five minutes' tolerance): the clock starts
 * at it and moves less than three minutes in all.
 */
const clock = new ManualClock();
let storage: Awaited<ReturnType<typeof ownStorage>>;
let t: TestApp;
const hooks: WebhookReceiver[] = [];

beforeAll(async () => {
  storage = await ownStorage('playing');
  hooks.push(await WebhookReceiver.start(), await WebhookReceiver.start());
  t = await startAppWithClock(clock, {
    ...storage.settings,
    webhookAllowedHosts: hooks.map((h) => ({ hostname: '127.0.0.1', port: h.port })),
    // Quick looks for messages; every receiver answers 200, so nothing is retried.
    webhookPollMs: 50,
  });
  // The test ticks the deadline worker itself, so that each tick is known to be done.
  await t.app.get(RefereeService).deadlines!.stop();
});
afterAll(async () => {
  await t?.close();
  for (const h of hooks) await h.stop();
  await storage?.drop();
});

/** One second; a day per move would do as well, but the signatures' tolerance keeps the clock's moves short. */
const SECOND = 1000;
/** Correspondence: a minute added at each turn's start, at most two kept in the bank. */
const PER_MOVE_MS = 60 * SECOND;
const BANK_CAP_MS = 120 * SECOND;
/** How long each player thinks before acting. */
const THINK_MS = 5 * SECOND;
/** Turns played before one player lets the clock run out. */
const TURNS = 6;

interface Player {
  name: string;
  id: string;
  key: string;
  /** The player webhook's secret (whsec_…) and its receiver. */
  secret: string;
  hook: WebhookReceiver;
  stream: ReturnType<typeof openStream>;
}

/** A turn as the game's clock told it when it began: whose, when, the seat's time left and its deadline. */
interface Turn {
  seat: number;
  at: number;
  remainingMs: number;
  deadline: string;
}

const CREATE_PLAYER = 'mutation($name: String!) { createPlayer(name: $name) { __typename ... on PlayerCreated { player { id } key { secret } } ... on Rejection { code message } } }';
const REGISTER = `mutation($input: RegisterWebhookInput!) {
  registerWebhook(input: $input) { __typename ... on WebhookSecret { id secret webhook { playerId gameId tournamentId } } ... on Rejection { code message } }
}`;
const ISSUE = `mutation($input: IssueChallengeInput!) { issueChallenge(input: $input) { __typename ... on Challenge { id status } ... on Rejection { code message } } }`;
const ACCEPT = `mutation($id: ID!) { acceptChallenge(id: $id) { __typename
  ... on ChallengeAccepted { challenge { status gameId } game { id kind status seats { index name player } } }
  ... on Rejection { code message } } }`;
const GAME = `query($id: ID!) { game(id: $id) {
  status version toAct mySeat legalActions
  clock { kind remainingMs running deadline timedOut }
  outcome { winners summary }
} }`;
const ACT = `mutation($gameId: ID!, $moveId: String!, $action: JSON!, $expectedVersion: Int) {
  submitAction(gameId: $gameId, moveId: $moveId, action: $action, expectedVersion: $expectedVersion) { __typename ... on Rejection { code message } }
}`;
const INBOX = '{ me { games(toAct: true) { edges { seat toAct deadline node { id } } } } }';

/** A new player with a key of every scope, its player webhook registered (no gameId, no tournamentId) and its stream open. */
async function newPlayer(name: string, hook: WebhookReceiver): Promise<Player> {
  const created = await t.gql(CREATE_PLAYER, { name });
  expect(created.errors).toBeUndefined();
  const { player, key } = created.data.createPlayer;
  const registered = (await t.gql(REGISTER, { input: { url: hook.url, events: ['GAME_STARTED', 'YOUR_TURN', 'TIMED_OUT', 'GAME_OVER'] } }, key.secret)).data.registerWebhook;
  expect(registered).toMatchObject({ __typename: 'WebhookSecret', secret: expect.stringMatching(/^whsec_/), webhook: { playerId: player.id, gameId: null, tournamentId: null } });
  const stream = openStream(t.url, key.secret);
  expect((await stream.answered).status).toBe(200);
  return { name, id: player.id, key: key.secret, secret: registered.secret, hook, stream };
}

/** The games in a player's inbox waiting for it, as GraphQL (`me { games(toAct: true) }`) and REST (`GET /api/me/games?toAct=true`) list them. */
async function inboxes(p: Player) {
  const gql = await t.gql(INBOX, {}, p.key);
  expect(gql.errors).toBeUndefined();
  const rest = await request(t.app.getHttpServer()).get('/api/me/games?toAct=true').set('authorization', `Bearer ${p.key}`);
  expect(rest.status).toBe(200);
  return {
    gql: gql.data.me.games.edges.map((e: { seat: number; toAct: boolean; deadline: string | null; node: { id: string } }) => ({
      gameId: e.node.id,
      seat: e.seat,
      toAct: e.toAct,
      deadline: e.deadline,
    })),
    rest: rest.body.games.map((g: { gameId: string; seat: number; toAct: boolean; deadline: string | null }) => ({ gameId: g.gameId, seat: g.seat, toAct: g.toAct, deadline: g.deadline })),
  };
}

const game = async (id: string, key?: string) => (await t.gql(GAME, { id }, key)).data.game;
/** The `game.*` notices of one game, in the order served. */
const gameNotices = (notices: Notice[], gameId: string) => notices.filter((n) => n.type.startsWith('game.') && n.data.gameId === gameId);

describe('two players with keys play a correspondence backgammon game until one lets the clock run out', () => {
  let ann: Player;
  let bob: Player;
  let gameId = '';
  /** Each player's seat. */
  const seatOf = new Map<Player, number>();
  const turns: Turn[] = [];
  /** The seat that let its clock run out, and the other. */
  let late = -1;
  let winner = -1;
  const playerAt = (seat: number) => [...seatOf].find(([, s]) => s === seat)![0];

  afterAll(async () => {
    await ann?.stream.close();
    await bob?.stream.close();
  });

  it('Ann challenges Bob to a correspondence backgammon game; Bob accepts and the game starts with both seats bound', async () => {
    ann = await newPlayer('Ann', hooks[0]);
    bob = await newPlayer('Bob', hooks[1]);
    const issued = (
      await t.gql(
        ISSUE,
        {
          input: {
            to: bob.id,
            kind: 'backgammon',
            seat: 'FIRST',
            message: 'A minute a move?',
            timeControl: { kind: 'CORRESPONDENCE', perMoveSeconds: PER_MOVE_MS / SECOND, bankCapSeconds: BANK_CAP_MS / SECOND },
          },
        },
        ann.key,
      )
    ).data.issueChallenge;
    expect(issued).toMatchObject({ __typename: 'Challenge', status: 'OPEN' });
    const accepted = (await t.gql(ACCEPT, { id: issued.id }, bob.key)).data.acceptChallenge;
    expect(accepted.__typename).toBe('ChallengeAccepted');
    gameId = accepted.game.id;
    expect(accepted.challenge).toEqual({ status: 'ACCEPTED', gameId });
    expect(accepted.game).toEqual({
      id: gameId,
      kind: 'backgammon',
      status: 'ACTIVE',
      seats: [
        { index: 0, name: 'Ann', player: ann.id },
        { index: 1, name: 'Bob', player: bob.id },
      ],
    });
    seatOf.set(ann, 0).set(bob, 1);
    // The referee's opening roll is made: one of them is to play it, and its clock runs.
    const started = await game(gameId);
    expect(started.clock).toMatchObject({ kind: 'CORRESPONDENCE', running: started.toAct });
    expect(started.toAct).toHaveLength(1);
  });

  it('they play turns with their keys, rolling and playing legal moves from the API; the inbox lists the game for the player to act and not for the other', async () => {
    /** Each seat's bank as the rules keep it: a minute added at each turn's start, at most two kept. */
    const bank = [0, 0];
    for (let turn = 0; turn <= TURNS; turn++) {
      const now = await game(gameId);
      expect(now.status).toBe('ACTIVE');
      const [seat] = now.toAct;
      expect(now.toAct).toEqual([seat]);
      bank[seat] = Math.min(BANK_CAP_MS, bank[seat] + PER_MOVE_MS);
      // The clock has not moved since the turn began: the game's clock tells the turn's own time left and deadline.
      expect(now.clock).toMatchObject({ running: [seat], timedOut: [] });
      expect(now.clock.remainingMs[seat]).toBe(bank[seat]);
      expect(Date.parse(now.clock.deadline)).toBe(clock.now().getTime() + bank[seat]);
      turns.push({ seat, at: clock.now().getTime(), remainingMs: now.clock.remainingMs[seat], deadline: now.clock.deadline });
      // What the webhooks were told so far is delivered before the clock moves: a delivery's lease is counted on this clock too.
      for (const p of [ann, bob]) {
        const told = 1 + turns.filter((x) => x.seat === seatOf.get(p)).length;
        await p.hook.until(() => p.hook.delivered().length === told, 30_000, `${p.name}'s ${told} webhook messages`);
      }

      const toAct = playerAt(seat);
      const waiting = playerAt(1 - seat);
      const listed = await inboxes(toAct);
      for (const list of [listed.gql, listed.rest]) {
        expect(list).toEqual([{ gameId, seat, toAct: true, deadline: expect.any(String) }]);
        expect(Date.parse(list[0].deadline)).toBe(Date.parse(now.clock.deadline));
      }
      expect(await inboxes(waiting)).toEqual({ gql: [], rest: [] });
      // The last turn is the one let run out.
      if (turn === TURNS) break;

      clock.advance(THINK_MS);
      bank[seat] -= THINK_MS;
      // A turn is everything the seat does before the other's starts: a roll, then its play (none: the roll passes by itself).
      for (let action = 0; ; action++) {
        const mine = await game(gameId, toAct.key);
        if (mine.status !== 'ACTIVE' || !mine.toAct.includes(seat)) break;
        expect(mine.mySeat).toBe(seat);
        expect(action).toBeLessThan(2);
        const [first] = mine.legalActions;
        // The first legal action is the roll, or a legal play of the dice (a resignation comes last).
        expect(['roll', 'play']).toContain(first.type);
        const res = await t.gql(ACT, { gameId, moveId: `t${turn}-${action}`, action: first, expectedVersion: mine.version }, toAct.key);
        expect(res.data.submitAction).toEqual({ __typename: 'MoveAccepted' });
      }
    }
    // Both played.
    expect(new Set(turns.map((x) => x.seat))).toEqual(new Set([0, 1]));
  });

  it('the player to act lets the clock run out: the game is over on time, "<the other> wins on time", and in neither inbox', async () => {
    const last = turns.at(-1)!;
    late = last.seat;
    winner = 1 - late;
    // Just before the deadline nothing happens; at it, the worker times the seat out.
    clock.advance(last.remainingMs - 1);
    await t.app.get(RefereeService).deadlines!.tick();
    expect((await game(gameId)).status).toBe('ACTIVE');
    clock.advance(1);
    expect(await t.app.get(RefereeService).deadlines!.tick()).toBeGreaterThanOrEqual(1);
    const over = await game(gameId);
    expect(over.status).toBe('FINISHED');
    expect(over.clock.timedOut).toEqual([late]);
    expect(over.outcome).toEqual({ winners: [winner], summary: `${playerAt(winner).name} wins on time` });
    // A late move is refused.
    const refused = await t.gql(ACT, { gameId, moveId: 'too-late', action: { type: 'roll' } }, playerAt(late).key);
    expect(refused.data.submitAction.__typename).toBe('Rejection');
    for (const p of [ann, bob]) expect(await inboxes(p)).toEqual({ gql: [], rest: [] });
  });

  /** What each player is told of the game, in order: the start, each of its turns, the timeout and the end. */
  const expectedTypes = (seat: number) => ['game.started', ...turns.filter((x) => x.seat === seat).map(() => 'game.your_turn'), 'game.timed_out', 'game.over'];

  /** Checks one player's notices (the stream's data or the webhooks' bodies' data, each with the time it was made) against the game as it went. */
  function checkTold(seat: number, told: { type: string; at: string; data: Record<string, any> }[]) {
    expect(told.map((n) => n.type)).toEqual(expectedTypes(seat));
    for (const n of told) expect(n.data).toMatchObject({ gameId, kind: 'backgammon', mySeat: seat });
    const mine = turns.filter((x) => x.seat === seat);
    const yourTurns = told.filter((n) => n.type === 'game.your_turn');
    for (const [i, n] of yourTurns.entries()) {
      // Told when the turn began, with the game clock's time left and deadline then.
      expect(Date.parse(n.at)).toBe(mine[i].at);
      expect(n.data).toMatchObject({ seat, remainingMs: mine[i].remainingMs, deadline: mine[i].deadline });
      expect(Date.parse(n.data.deadline)).toBe(Date.parse(n.at) + n.data.remainingMs);
    }
    const [timedOut, over] = told.slice(-2);
    expect(timedOut.data).toMatchObject({ seat: late, rule: 'concede' });
    // Stamped with the deadline itself, not the time the worker noticed.
    expect(timedOut.at).toBe(turns.at(-1)!.deadline);
    expect(over.data).toMatchObject({ reason: 'on_time', result: { winners: [winner], summary: `${playerAt(winner).name} wins on time` } });
  }

  it('tells each player in its stream, in order and once: the start, each of its turns with deadline and time left, the timeout and the game over on time', async () => {
    for (const p of [ann, bob]) await until(() => gameNotices(p.stream.notices, gameId).some((n) => n.type === 'game.over'), `${p.name}'s game.over`, 30_000);
    // Nothing more comes.
    await new Promise((r) => setTimeout(r, 300));
    for (const p of [ann, bob]) {
      const told = gameNotices(p.stream.notices, gameId);
      expect(new Set(told.map((n) => n.id)).size).toBe(told.length);
      checkTold(
        seatOf.get(p)!,
        told.map((n) => ({ type: n.type, at: n.createdAt, data: n.data })),
      );
    }
    // The challenge was told too: received by Bob, accepted to Ann.
    expect(ann.stream.notices.filter((n) => !n.type.startsWith('game.')).map((n) => [n.type, n.data.gameId])).toEqual([['challenge.accepted', gameId]]);
    expect(bob.stream.notices.filter((n) => !n.type.startsWith('game.')).map((n) => n.type)).toEqual(['challenge.received']);
  });

  it("tells each player at its webhook the same, once each, every delivery signed with that player's webhook secret", async () => {
    const isOver = (r: Received) => WebhookReceiver.body(r).type === 'game.over';
    for (const p of [ann, bob]) await p.hook.until(() => p.hook.delivered().some(isOver), 30_000, `${p.name}'s game.over`);
    await new Promise((r) => setTimeout(r, 300));
    for (const p of [ann, bob]) {
      const other = p === ann ? bob : ann;
      // One registration, one receiver each: everything it got is this player's, delivered at the first attempt.
      expect(p.hook.received).toHaveLength(p.hook.delivered().length);
      const bodies: WebhookBody[] = p.hook.delivered().map((r) => {
        expect(() => WebhookReceiver.verify(r, other.secret)).toThrow();
        const body = WebhookReceiver.verify(r, p.secret);
        // The Standard Webhooks timestamp is the message's own, in Unix seconds.
        expect(Number(r.timestamp)).toBe(Math.floor(Date.parse(body.timestamp) / 1000));
        return body;
      });
      expect(bodies.every((b) => b.data.gameId === gameId)).toBe(true);
      expect(bodies.filter((b) => b.type === 'game.over')).toHaveLength(1);
      checkTold(
        seatOf.get(p)!,
        bodies.map((b) => ({ type: b.type, at: b.timestamp, data: b.data })),
      );
      // Each your-turn carries the game as the player's seat saw it then: its clock says the same.
      for (const b of bodies.filter((x) => x.type === 'game.your_turn')) {
        const shown = b.data.game as { mySeat: number; toAct: number[]; clock: { deadline: string; remainingMs: number[] } };
        expect(shown).toMatchObject({ mySeat: seatOf.get(p), toAct: [b.data.seat] });
        expect(shown.clock.deadline).toBe(b.data.deadline);
        expect(shown.clock.remainingMs[b.data.seat as number]).toBe(b.data.remainingMs);
      }
    }
  });
});
