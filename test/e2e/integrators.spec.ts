import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { limitsOf } from '../../src/api/limits.js';
import { startApp, type TestApp } from '../support/app.js';

/**
 * The API as an integrator's tools meet it: the standard introspection query, one error shape,
 * CORS, subscriptions that end with the game, a REST stream that follows a live game, records
 * posted the way curl posts them, and moves that reading never starves.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startApp({ corsOrigins: ['http://app.example'] });
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 120_000);

const CREATE_DUEL = `mutation { createGame(input: { kind: "duel", ruleset: { cards: 4, handSize: 2 } }) {
  ... on GameCreated { game { id version } tokens { seat token } } ... on Rejection { code message } } }`;
const STATE = `query($id: ID!) { game(id: $id) { version status toAct legalActions } }`;
const ACT = `mutation($g: ID!, $m: String!, $a: JSON!) { submitAction(gameId: $g, moveId: $m, action: $a) {
  __typename ... on MoveAccepted { version status } ... on Rejection { code message } } }`;

async function createDuel(app = t): Promise<{ id: string; tokens: string[] }> {
  const created = (await app.gql(CREATE_DUEL)).data.createGame;
  return { id: created.game.id, tokens: created.tokens.map((s: { token: string }) => s.token) };
}

/** Plays the duel to its end, one card at a time, with each seat's own token. */
async function playToEnd(game: { id: string; tokens: string[] }, app = t): Promise<number> {
  for (let i = 0; ; i++) {
    const state = (await app.gql(STATE, { id: game.id })).data.game;
    if (state.status === 'FINISHED') return state.version;
    const seat = state.toAct[0];
    const legal = (await app.gql(STATE, { id: game.id }, game.tokens[seat])).data.game.legalActions;
    const moved = (await app.gql(ACT, { g: game.id, m: `m${i}`, a: legal[0] }, game.tokens[seat])).data.submitAction;
    expect(moved.__typename).toBe('MoveAccepted');
  }
}

function subscribe(gameId: string, connectionParams: Record<string, unknown>) {
  const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
  const events: { seq: number; type: string; payload: any }[] = [];
  const done = new Promise<{ completed: boolean; error?: unknown }>((resolve) => {
    client.subscribe(
      { query: 'subscription($id: ID!) { gameEvents(gameId: $id) { seq type payload } }', variables: { id: gameId } },
      { next: (m) => events.push((m.data as any).gameEvents), error: (error) => resolve({ completed: false, error }), complete: () => resolve({ completed: true }) },
    );
  });
  return { client, events, done };
}

describe('an integrator’s tools', () => {
  it('run the standard introspection query (every option on) and build a client schema from it', async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });
    const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const body = (await res.json()) as { data: IntrospectionQuery; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const schema = buildClientSchema(body.data);
    expect(schema.getQueryType()?.getFields().game).toBeDefined();
    expect(schema.getType('RejectionCode')).toBeDefined();
    // Every mutation that makes a game is under the address's creation quota (its field says so).
    const served = t.app.get(GraphQLSchemaHost).schema.getMutationType()!.getFields();
    const creating = Object.keys(schema.getMutationType()!.getFields()).filter((name) => /^(create|import)/.test(name));
    expect(creating.filter((name) => !limitsOf(served[name]).creates)).toEqual([]);
  });

  it('get GraphQL-shaped errors with a code on /graphql: too deep, malformed JSON, unknown field', async () => {
    const post = (body: string) => fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for (const [body, code] of [
      [JSON.stringify({ query: `{ __schema { types { fields { type { ${'fields { type { '.repeat(6)}name${' } }'.repeat(6)} } } } } }` }), 'QUERY_TOO_DEEP'],
      ['{"query": ', 'INVALID_INPUT'],
      [JSON.stringify({ query: '{ noSuchField }' }), 'GRAPHQL_VALIDATION_FAILED'],
    ] as const) {
      const answer = (await (await post(body)).json()) as Record<string, unknown>;
      expect(Object.keys(answer).filter((k) => k !== 'data')).toEqual(['errors']);
      expect((answer.errors as { extensions: { code: string } }[])[0].extensions.code).toBe(code);
    }
  });

  it('answer a CORS preflight for an allowed origin, and not for another', async () => {
    const preflight = (origin: string) =>
      fetch(`${t.url}/graphql`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    const allowed = await preflight('http://app.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://app.example');
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    const other = await preflight('http://elsewhere.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(`${t.url}/api/games/none`, { headers: { origin: 'http://app.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBe('http://app.example');
  });
});

describe('subscriptions and streams', () => {
  it('a subscription completes when the game ends; a seat token works without "Bearer "', async () => {
    const game = await createDuel();
    const asSeat = subscribe(game.id, { authorization: game.tokens[0] });
    const asSpectator = subscribe(game.id, {});
    const version = await playToEnd(game);
    for (const s of [asSeat, asSpectator]) {
      expect(await s.done).toEqual({ completed: true });
      expect(s.events.map((e) => e.seq)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
      expect(s.events.at(-1)!.type).toBe('SeedRevealed');
      await s.client.dispose();
    }
    // Subscribing to a finished game gives its events and completes.
    const late = subscribe(game.id, { token: game.tokens[1] });
    expect(await late.done).toEqual({ completed: true });
    expect(late.events).toHaveLength(version);
    await late.client.dispose();
  }, 60_000);

  it('a connectionParams token that is no token at all is refused, not taken for a spectator', async () => {
    const game = await createDuel();
    const refused = subscribe(game.id, { authorization: 'Bearer two words' });
    const outcome = await refused.done;
    expect(outcome.completed).toBe(false);
    expect((outcome.error as { code?: number }).code).toBe(4403);
    await refused.client.dispose();
  });

  it('GET /api/games/:id/events?follow=1 streams a live game as NDJSON until it ends', async () => {
    const game = await createDuel();
    const res = await fetch(`${t.url}/api/games/${game.id}/events?follow=1&afterSeq=1`);
    expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const reading = res.text();
    const version = await playToEnd(game);
    const lines = (await reading).split('\n').filter((l) => l.trim() !== '');
    const seqs = lines.map((l) => JSON.parse(l).seq);
    expect(seqs).toEqual(Array.from({ length: version - 1 }, (_, i) => i + 2));
    expect(JSON.parse(lines.at(-1)!).type).toBe('SeedRevealed');
    expect((await fetch(`${t.url}/api/games/${game.id}/events?follow=yes`)).status).toBe(400);
  }, 60_000);

  it('POST /api/games/import takes a record the way curl sends it (form encoding), as text/plain and as octet-stream', async () => {
    const game = await createDuel();
    await playToEnd(game);
    const record = await (await fetch(`${t.url}/api/games/${game.id}/record`)).text();
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream']) {
      const res = await fetch(`${t.url}/api/games/import?kind=duel`, { method: 'POST', headers: { 'content-type': type }, body: record });
      expect([type, res.status]).toEqual([type, 201]);
    }
  });
});

describe('rate limits a playing client does not hit', () => {
  // RATE_LIMIT_PER_MINUTE=8: a seat reads 8 a minute and moves 8 more; an address without a token gets 16.
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startApp({ rateLimitPerMinute: 8 });
  }, 120_000);
  afterAll(async () => {
    await limited?.close();
  }, 120_000);

  it("a seat's moves have their own budget: reading up to the limit does not stop its next move", async () => {
    const game = await createDuel(limited);
    const seat = (await limited.gql(STATE, { id: game.id })).data.game.toAct[0];
    let reads = 0;
    let legal: unknown[] = [];
    for (;;) {
      const res = await fetch(`${limited.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${game.tokens[seat]}` },
        body: JSON.stringify({ query: STATE, variables: { id: game.id } }),
      });
      if (res.status === 429) break;
      legal = ((await res.json()) as any).data.game.legalActions;
      reads++;
    }
    expect(reads).toBe(8); // the seat's budget, its first request included
    const moved = await fetch(`${limited.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${game.tokens[seat]}` },
      body: JSON.stringify({ query: ACT, variables: { g: game.id, m: 'after-reads', a: legal[0] } }),
    });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as any).data.submitAction.__typename).toBe('MoveAccepted');
  });

  it('over WebSocket too, a seat that read up to its budget still moves', async () => {
    const game = await createDuel(limited);
    const seat = (await limited.gql(STATE, { id: game.id })).data.game.toAct[0];
    const client = createClient({ url: `${limited.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: game.tokens[seat] }, retryAttempts: 0 });
    const run = (query: string, variables: Record<string, unknown>) =>
      new Promise<{ data?: any; errors?: any }>((resolve) => {
        let answer: { data?: any; errors?: any } = {};
        client.subscribe({ query, variables }, { next: (m) => (answer = m as typeof answer), error: (errors) => resolve({ errors }), complete: () => resolve(answer) });
      });
    try {
      let legal: unknown[] = [];
      for (let i = 0; i < 20; i++) {
        const read = await run(STATE, { id: game.id });
        if (read.errors) break;
        legal = read.data.game.legalActions;
      }
      const refused = await run(STATE, { id: game.id });
      expect(JSON.stringify(refused.errors)).toContain('RATE_LIMITED');
      const moved = await run(ACT, { g: game.id, m: 'ws-after-reads', a: legal[0] });
      expect(moved.data.submitAction.__typename).toBe('MoveAccepted');
    } finally {
      await client.dispose();
    }
  });

  it('callers without a token share a budget per address twice a seat’s (ADDRESS_RATE_LIMIT_PER_MINUTE)', async () => {
    let answered = 0;
    for (;;) {
      const res = await fetch(`${limited.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ gameKinds }' }) });
      if (res.status === 429) break;
      answered++;
    }
    // The address also paid for the games created and the tokens first seen in the test above.
    expect(answered).toBeGreaterThan(8);
    expect(answered).toBeLessThanOrEqual(16);
  });
});
