import pg from 'pg';
import { type RunningService, startService } from '../../tools/service.js';
import { CONFIG } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { WebhookStore } from '../../src/webhooks/webhook-store.js';
import { MAX_WEBHOOKS_PER_SCOPE } from '../../src/webhooks/webhook.service.js';
import { startApp, type TestApp } from '../support/app.js';
import { freePort } from '../support/net.js';
import { ownStorage } from '../support/own-database.js';
import { CREATE } from '../support/queries.js';

/**
 * A scope's webhook limit holds when registrations arrive at once: many at the same time on one
 * instance (PostgreSQL or the embedded database), and from two service processes on one
 * PostgreSQL, each stores the limit and no more; the others are refused with WEBHOOK_LIMIT.
 */

const REGISTER = `mutation($input: RegisterWebhookInput!) { registerWebhook(input: $input) { ... on WebhookSecret { id } ... on Rejection { code } } }`;
const GAME_HOOKS = 40;
/** Nothing is delivered here: registrations only, to a host the settings allow. */
const HOOK_HOST = { hostname: '127.0.0.1', port: 9 };
const backend = process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite';

type Gql = (query: string, variables?: Record<string, unknown>, token?: string) => Promise<any>;

/** A backgammon game; its first seat's token and the game's id. */
async function newGame(gql: Gql): Promise<{ id: string; token: string }> {
  const created = (await gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 } } })).data.createGame;
  return { id: created.game.id, token: created.tokens[0].token };
}

/** `n` registrations for the game at once, spread over `gqls` in turn: the codes they answer (OK when stored). */
async function registerAtOnce(gqls: Gql[], n: number, game: { id: string; token: string }): Promise<string[]> {
  const input = { url: `http://${HOOK_HOST.hostname}:${HOOK_HOST.port}/hook`, gameId: game.id, events: ['YOUR_TURN'] };
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => gqls[i % gqls.length](REGISTER, { input }, game.token)));
  return answers.map((a) => a.data.registerWebhook.code ?? 'OK');
}

const count = (codes: string[], code: string) => codes.filter((c) => c === code).length;

describe(`a scope's webhook limit under concurrency (${backend})`, () => {
  let t: TestApp;
  const gql: Gql = (q, v, token) => t.gql(q, v, token);

  beforeAll(async () => {
    t = await startApp({ webhookAllowedHosts: [HOOK_HOST] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`stores exactly ${MAX_WEBHOOKS_PER_SCOPE} of ${GAME_HOOKS} registrations made at once for one game; the rest are refused with WEBHOOK_LIMIT`, async () => {
    const game = await newGame(gql);
    const codes = await registerAtOnce([gql], GAME_HOOKS, game);
    expect(count(codes, 'OK')).toBe(MAX_WEBHOOKS_PER_SCOPE);
    expect(count(codes, 'WEBHOOK_LIMIT')).toBe(GAME_HOOKS - MAX_WEBHOOKS_PER_SCOPE);
    const stored = await t.app.get(DatabaseService).pool.query('SELECT count(*)::int AS n FROM webhooks WHERE game_id = $1', [game.id]);
    expect(stored.rows[0].n).toBe(MAX_WEBHOOKS_PER_SCOPE);
  });

  it(`the stores keep ${MAX_WEBHOOKS_PER_SCOPE} of ${GAME_HOOKS} registrations they are asked to store at the same moment for one seat${backend === 'postgresql' ? ', from two connection pools as two processes have' : ''}`, async () => {
    const game = await newGame(gql);
    // On PostgreSQL a second process's store: its own pool and its own queues, on the same database.
    const other = backend === 'postgresql' ? new DatabaseService(t.app.get(CONFIG)) : null;
    await other?.connect();
    const stores = [t.app.get(WebhookStore), ...(other ? [new WebhookStore(other)] : [])];
    const hook = (i: number) => ({
      id: `wh_limit_${game.id}_${i}`,
      url: `http://${HOOK_HOST.hostname}:${HOOK_HOST.port}/hook`,
      secret: 'whsec_x',
      events: ['YOUR_TURN' as const],
      lowTimeThresholdsSeconds: [],
      gameId: game.id,
      seat: 0,
      tournamentId: null,
      participantId: null,
      playerId: null,
      ownerTokenHash: 'h',
    });
    try {
      const stored = await Promise.all(Array.from({ length: GAME_HOOKS }, (_, i) => stores[i % stores.length].create(hook(i), MAX_WEBHOOKS_PER_SCOPE)));
      expect(stored.filter(Boolean).length).toBe(MAX_WEBHOOKS_PER_SCOPE);
    } finally {
      await other?.onModuleDestroy();
    }
  });
});

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres("a scope's webhook limit across two service processes on one PostgreSQL", () => {
  const services: RunningService[] = [];
  let drop: (() => Promise<void>) | undefined;

  afterAll(async () => {
    for (const s of services) {
      s.process.kill('SIGTERM');
      await s.exited;
    }
    await drop?.();
  });

  async function gqlAt(service: RunningService, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const res = await fetch(`${service.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    return res.json();
  }

  it(`stores exactly ${MAX_WEBHOOKS_PER_SCOPE} of ${GAME_HOOKS} registrations sent at once to two processes for one game`, async () => {
    const storage = await ownStorage('webhook_limit');
    drop = storage.drop;
    const env = { DATABASE_URL: storage.settings.databaseUrl!, WEBHOOK_ALLOWED_HOSTS: `${HOOK_HOST.hostname}:${HOOK_HOST.port}` };
    services.push(await startService(env, await freePort()));
    services.push(await startService(env, await freePort()));
    const gqls: Gql[] = services.map((s) => (q, v, token) => gqlAt(s, q, v, token));
    const game = await newGame(gqls[0]);
    const codes = await registerAtOnce(gqls, GAME_HOOKS, game);
    expect(count(codes, 'OK')).toBe(MAX_WEBHOOKS_PER_SCOPE);
    expect(count(codes, 'WEBHOOK_LIMIT')).toBe(GAME_HOOKS - MAX_WEBHOOKS_PER_SCOPE);
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const stored = await client.query('SELECT count(*)::int AS n FROM webhooks WHERE game_id = $1', [game.id]);
      expect(stored.rows[0].n).toBe(MAX_WEBHOOKS_PER_SCOPE);
    } finally {
      await client.end();
    }
  }, 300_000);
});
