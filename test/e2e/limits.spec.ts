import { getIntrospectionQuery } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { startApp, type TestApp } from '../support/app.js';
import { CREATE } from '../support/queries.js';

/**
 * Limits that cannot be dodged: made-up tokens, forged X-Forwarded-For, game creation, and
 * queries that cost more than their text shows. Every assertion is about counts, never speed
 * (a fixed one-minute window is far longer than any of these loops).
 */

const TYPENAME = { query: '{ __typename }' };

function post(t: TestApp, body: object, headers: Record<string, string> = {}) {
  const req = request(t.app.getHttpServer()).post('/graphql');
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  return req.send(body);
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function create(t: TestApp, headers: Record<string, string> = {}) {
  return post(t, { query: CREATE, variables: { input: { kind: 'duel' } } }, headers);
}

/** A graphql-ws client whose upgrade request carries `headers` (e.g. X-Forwarded-For). */
function wsClient(t: TestApp, token: string | null, headers: Record<string, string> = {}): Client {
  class WithHeaders extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  return createClient({
    url: `${t.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WithHeaders,
    connectionParams: token ? bearer(token) : {},
    retryAttempts: 0,
    lazy: true,
  });
}

/** Runs one operation over graphql-ws; answers its result or its errors. */
function wsOnce(client: Client, query: string, variables: Record<string, unknown> = {}): Promise<{ data?: any; errors?: any[] }> {
  return new Promise((resolve, reject) => {
    let result: { data?: any; errors?: any[] } = {};
    client.subscribe(
      { query, variables },
      {
        next: (r) => {
          result = r as typeof result;
        },
        error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)),
        complete: () => resolve(result),
      },
    );
  });
}

describe('rate limits cannot be dodged with made-up tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ rateLimitPerMinute: 5, addressRateLimitPerMinute: 5 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts a made-up token against its address; a real seat token has its own bucket', async () => {
    const created = (await create(t)).body.data.createGame; // the address: 1
    const seat = created.tokens[0].token as string;
    expect((await post(t, TYPENAME, bearer(seat))).status).toBe(200); // first sight: looked up on the address's lookup allowance, counted on its own minute

    const statuses: number[] = [];
    let limited: request.Response | null = null;
    for (let i = 0; i < 20; i++) {
      const res = await post(t, TYPENAME, bearer(`made-up-${i}`));
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
    // The address's 4 requests left, and 4 lookups left (the seat's first request took one): the fifth made-up token is not even looked up.
    expect(statuses.filter((s) => s === 200).length).toBe(4);
    // GraphQL-shaped, and nothing but `errors` at the top (GraphQL over HTTP).
    expect(limited!.body).toEqual({ errors: [{ message: expect.stringContaining('requests a minute'), extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } }] });
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    // So does a request with no token, and the same made-up token again (remembered as made up).
    expect((await post(t, TYPENAME)).status).toBe(429);
    expect((await post(t, TYPENAME, bearer('made-up-0'))).status).toBe(429);
    // The seat token is not affected by its address's flood, and has a limit of its own.
    const mine: number[] = [];
    for (let i = 0; i < 7; i++) mine.push((await post(t, TYPENAME, bearer(seat))).status);
    expect(mine).toEqual([200, 200, 200, 200, 429, 429, 429]);
    // Health and metrics are never limited.
    expect((await request(t.app.getHttpServer()).get('/healthz')).status).toBe(200);
  });
});

describe('rate limits cannot be multiplied by minting seat tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ rateLimitPerMinute: 5, addressRateLimitPerMinute: 6, addressSeatsRateLimitPerMinute: 12 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts every seat token used from one address against that address's seats ceiling; a seat's first request from a busy address is its own", async () => {
    // Two games created (the address: 2 of 6): four seat tokens of 5 requests a minute each, 20 in all.
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) tokens.push(...(await create(t)).body.data.createGame.tokens.map((s: { token: string }) => s.token));
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++) for (const token of tokens) statuses.push((await post(t, TYPENAME, bearer(token))).status);
    // 2,440 reads in 60 s came this way from an address limited to 60 a minute: now the seats' 12 in all.
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    // The address's own budget is apart: it still has its 4 requests.
    for (let i = 0; i < 4; i++) expect((await post(t, TYPENAME)).status).toBe(200);
    expect((await post(t, TYPENAME)).status).toBe(429);
    // A seat given out elsewhere, first seen from this busy address, is looked up and counted on its own minute.
    const t2 = await startApp({ rateLimitPerMinute: 5, addressRateLimitPerMinute: 6, addressSeatsRateLimitPerMinute: 100 });
    try {
      const seat = (await t2.app.get(RefereeService).createGame({ kind: 'duel' })).tokens[0].token;
      for (let i = 0; i < 6; i++) expect((await post(t2, TYPENAME)).status).toBe(200);
      expect((await post(t2, TYPENAME)).status).toBe(429);
      expect((await post(t2, TYPENAME, bearer(seat))).status).toBe(200);
    } finally {
      await t2.close();
    }
  });
});

describe('X-Forwarded-For', () => {
  it('is ignored without TRUST_PROXY: every forged address shares the socket address bucket', async () => {
    const t = await startApp({ rateLimitPerMinute: 3, addressRateLimitPerMinute: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await post(t, TYPENAME, { 'x-forwarded-for': `10.9.0.${i + 1}` })).status);
      expect(statuses.filter((s) => s === 200).length).toBe(3);
      expect(statuses.filter((s) => s === 429).length).toBe(7);
    } finally {
      await t.close();
    }
  });

  it('is honoured when TRUST_PROXY names the proxy: each client behind it has its own bucket', async () => {
    const t = await startApp({ rateLimitPerMinute: 3, addressRateLimitPerMinute: 3, trustProxy: ['loopback'] });
    try {
      const a: number[] = [];
      for (let i = 0; i < 5; i++) a.push((await post(t, TYPENAME, { 'x-forwarded-for': '10.9.1.1' })).status);
      expect(a).toEqual([200, 200, 200, 429, 429]);
      // Another client behind the proxy, and a forged hop before the real one, which is ignored.
      expect((await post(t, TYPENAME, { 'x-forwarded-for': '10.9.1.2' })).status).toBe(200);
      expect((await post(t, TYPENAME, { 'x-forwarded-for': '1.2.3.4, 10.9.1.1' })).status).toBe(429);
      // IPv6 clients count by /64: rotating the host part does not help.
      const v6: number[] = [];
      for (let i = 0; i < 5; i++) v6.push((await post(t, TYPENAME, { 'x-forwarded-for': `2001:db8:1:2::${i + 1}` })).status);
      expect(v6).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await t.close();
    }
  });
});

describe('game creation quota per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ createQuotaPerHour: 3, trustProxy: ['loopback'] });
  });
  afterAll(async () => {
    await t?.close();
  });
  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('refuses the creation past the quota with RATE_LIMITED and Retry-After, over GraphQL and REST', async () => {
    for (let i = 0; i < 3; i++) expect((await create(t, from('10.8.0.1'))).body.data.createGame.__typename).toBe('GameCreated');
    const refused = await create(t, from('10.8.0.1'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(refused.body.data).toBeUndefined();
    const imported = await post(t, { query: 'mutation { importGame(kind: "duel", record: "x") { __typename } }' }, from('10.8.0.1'));
    expect(imported.status).toBe(429);
    expect(imported.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    const rest = await request(t.app.getHttpServer()).post('/api/games/import?kind=duel').set(from('10.8.0.1')).set('content-type', 'text/plain').send('x');
    expect(rest.status).toBe(429);
    expect(rest.body.error.code).toBe('RATE_LIMITED');
    expect(Number(rest.headers['retry-after'])).toBeGreaterThan(0);
    // Queries and other addresses are not affected.
    expect((await post(t, TYPENAME, from('10.8.0.1'))).status).toBe(200);
    expect((await create(t, from('10.8.0.2'))).body.data.createGame.__typename).toBe('GameCreated');
  });

  it('counts every aliased creation in one request, and REST imports', async () => {
    const many = `mutation { ${[1, 2, 3, 4].map((i) => `g${i}: createGame(input: { kind: "duel" }) { __typename }`).join(' ')} }`;
    const refused = await post(t, { query: many }, from('10.8.1.1'));
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    // Through a fragment on Mutation too: two here, then one REST import, then nothing is left.
    const viaFragment = 'mutation { ...Two } fragment Two on Mutation { a: createGame(input: { kind: "duel" }) { __typename } b: createGame(input: { kind: "duel" }) { __typename } }';
    expect((await post(t, { query: viaFragment }, from('10.8.1.2'))).body.data.a.__typename).toBe('GameCreated');
    const rest = await request(t.app.getHttpServer()).post('/api/games/import?kind=duel').set(from('10.8.1.2')).set('content-type', 'text/plain').send('not a record');
    expect(rest.status).not.toBe(429);
    expect((await create(t, from('10.8.1.2'))).status).toBe(429);
  });

  it('counts creations sent over graphql-ws under the address too', async () => {
    for (let i = 0; i < 3; i++) expect((await create(t, from('10.8.2.1'))).status).toBe(200);
    const client = wsClient(t, null, from('10.8.2.1'));
    try {
      const res = await wsOnce(client, CREATE, { input: { kind: 'duel' } });
      expect(res.errors?.[0].extensions.code).toBe('RATE_LIMITED');
      expect(res.data).toBeUndefined();
    } finally {
      await client.dispose();
    }
  });
});

describe('expensive fields', () => {
  let t: TestApp;
  let gameId: string;
  beforeAll(async () => {
    t = await startApp({ rateLimitPerMinute: 1000 });
    gameId = (await create(t)).body.data.createGame.game.id;
  });
  afterAll(async () => {
    await t?.close();
  });
  const aliased = (n: number) => `query($id: ID!) { ${Array.from({ length: n }, (_, i) => `v${i}: verifyGame(gameId: $id) { ok }`).join(' ')} }`;

  it('refuses 450 aliased verifyGame in one request before anything runs', async () => {
    // 450 aliases are more tokens than a document may have: refused by the parser already.
    // Refused before it runs: 400 to a client that reads application/graphql-response+json (200 with the errors to application/json).
    const res = await post(t, { query: aliased(450), variables: { id: gameId } }, { accept: 'application/graphql-response+json' });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors.map((e: any) => e.extensions.code)).toEqual(['GRAPHQL_PARSE_FAILED']);
    // Within the token bound, the cost rules refuse them.
    const hundred = await post(t, { query: aliased(100), variables: { id: gameId } }, { accept: 'application/graphql-response+json' });
    expect(hundred.status).toBe(400);
    expect(hundred.body.data).toBeUndefined();
    const codes = hundred.body.errors.map((e: any) => e.extensions.code);
    expect(codes).toContain('QUERY_TOO_EXPENSIVE');
    expect(codes).toContain('QUERY_TOO_COMPLEX');
  });

  it('allows up to MAX_EXPENSIVE_FIELDS (5) of them, counting aliases and fragments', async () => {
    const five = await post(t, { query: aliased(5), variables: { id: gameId } });
    expect(five.body.errors).toBeUndefined();
    expect(five.body.data.v4.ok).toBe(true);
    const six = await post(t, { query: aliased(6), variables: { id: gameId } });
    expect(six.body.errors.map((e: any) => e.extensions.code)).toEqual(['QUERY_TOO_EXPENSIVE']);
    const viaFragments =
      'query($id: ID!) { ...A ...B } fragment A on Query { a1: verifyGame(gameId: $id) { ok } a2: gameStateAt(gameId: $id, seq: 1) { seq } a3: verifyGame(gameId: $id) { ok } } fragment B on Query { b1: verifyGame(gameId: $id) { ok } b2: verifyGame(gameId: $id) { ok } b3: verifyGame(gameId: $id) { ok } }';
    const fragments = await post(t, { query: viaFragments, variables: { id: gameId } });
    expect(fragments.body.errors.map((e: any) => e.extensions.code)).toEqual(['QUERY_TOO_EXPENSIVE']);
  });

  it('refuses them over graphql-ws too', async () => {
    const client = wsClient(t, null);
    try {
      const res = await wsOnce(client, aliased(100), { id: gameId });
      expect(res.errors!.map((e: any) => e.extensions.code)).toContain('QUERY_TOO_EXPENSIVE');
      expect(res.data).toBeUndefined();
      const ok = await wsOnce(client, aliased(2), { id: gameId });
      expect(ok.data.v1.ok).toBe(true);
    } finally {
      await client.dispose();
    }
  });

  it('prices a games page by its items', async () => {
    const page = (first: number, n: number) => `{ ${Array.from({ length: n }, (_, i) => `p${i}: games(first: ${first}) { nodes { id status kind version } }`).join(' ')} }`;
    expect((await post(t, { query: page(100, 1) })).body.errors).toBeUndefined();
    expect((await post(t, { query: page(100, 3) })).body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect((await post(t, { query: page(5, 10) })).body.errors).toBeUndefined();
  });

  it('does not make the standard introspection query any costlier: only its depth is refused', async () => {
    const res = await post(t, { query: getIntrospectionQuery() });
    const codes: string[] = (res.body.errors ?? []).map((e: any) => e.extensions.code);
    expect(codes).not.toContain('QUERY_TOO_COMPLEX');
    expect(codes).not.toContain('QUERY_TOO_EXPENSIVE');
    // Once the depth limit allows it, the default cost limit does too.
    const deeper = await startApp({ maxQueryDepth: 20 });
    try {
      const full = await post(deeper, { query: getIntrospectionQuery() });
      expect(full.body.errors).toBeUndefined();
      expect(full.body.data.__schema.queryType.name).toBe('Query');
    } finally {
      await deeper.close();
    }
  });
});
