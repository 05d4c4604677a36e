import request from 'supertest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startApp, type TestApp } from '../support/app.js';
import { ACT, CREATE, GAME } from '../support/queries.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ rateLimitPerMinute: 40, maxBodyBytes: 4096, maxQueryDepth: 6 });
});
afterAll(async () => {
  await t?.close();
});

describe('operations and limits', () => {
  it("streams a game's events over graphql-ws from a sequence number, then live, as the seat may see them", async () => {
    const { game, tokens } = (await t.gql(CREATE, { input: { kind: 'duel' } }, 'limits-1')).data.createGame;
    const client = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${tokens[0].token}` },
    });
    const seen: { seq: number; type: string; payload: any }[] = [];
    const done = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription($id: ID!) { gameEvents(gameId: $id, afterSeq: 1) { seq type payload } }', variables: { id: game.id } },
        {
          next: (msg) => {
            seen.push((msg.data as any).gameEvents);
            if (seen.some((e) => e.type === 'ActionTaken')) resolve();
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    await new Promise((r) => setTimeout(r, 300));
    const mine = (await t.gql(GAME, { id: game.id }, tokens[0].token)).data.game;
    await t.gql(ACT, { gameId: game.id, moveId: 'live', action: mine.legalActions[0] }, tokens[0].token);
    await done;
    await client.dispose();
    expect(seen[0].seq).toBe(2);
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 2));
    const shuffle = seen.find((e) => e.type === 'CardsShuffled')!;
    expect(shuffle.payload.view.hand).toEqual(mine.view.hands[0]);
    expect(shuffle.payload.chance.values).toBeUndefined();
  });

  it('limits requests per token with 429 and Retry-After', async () => {
    const server = t.app.getHttpServer();
    // Only a seat token this referee issued has a bucket of its own; a made-up one counts as its address.
    const { tokens } = (await t.gql(CREATE, { input: { kind: 'duel' } })).data.createGame;
    let limited: request.Response | null = null;
    for (let i = 0; i < 45 && !limited; i++) {
      const res = await request(server).post('/graphql').set('authorization', `Bearer ${tokens[0].token}`).send({ query: '{ __typename }' });
      if (res.status === 429) limited = res;
    }
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited!.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    // Other callers are not affected (another seat, a caller without a token), and health is never limited.
    expect((await request(server).post('/graphql').set('authorization', `Bearer ${tokens[1].token}`).send({ query: '{ __typename }' })).status).toBe(200);
    expect((await request(server).post('/graphql').send({ query: '{ __typename }' })).status).toBe(200);
    expect((await request(server).get('/healthz')).body.status).toBe('ok');
  });

  it('refuses queries that are too deep and bodies that are too large, as typed errors', async () => {
    const server = t.app.getHttpServer();
    const deep = await request(server)
      .post('/graphql')
      .set('authorization', 'Bearer deep')
      // Introspection has its own bound (16; tools' standard query needs 15): this one is 17 deep.
      .send({ query: `{ __schema { types { fields { type { ${'fields { type { '.repeat(6)}name${' } }'.repeat(6)} } } } } }` });
    expect(deep.body.errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
    const big = await request(server)
      .post('/graphql')
      .set('authorization', 'Bearer big')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ query: `{ __typename } #${'x'.repeat(5000)}` }));
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ errors: [{ message: expect.stringContaining('larger than'), extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
  });

  it('exposes Prometheus metrics with moves accepted and rejected by code', async () => {
    const { game, tokens } = (await t.gql(CREATE, { input: { kind: 'duel' } }, 'metrics')).data.createGame;
    await t.gql(ACT, { gameId: game.id, moveId: 'x', action: { type: 'play', card: 99 } }, tokens[0].token);
    const text = (await request(t.app.getHttpServer()).get('/metrics').expect(200)).text;
    expect(text).toMatch(/arbiter_moves_rejected_total\{kind="duel",code="ILLEGAL_MOVE"\} \d+/);
    expect(text).toMatch(/arbiter_http_requests_total\{/);
    expect(text).toMatch(/arbiter_live_games \d+/);
  });
});
