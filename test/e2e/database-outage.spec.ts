import pg from 'pg';
import { DatabaseService } from '../../src/database/database.service.js';
import { startApp, type TestApp } from '../support/app.js';
import { ownStorage } from '../support/own-database.js';
import { ACT, CREATE, GAME, VERIFY } from '../support/queries.js';

/**
 * PostgreSQL drops the service's connections while moves are in flight (a failover, a restart,
 * an administrator's pg_terminate_backend): every move is answered, accepted or refused with the
 * documented STORAGE_UNAVAILABLE, never INTERNAL, and nothing acknowledged is lost.
 */
const pgUrl = process.env.TEST_DATABASE_URL;

(pgUrl ? describe : describe.skip)('PostgreSQL dropping the connections under moves in flight', () => {
  let t: TestApp;
  let storage: Awaited<ReturnType<typeof ownStorage>>;
  let admin: pg.Client;
  let database = '';

  beforeAll(async () => {
    storage = await ownStorage('outage');
    t = await startApp(storage.settings);
    database = new URL(storage.settings.databaseUrl!).pathname.slice(1);
    admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await t?.close();
    await storage?.drop();
  });

  /** Ends every connection the service holds to its database, as a restarting server would. */
  const dropConnections = () => admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);

  it('survives a connection ended by the server while it is checked out between two statements (a transaction in progress)', async () => {
    const pool = t.app.get(DatabaseService).pool;
    const client = await pool.connect();
    try {
      // Someone hears its 'error' event: unheard, it ends the process (jest only logs it, hence this check).
      expect(client.listenerCount('error')).toBeGreaterThan(0);
      await client.query('BEGIN');
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await new Promise((r) => setTimeout(r, 500));
      await expect(client.query('SELECT 1')).rejects.toThrow();
    } finally {
      client.release();
    }
    expect((await t.gql('{ games(first: 1) { totalCount } }')).errors).toBeUndefined();
  });

  it('answers each move accepted or STORAGE_UNAVAILABLE, never INTERNAL; every accepted move is stored', async () => {
    const games: { id: string; tokens: string[] }[] = [];
    for (let i = 0; i < 12; i++) {
      const created = (await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 40, handSize: 20 } } })).data.createGame;
      games.push({ id: created.game.id, tokens: created.tokens.map((s: { token: string }) => s.token) });
    }
    const codes = new Map<string, number>();
    const accepted = new Map<string, number>();
    const count = (code: string) => codes.set(code, (codes.get(code) ?? 0) + 1);
    for (let round = 0; round < 8; round++) {
      const moves = games.map(async ({ id, tokens }, g) => {
        const read = await t.gql(GAME, { id }, tokens[0]);
        if (!read.data?.game) return count(`read ${read.errors?.[0]?.extensions?.code}`);
        const seat = read.data.game.toAct[0];
        const mine = await t.gql(GAME, { id }, tokens[seat]);
        const card = mine.data?.game?.legalActions?.[0];
        if (!card) return count(`read ${mine.errors?.[0]?.extensions?.code}`);
        const res = await t.gql(ACT, { gameId: id, moveId: `r${round}-g${g}`, action: card }, tokens[seat]);
        const answer = res.data?.submitAction;
        if (answer?.__typename === 'MoveAccepted') {
          accepted.set(id, answer.version);
          return count('ACCEPTED');
        }
        const error = res.errors?.[0]?.extensions;
        // Refused as an error, it says when to come back (as REST's Retry-After header does).
        if (error?.code === 'STORAGE_UNAVAILABLE' && error.retryAfter !== 1) return count('STORAGE_UNAVAILABLE without retryAfter');
        return count(answer?.code ?? error?.code ?? 'NO_ANSWER');
      });
      // Every other round, the connections are dropped again and again while the moves are on their way.
      let done = false;
      const all = Promise.all(moves).finally(() => (done = true));
      while (round % 2 === 1 && !done) await dropConnections();
      await all;
    }
    const seen = Object.fromEntries(codes);
    expect(Object.keys(seen).filter((c) => !['ACCEPTED', 'STORAGE_UNAVAILABLE', 'read STORAGE_UNAVAILABLE'].includes(c))).toEqual([]);
    expect(seen.ACCEPTED).toBeGreaterThan(0);
    expect((seen.STORAGE_UNAVAILABLE ?? 0) + (seen['read STORAGE_UNAVAILABLE'] ?? 0)).toBeGreaterThan(0);
    // The service recovers: each game is at least where its last acknowledged move left it, and verifies.
    for (const { id, tokens } of games) {
      const game = (await t.gql(GAME, { id }, tokens[0])).data.game;
      expect(game.version).toBeGreaterThanOrEqual(accepted.get(id) ?? 0);
      expect((await t.gql(VERIFY, { gameId: id })).data.verifyGame.ok).toBe(true);
    }
  }, 120_000);
});
