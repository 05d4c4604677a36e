import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { DatabaseService } from '../../src/database/database.service.js';
import { MetricsService } from '../../src/ops/metrics.service.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { EventStore } from '../../src/referee/store/event-store.js';
import { startApp, type TestApp } from '../support/app.js';
import { CREATE } from '../support/queries.js';

/**
 * Issue 8: hostile input answered 500 or INTERNAL. Each defect found there, and its neighbours,
 * answered with a 4xx and a stable code, changing nothing. Runs on PostgreSQL with
 * TEST_DATABASE_URL, else on a fresh PGlite.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 120_000);

const http = () => request(t.app.getHttpServer());

async function create(input: Record<string, unknown>) {
  const res = await t.gql(CREATE, { input });
  expect(res.data.createGame.__typename).toBe('GameCreated');
  return res.data.createGame as { game: { id: string; version: number }; tokens: { seat: number; token: string }[] };
}

/** A game's stored head and events: what a refused input must leave alone. */
async function stored(id: string) {
  const store = t.app.get(EventStore);
  const row = await store.game(id);
  return { version: row?.version, status: row?.status, seats: row?.seats, events: (await store.events(id)).length };
}

const expectRestError = (res: request.Response, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
};

const codes = (body: { errors?: { extensions?: { code?: string } }[] }) => (body.errors ?? []).map((e) => e.extensions?.code);

describe('hostile input (issue 8)', () => {
  it('a NUL in a game id is NOT_FOUND (404) on every REST route, never a database error', async () => {
    for (const path of ['/api/games/%00', '/api/games/a%00b', '/api/games/%00/events', '/api/games/%00/bundle', '/api/games/%00/record']) {
      expectRestError(await http().get(path), 404, 'NOT_FOUND');
    }
  });

  it('a NUL or lone surrogate in a game id is NOT_FOUND over GraphQL: an error for queries, a Rejection for moves', async () => {
    const { game, tokens } = await create({ kind: 'chicken-foot', ruleset: { players: 2 } });
    const before = await stored(game.id);
    for (const id of ['a\u0000', `${game.id}\u0000`, '\ud800', 'x'.repeat(65), `${game.id}/x`]) {
      expect(codes(await t.gql('query($id: ID!) { game(id: $id) { id } }', { id }))).toEqual(['NOT_FOUND']);
      expect(codes(await t.gql('query($id: ID!) { gameEvents(gameId: $id) { nodes { seq } } }', { id }))).toEqual(['NOT_FOUND']);
      expect(codes(await t.gql('query($id: ID!) { chickenFootTable(gameId: $id) { version } }', { id }, tokens[0].token))).toEqual(['NOT_FOUND']);
      const act = await t.gql('mutation($id: ID!) { submitAction(gameId: $id, moveId: "m1", action: { type: "draw" }) { __typename ... on Rejection { code } } }', { id }, tokens[0].token);
      expect(act.data.submitAction).toEqual({ __typename: 'Rejection', code: 'NOT_FOUND' });
      const typed = await t.gql('mutation($id: ID!) { chickenFootDraw(gameId: $id, moveId: "m2") { __typename ... on Rejection { code } } }', { id }, tokens[0].token);
      expect(typed.data.chickenFootDraw).toEqual({ __typename: 'Rejection', code: 'NOT_FOUND' });
      const joined = await t.gql('mutation($id: ID!) { joinGame(gameId: $id) { __typename ... on Rejection { code } } }', { id });
      expect(joined.data.joinGame).toEqual({ __typename: 'Rejection', code: 'NOT_FOUND' });
    }
    expect(await stored(game.id)).toEqual(before);
  });

  it('GET /api/games/%E2%80%AE/bundle (a right-to-left override as the id) is NOT_FOUND, not a header error', async () => {
    expectRestError(await http().get('/api/games/%E2%80%AE/bundle'), 404, 'NOT_FOUND');
    expectRestError(await http().get('/api/games/%E2%80%AE'), 404, 'NOT_FOUND');
    // Percent-encoded bytes that are not UTF-8 (a lone surrogate, an overlong slash) are refused as well.
    for (const path of ['/api/games/%ED%A0%80/bundle', '/api/games/%C0%AF/record']) expect((await http().get(path)).status).toBeLessThan(500);
  });

  it('a seat name "a\\u0000" or "\\ud800" (lone surrogate) is refused with INVALID_INPUT, in createGame and joinGame', async () => {
    for (const name of ['a\u0000', '\ud800', 'x\udfffy', 'bad\u202ename', 'tab\there', 'n'.repeat(65)]) {
      const created = await t.gql(CREATE, { input: { kind: 'duel', seats: [{ name }, {}] } });
      expect(created.data.createGame).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
      const seeded = await t.gql(CREATE, { input: { kind: 'duel', seats: [{ clientSeed: name.length > 64 ? 's'.repeat(257) : name }, {}] } });
      expect(seeded.data.createGame).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
    }
    const { game } = await create({ kind: 'duel', seats: [{ name: 'Ann' }, { open: true }] });
    const before = await stored(game.id);
    for (const input of [{ name: 'a\u0000' }, { name: '\ud800' }, { clientSeed: 'a\u0000' }, { clientSeed: '\udc00' }]) {
      const joined = await t.gql('mutation($g: ID!, $i: JoinGameInput) { joinGame(gameId: $g, input: $i) { __typename ... on Rejection { code } } }', { g: game.id, i: input });
      expect(joined.data.joinGame).toEqual({ __typename: 'Rejection', code: 'INVALID_INPUT' });
    }
    expect(await stored(game.id)).toEqual(before);
    // Well-formed names (accents, emoji, right-to-left script) are still welcome.
    const fine = await create({ kind: 'duel', seats: [{ name: 'Zoë 😀' }, { name: 'مريم' }] });
    expect(fine.game.id).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('createGame(input: { kind: "cerke", ruleset: { constructor: 1 } }) and other prototype keys are INVALID_INPUT Rejections', async () => {
    const literal = await t.gql('mutation { createGame(input: { kind: "cerke", ruleset: { constructor: 1 } }) { __typename ... on Rejection { code message } } }');
    expect(literal.data.createGame).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
    expect(literal.data.createGame.message).toContain('constructor');
    const players = { 'chicken-foot': '"players": 2, ', cerke: '', backgammon: '' } as Record<string, string>;
    for (const kind of ['cerke', 'chicken-foot', 'backgammon']) {
      for (const key of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']) {
        // Raw JSON: "__proto__" arrives as an own key, as any client can send it.
        const body = `{"query": ${JSON.stringify(CREATE)}, "variables": {"input": {"kind": "${kind}", "ruleset": {${players[kind]}"${key}": {"profile": "strict"}}}}}`;
        const res = await http().post('/graphql').set('content-type', 'application/json').send(body);
        expect(res.status).toBe(200);
        expect(res.body.data.createGame).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
      }
    }
    const check = await t.gql('query { chickenFootRulesetCheck(ruleset: { players: 2, constructor: 1 }) { ok message } }');
    expect(check.data.chickenFootRulesetCheck).toMatchObject({ ok: false });
    const overrides = await t.gql('mutation { createChickenFootGame(input: { ruleset: { players: 2, overrides: { toString: 1 } } }) { __typename ... on Rejection { code message } } }');
    expect(overrides.data.createChickenFootGame).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
    expect(overrides.data.createChickenFootGame.message).toContain('unknown ruleset option "toString"');
  });

  it('an import body nested 20,000 deep is INVALID_INPUT (400): JSON, text and GraphQL alike', async () => {
    const arrays = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    const objects = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    for (const body of [arrays, objects, `{"format": ${arrays}}`]) {
      expectRestError(await http().post('/api/games/import?kind=chicken-foot').set('content-type', 'application/json').send(body), 400, 'INVALID_INPUT');
      expectRestError(await http().post('/api/games/import?kind=chicken-foot').set('content-type', 'text/plain').send(body), 400, 'INVALID_INPUT');
      const imported = await t.gql('mutation($r: String!) { importGame(kind: "chicken-foot", record: $r) { __typename ... on Rejection { code } } }', { r: body });
      expect(imported.data.importGame).toEqual({ __typename: 'Rejection', code: 'INVALID_INPUT' });
    }
    // A JSON argument (an action, a ruleset) nested that deep is refused before anything walks it.
    const { game, tokens } = await create({ kind: 'duel' });
    const deepAction = await http()
      .post('/graphql')
      .set('content-type', 'application/json')
      .set('accept', 'application/graphql-response+json')
      .set('authorization', `Bearer ${tokens[0].token}`)
      .send(`{"query": "mutation($a: JSON!) { submitAction(gameId: \\"${game.id}\\", moveId: \\"deep\\", action: $a) { __typename } }", "variables": {"a": ${objects}}}`);
    expect(deepAction.status).toBe(400);
    expect(codes(deepAction.body)).toEqual(['INVALID_INPUT']);
  });

  it('gameEvents(after: "-5000") on a running Chicken Foot game is INVALID_INPUT, as are a malformed cursor, a size out of range and both first and last; explicit nulls are the defaults', async () => {
    const { game, tokens } = await create({ kind: 'chicken-foot', ruleset: { players: 2 } });
    for (const token of [undefined, tokens[0].token]) {
      for (const args of ['after: "-5000"', 'before: "1.5"', 'after: "x"', 'first: -1', 'last: 1001', 'first: 1, last: 1']) {
        const res = await t.gql(`query($g: ID!) { gameEvents(gameId: $g, ${args}) { nodes { seq } } }`, { g: game.id }, token);
        expect([args, codes(res)]).toEqual([args, ['INVALID_INPUT']]);
      }
      const nulls = await t.gql(
        'query($g: ID!, $a: String, $b: String, $f: Int, $l: Int) { gameEvents(gameId: $g, after: $a, before: $b, first: $f, last: $l) { nodes { seq } } }',
        { g: game.id, a: null, b: null, f: null, l: null },
        token,
      );
      expect(nulls.errors).toBeUndefined();
      expect(nulls.data.gameEvents.nodes[0].seq).toBe(1);
    }
    expectRestError(await http().get(`/api/games/${game.id}/events?afterSeq=-5000`), 400, 'INVALID_INPUT');
    // Over graphql-ws the subscription refuses it too.
    const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: {} });
    const first = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription($g: ID!) { gameEvents(gameId: $g, afterSeq: -5000) { seq } }', variables: { g: game.id } },
        { next: resolve, error: resolve, complete: () => resolve(null) },
      );
    });
    expect(codes(first as { errors?: { extensions?: { code?: string } }[] })).toEqual(['INVALID_INPUT']);
    // A valid subscription on the same connection still streams the game from its first event.
    const valid = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: 'subscription($g: ID!) { gameEvents(gameId: $g, afterSeq: 0) { seq } }', variables: { g: game.id } }, { next: resolve, error: resolve, complete: () => resolve(null) });
    });
    await client.dispose();
    expect(valid).toEqual({ data: { gameEvents: { seq: 1 } } });
  });

  it('a subscription POSTed over HTTP is WEBSOCKET_REQUIRED, not an internal error', async () => {
    const { game } = await create({ kind: 'chicken-foot', ruleset: { players: 2 } });
    const res = await http()
      .post('/graphql')
      .send({ query: `subscription { gameEvents(gameId: "${game.id}") { seq } }` });
    expect(res.status).toBeLessThan(500);
    expect(codes(res.body)).toEqual(['WEBSOCKET_REQUIRED']);
  });

  it('a games cursor or kind filter with a NUL is INVALID_INPUT, never a database error', async () => {
    const cursor = Buffer.from('2020-01-01T00:00:00.000Z|\u0000').toString('base64url');
    expect(codes(await t.gql('query($a: String) { games(after: $a) { nodes { id } } }', { a: cursor }))).toEqual(['INVALID_INPUT']);
    expect(codes(await t.gql('query($k: String) { games(filter: { kind: $k }) { nodes { id } } }', { k: 'duel\u0000' }))).toEqual(['INVALID_INPUT']);
    // A real cursor still pages.
    await create({ kind: 'duel' });
    await create({ kind: 'duel' });
    const first = (await t.gql('{ games(first: 1) { pageInfo { endCursor } } }')).data.games.pageInfo.endCursor;
    const next = await t.gql('query($a: String) { games(first: 1, after: $a) { nodes { id } } }', { a: first });
    expect(next.errors).toBeUndefined();
    expect(next.data.games.nodes).toHaveLength(1);
  });

  it('an imported record whose seat name holds a NUL is refused', async () => {
    const record = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/chicken-foot/classic-3-players.json'), 'utf8'));
    record.seats[1] = 'Bo\u0000b';
    const res = await t.gql('mutation($r: String!) { importGame(kind: "chicken-foot", record: $r) { __typename ... on Rejection { code } } }', { r: JSON.stringify(record) });
    expect(res.data.importGame).toEqual({ __typename: 'Rejection', code: 'INVALID_INPUT' });
  });

  it('a game that fails its integrity check answers INTEGRITY_ERROR on its fields in a list, not INTERNAL_SERVER_ERROR', async () => {
    // Created by another instance (nothing cached here), then altered in the database.
    const other = new RefereeService(t.app.get(EventStore), t.app.get(EngineRegistry), new MetricsService());
    const { game } = await other.createGame({ kind: 'duel' });
    const sql = (query: string) => t.app.get(DatabaseService).prisma.$executeRawUnsafe(query, game.gameId);
    await sql(`UPDATE events SET payload = payload || '{"forged": 1}'::jsonb WHERE game_id = $1 AND seq = 1`);
    try {
      const listed = await t.gql('{ games(first: 100, filter: { kind: "duel" }) { nodes { id view } } }');
      // A Game's view is non-null, so the error empties the list; its code is the referee's.
      const listCodes = codes(listed);
      expect(listCodes).toContain('INTEGRITY_ERROR');
      expect(listCodes).not.toContain('INTERNAL_SERVER_ERROR');
      expect(codes(await t.gql('query($id: ID!) { game(id: $id) { id } }', { id: game.gameId }))).toEqual(['INTEGRITY_ERROR']);
    } finally {
      // Undo the forgery: other suites list the newest games of a shared PostgreSQL database.
      await sql(`UPDATE events SET payload = payload - 'forged' WHERE game_id = $1 AND seq = 1`);
    }
  });

  // Needs a change outside the API layer (src/app.ts: the route label of the HTTP metrics is the raw
  // path for anything outside /api/games, so every distinct hostile path adds series that are
  // never dropped). Expected to fail until then; once it passes, make it a plain `it`.
  it('requests to many distinct unknown paths do not add a metrics series each', async () => {
    const series = async () => (await http().get('/metrics')).text.split('\n').filter((l) => l.startsWith('arbiter_http_request')).length;
    // Warm up: the first unknown path and the first scrape each add their route's series once.
    await http().get('/no-such-path');
    await series();
    const before = await series();
    for (let i = 0; i < 100; i++) expect((await http().get(`/no-such-path-${i}`)).status).toBe(404);
    expect(await series()).toBe(before);
  });

  // graphql-js stops after 50 variable errors with an error Apollo would file as INTERNAL_SERVER_ERROR (app.module's formatError keeps it BAD_USER_INPUT).
  it('a list argument with thousands of bad items is BAD_USER_INPUT, not INTERNAL_SERVER_ERROR', async () => {
    const res = await t.gql('mutation($x: [BackgammonCheckerMoveInput!]!) { backgammonPlay(gameId: "AAAAAAAAAAAA", moveId: "m", moves: $x) { __typename } }', {
      x: Array.from({ length: 1000 }, (_, i) => i),
    });
    expect(codes(res)).not.toContain('INTERNAL_SERVER_ERROR');
  });
});
