import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import type { TestApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ownStorage } from '../support/own-database.js';
import { type Notice, openStream as openPlayerStream, until } from '../support/player-stream.js';
import { CREATE } from '../support/queries.js';

/**
 * One stream per player (issue 25): GET /api/me/stream and the myEvents subscription serve the
 * notices meant for the player whose key calls, in order and each once, resumable after any
 * notice's id. Time is a hand-moved clock and timeouts happen when a test ticks the deadline
 * worker; on PostgreSQL the suite has a database of its own (test/e2e/clocks.spec.ts says why).
 */
const clock = new ManualClock();
let storage: Awaited<ReturnType<typeof ownStorage>>;
let t: TestApp;

beforeAll(async () => {
  storage = await ownStorage('player_stream');
  t = await startAppWithClock(clock, storage.settings);
  await t.app.get(RefereeService).deadlines!.stop();
});
afterAll(async () => {
  await t?.close();
  await storage?.drop();
});

/** A player and its key, from createPlayer (`scopes`: the key's, all by default). */
async function newPlayer(name: string, scopes?: string[]): Promise<{ id: string; key: string }> {
  const res = await t.gql(
    'mutation($name: String!, $scopes: [Scope!]) { createPlayer(name: $name, scopes: $scopes) { __typename ... on PlayerCreated { player { id } key { secret } } ... on Rejection { code message } } }',
    { name, scopes },
  );
  expect(res.errors).toBeUndefined();
  return { id: res.data.createPlayer.player.id, key: res.data.createPlayer.key.secret };
}

/** GET /api/me/stream kept open on `on`: its notices as they come. */
const openStream = (key: string | null, options: { after?: string; lastEventId?: string } = {}, on: TestApp = t) => openPlayerStream(on.url, key, options);

async function refusal(key: string | null, options: { after?: string; lastEventId?: string } = {}) {
  const stream = openStream(key, options);
  const res = await stream.answered;
  const body = await res.json();
  await stream.close();
  return { status: res.status, code: body.error?.code };
}

describe("a player's stream refuses whoever is not the player", () => {
  it('refuses an anonymous caller and a seat token (UNAUTHORIZED), and a key without the scope read (SCOPE_MISSING)', async () => {
    expect(await refusal(null)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    const created = (await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 } } })).data.createGame;
    expect(await refusal(created.tokens[0].token)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    const player = await newPlayer('Pia', ['PLAY']);
    expect(await refusal(player.key)).toEqual({ status: 403, code: 'SCOPE_MISSING' });
  });

  it('refuses a cursor that is no notice id, as after or as Last-Event-ID (INVALID_INPUT)', async () => {
    const player = await newPlayer('Quin');
    expect(await refusal(player.key, { after: 'nonsense' })).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(await refusal(player.key, { lastEventId: '12-x' })).toEqual({ status: 400, code: 'INVALID_INPUT' });
  });

  it('refuses myEvents without a player key (UNAUTHORIZED)', async () => {
    const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: {} });
    try {
      // The refusal comes as the subscription's one result, or as its error.
      const errors = await new Promise<unknown>((resolve) => {
        client.subscribe({ query: 'subscription { myEvents { id } }' }, { next: (msg) => resolve(msg.errors), error: resolve, complete: () => resolve(null) });
      });
      expect(JSON.stringify(errors)).toContain('UNAUTHORIZED');
    } finally {
      await client.dispose();
    }
  });
});

const GAME = `query($id: ID!) { game(id: $id) { status version toAct legalActions } }`;
const ACT = `mutation($gameId: ID!, $moveId: String!, $action: JSON!) { submitAction(gameId: $gameId, moveId: $moveId, action: $action) { __typename ... on Rejection { code message } } }`;

/** myEvents over graphql-ws: its notices as they come. */
function subscribe(key: string, after?: string) {
  const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` } });
  const notices: Notice[] = [];
  client.subscribe(
    { query: 'subscription($after: String) { myEvents(after: $after) { id type createdAt data } }', variables: { after } },
    { next: (msg) => notices.push((msg.data as { myEvents: Notice }).myEvents), error: () => undefined, complete: () => undefined },
  );
  return { notices, close: () => client.dispose() };
}

describe('two players with keys play a game on a Fischer clock until one lets it run out', () => {
  let ann: { id: string; key: string };
  let bob: { id: string; key: string };
  let gameId = '';
  /** Ann's notices of the whole game, as her stream served them live. */
  let annNotices: Notice[] = [];

  it('tells each player, in order and once: the game started, each of their turns with its deadline and time left, and the end on time', async () => {
    ann = await newPlayer('Ann');
    bob = await newPlayer('Bob');
    const cy = await newPlayer('Cy');
    const streams = { ann: openStream(ann.key), bob: openStream(bob.key), cy: openStream(cy.key) };
    for (const s of Object.values(streams)) expect((await s.answered).status).toBe(200);
    const created = await t.gql(CREATE, {
      input: {
        kind: 'duel',
        ruleset: { cards: 10, handSize: 2 },
        timeControl: { kind: 'FISCHER', baseSeconds: 60, incrementSeconds: 0 },
        seats: [
          { name: 'Ann', player: ann.id },
          { name: 'Bob', player: bob.id },
        ],
      },
    });
    expect(created.data.createGame.__typename).toBe('GameCreated');
    gameId = created.data.createGame.game.id;

    // Each player moves once, after 5 s of thought; then the one to act lets the clock run out.
    const keyOf = [ann.key, bob.key];
    const turns: number[] = [];
    for (let move = 0; move < 2; move++) {
      const seat = (await t.gql(GAME, { id: gameId })).data.game.toAct[0];
      turns.push(seat);
      await until(() => [streams.ann, streams.bob][seat].notices.filter((n) => n.type === 'game.your_turn').length === turns.filter((s) => s === seat).length, `seat ${seat}'s turn ${move}`);
      clock.advance(5_000);
      const { legalActions } = (await t.gql(GAME, { id: gameId }, keyOf[seat])).data.game;
      expect((await t.gql(ACT, { gameId, moveId: `m${move}`, action: legalActions[0] }, keyOf[seat])).data.submitAction.__typename).toBe('MoveAccepted');
    }
    const late = (await t.gql(GAME, { id: gameId })).data.game.toAct[0];
    turns.push(late);
    clock.advance(61_000);
    expect(await t.app.get(RefereeService).deadlines!.tick()).toBeGreaterThanOrEqual(1);

    const expected = (seat: number) => ['game.started', ...turns.filter((s) => s === seat).map(() => 'game.your_turn'), 'game.timed_out', 'game.over'];
    const [annTold, bobTold] = await Promise.all([streams.ann.first(expected(0).length), streams.bob.first(expected(1).length)]);
    // Nothing more comes, and nothing of this game reaches a third player.
    await new Promise((r) => setTimeout(r, 300));
    expect(streams.ann.notices).toHaveLength(expected(0).length);
    expect(streams.bob.notices).toHaveLength(expected(1).length);
    expect(streams.cy.notices).toEqual([]);
    for (const s of Object.values(streams)) await s.close();

    for (const [seat, told] of [annTold, bobTold].entries()) {
      expect(told.map((n) => n.type)).toEqual(expected(seat));
      expect(new Set(told.map((n) => n.id)).size).toBe(told.length);
      for (const n of told) expect(n.data).toMatchObject({ gameId, kind: 'duel', mySeat: seat });
      for (const turn of told.filter((n) => n.type === 'game.your_turn')) {
        expect(turn.data.seat).toBe(seat);
        expect(turn.data.remainingMs).toBeGreaterThan(0);
        expect(turn.data.remainingMs).toBeLessThanOrEqual(60_000);
        // The deadline is when the time left runs out, from the moment the turn began.
        expect(Date.parse(turn.data.deadline)).toBe(Date.parse(turn.createdAt) + turn.data.remainingMs);
      }
      expect(told.at(-2)!.data).toMatchObject({ seat: late });
      expect(told.at(-1)!.data).toMatchObject({ reason: 'on_time' });
    }
    annNotices = annTold;
  });

  it('resumes after any notice with exactly the rest, from ?after= or Last-Event-ID', async () => {
    for (let k = 0; k < annNotices.length; k++) {
      const rest = annNotices.slice(k + 1);
      const resumed = openStream(ann.key, k % 2 ? { after: annNotices[k].id } : { lastEventId: annNotices[k].id });
      expect(await resumed.first(rest.length)).toEqual(rest);
      await new Promise((r) => setTimeout(r, 50));
      expect(resumed.notices).toEqual(rest);
      await resumed.close();
    }
  });

  it('serves the same notices to myEvents, resumable the same way', async () => {
    const all = subscribe(ann.key);
    const rest = subscribe(ann.key, annNotices[1].id);
    try {
      await until(() => all.notices.length >= annNotices.length && rest.notices.length >= annNotices.length - 2, 'myEvents');
      expect(all.notices).toEqual(annNotices);
      expect(rest.notices).toEqual(annNotices.slice(2));
    } finally {
      await all.close();
      await rest.close();
    }
  });
});

describe('a key revoked while its stream is open', () => {
  it('ends the stream with UNAUTHORIZED once the key is looked up again (every 30 s)', async () => {
    const res = await t.gql('mutation { createPlayer(name: "Rex") { __typename ... on PlayerCreated { key { id secret } } ... on Rejection { code message } } }');
    const { id: keyId, secret } = res.data.createPlayer.key;
    const stream = openStream(secret);
    expect((await stream.answered).status).toBe(200);
    expect((await t.gql('mutation($keyId: ID!) { revokeKey(keyId: $keyId) { __typename ... on Key { id } ... on Rejection { code message } } }', { keyId }, secret)).errors).toBeUndefined();
    clock.advance(31_000);
    const [last] = (await stream.first(1)) as unknown as { error: { code: string } }[];
    expect(last.error.code).toBe('UNAUTHORIZED');
    await stream.close();
  });
});

describe('two instances on one database (PostgreSQL)', () => {
  (process.env.TEST_DATABASE_URL ? it : it.skip)("serves a player's stream on one instance the notices stored by the other, in order and once", async () => {
    const other = await startAppWithClock(clock, storage.settings);
    try {
      await other.app.get(RefereeService).deadlines!.stop();
      const [ann, bob] = [await newPlayer('Ann'), await newPlayer('Bob')];
      // Bob follows on the other instance; the game is created and played here.
      const there = openStream(bob.key, {}, other);
      const created = await t.gql(CREATE, {
        input: {
          kind: 'duel',
          ruleset: { cards: 10, handSize: 2 },
          seats: [
            { name: 'Ann', player: ann.id },
            { name: 'Bob', player: bob.id },
          ],
        },
      });
      const id = created.data.createGame.game.id;
      const keyOf = [ann.key, bob.key];
      for (let move = 0; move < 4; move++) {
        const g = (await t.gql(GAME, { id })).data.game;
        if (g.status === 'FINISHED') break;
        const seat = g.toAct[0];
        const { legalActions } = (await t.gql(GAME, { id }, keyOf[seat])).data.game;
        expect((await t.gql(ACT, { gameId: id, moveId: `x${move}`, action: legalActions[0] }, keyOf[seat])).data.submitAction.__typename).toBe('MoveAccepted');
      }
      const here = openStream(bob.key);
      await until(() => here.notices.some((n) => n.type === 'game.over'), "Bob's notices here");
      await until(() => there.notices.length >= here.notices.length, "Bob's notices on the other instance");
      await new Promise((r) => setTimeout(r, 1500));
      expect(there.notices).toEqual(here.notices);
      expect(here.notices.map((n) => n.type)).toEqual(expect.arrayContaining(['game.started', 'game.your_turn', 'game.over']));
      await here.close();
      await there.close();
    } finally {
      await other.close();
    }
  });
});
