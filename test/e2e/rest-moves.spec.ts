import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import request from 'supertest';
import { AccountService } from '../../src/referee/application/accounts.js';
import { startApp, type TestApp } from '../support/app.js';
import { duel } from '../support/duels.js';
import { GAME } from '../support/queries.js';

/** Moves over REST (docs/integrating.md, "Moves over REST"): the same command, refusals and budget as GraphQL's. */
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (app: TestApp, path: string, body: unknown, token?: string) => {
  const req = request(app.app.getHttpServer()).post(path).set('content-type', 'application/json');
  if (token) req.set('authorization', `Bearer ${token}`);
  return req.send(JSON.stringify(body));
};
const read = (app: TestApp, id: string, token?: string) => {
  const req = request(app.app.getHttpServer()).get(`/api/games/${id}`);
  return token ? req.set('authorization', `Bearer ${token}`) : req;
};
/** The seat to act, its token and its first legal action, read over REST. */
async function turn(app: TestApp, id: string, tokens: string[]) {
  const seat = (await read(app, id)).body.toAct[0] as number;
  const game = (await read(app, id, tokens[seat]).expect(200)).body;
  return { seat, token: tokens[seat], other: tokens[1 - seat], version: game.version as number, action: game.legalActions[0] };
}

describe('POST /api/games/:id/actions', () => {
  it('plays a move GraphQL then sees, and answers the game as the seat now sees it', async () => {
    const { id, tokens } = await duel(t.gql);
    const { seat, token, version, action } = await turn(t, id, tokens);
    const res = await post(t, `/api/games/${id}/actions`, { action, moveId: 'rest-1', expectedVersion: version }, token).expect(200);
    expect(res.body).toMatchObject({ gameId: id, seat, status: 'ACTIVE' });
    expect(res.body.version).toBeGreaterThan(version);
    expect(res.body.events.map((e: { type: string }) => e.type)).toContain('ActionTaken');
    // The game as GET answers it, for the mover.
    expect(res.body.game).toEqual((await read(t, id, token)).body);
    const seen = (await t.gql(GAME, { id }, token)).data.game;
    expect(seen.version).toBe(res.body.version);
    expect(seen.toAct).not.toEqual([seat]);
  });

  it('answers a retry with the same move id as it answered the move, and plays it once', async () => {
    const { id, tokens } = await duel(t.gql);
    const { token, version, action } = await turn(t, id, tokens);
    const first = await post(t, `/api/games/${id}/actions`, { action, moveId: 'same', expectedVersion: version }, token).expect(200);
    const again = await post(t, `/api/games/${id}/actions`, { action, moveId: 'same', expectedVersion: version }, token).expect(200);
    expect(again.body.version).toBe(first.body.version);
    expect((await read(t, id)).body.version).toBe(first.body.version);
    // The same id for another move is refused.
    const reused = await post(t, `/api/games/${id}/actions`, { action: { type: 'play', card: -1 }, moveId: 'same' }, token);
    expect([reused.status, reused.body.error.code]).toEqual([409, 'MOVE_ID_REUSED']);
  });

  it('refuses with a stable code and status, and changes nothing', async () => {
    const { id, tokens } = await duel(t.gql);
    const { token, other, version, action } = await turn(t, id, tokens);
    const before = (await read(t, id, token)).body;
    const player = await t.app.get(AccountService).registerPlayer({ name: 'Reader', externalId: null, scopes: ['read'] }, null);
    const cases: [string, unknown, string | undefined, number, string][] = [
      ['not your turn', { action, moveId: 'a' }, other, 422, 'NOT_YOUR_TURN'],
      ['illegal action', { action: { type: 'play', card: 999 }, moveId: 'b' }, token, 422, 'ILLEGAL_MOVE'],
      ['stale version', { action, moveId: 'c', expectedVersion: version - 1 }, token, 409, 'VERSION_CONFLICT'],
      ['no action', { moveId: 'd' }, token, 400, 'INVALID_INPUT'],
      ['an unknown field', { action, moveId: 'e', expected: version }, token, 400, 'INVALID_INPUT'],
      ['a bad version', { action, moveId: 'f', expectedVersion: -1 }, token, 400, 'INVALID_INPUT'],
      ['a body that is a list', [action], token, 400, 'INVALID_INPUT'],
      ['a bad move id', { action, moveId: 'no spaces' }, token, 400, 'INVALID_INPUT'],
      ['no token', { action, moveId: 'g' }, undefined, 401, 'UNAUTHORIZED'],
      ['a key without play', { action, moveId: 'h' }, player.key.secret, 403, 'SCOPE_MISSING'],
    ];
    for (const [what, body, bearer, status, code] of cases) {
      const res = await post(t, `/api/games/${id}/actions`, body, bearer);
      expect({ what, status: res.status, code: res.body.error?.code }).toEqual({ what, status, code });
    }
    const unknown = await post(t, '/api/games/AAAAAAAAAAAA/actions', { action, moveId: 'i' }, token);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await read(t, id, token)).body).toEqual(before);
  });

  it('resigns and aborts as GraphQL does', async () => {
    const { id, tokens } = await duel(t.gql);
    const { token, version, action } = await turn(t, id, tokens);
    await post(t, `/api/games/${id}/actions`, { action, expectedVersion: version }, token).expect(200);
    const late = await post(t, `/api/games/${id}/abort`, {}, token);
    expect([late.status, late.body.error.code]).toEqual([422, 'ABORT_TOO_LATE']);
    const resigned = await post(t, `/api/games/${id}/resign`, {}, token).expect(200);
    expect(resigned.body.status).toBe('FINISHED');
    expect((await t.gql(GAME, { id })).data.game.status).toBe('FINISHED');

    const fresh = await duel(t.gql);
    expect((await post(t, `/api/games/${fresh.id}/abort`, undefined, fresh.tokens[0]).expect(200)).body.status).toBe('ABORTED');
  });
});

describe('rate budgets of moves over REST', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startApp({ rateLimitPerMinute: 3, addressRateLimitPerMinute: 100, addressSeatsRateLimitPerMinute: 100 });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("charges a move to the seat's moves, not its reads: a seat that read its fill still moves, and moving leaves its reads", async () => {
    const { id, tokens } = await duel(limited.gql);
    const seat = (await read(limited, id)).body.toAct[0] as number;
    const token = tokens[seat];
    const game = (await read(limited, id, token)).body;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await read(limited, id, token)).status);
    expect(statuses).toEqual([200, 200, 429]);
    // Over its reads, the seat still moves (as over GraphQL).
    const moved = await post(limited, `/api/games/${id}/actions`, { action: game.legalActions[0], expectedVersion: game.version }, token);
    expect(moved.status).toBe(200);

    // The other seat: moves do not spend its reads, and its moves over REST and GraphQL share one budget.
    const other = tokens[1 - seat];
    for (let i = 0; i < 2; i++) {
      const res = await post(limited, `/api/games/${id}/resign`, { moveId: `x${i}` }, other);
      expect(res.status).not.toBe(429);
    }
    const resign = `mutation($id: ID!) { resignGame(gameId: $id, moveId: "x2") { __typename } }`;
    // Answered (the game is over by now: a Rejection), not refused with RATE_LIMITED.
    expect((await limited.gql(resign, { id }, other)).errors).toBeUndefined();
    expect((await post(limited, `/api/games/${id}/resign`, { moveId: 'x3' }, other)).status).toBe(429);
    expect((await read(limited, id, other)).status).toBe(200);
  });
});

describe('clients/rest-bot/play.mjs', () => {
  it('plays a whole game of each kind over plain HTTP', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['clients/rest-bot/play.mjs'], { env: { ...process.env, ARBITER_URL: t.url }, timeout: 120_000 });
    for (const kind of ['backgammon', 'chicken-foot', 'cerke']) expect(stdout).toMatch(new RegExp(`^${kind}: FINISHED after [1-9][0-9]* actions`, 'm'));
  }, 150_000);
});
