import pg from 'pg';
import request from 'supertest';
import { DatabaseService } from '../../src/database/database.service.js';
import { startApp, type TestApp } from '../support/app.js';
import { ownStorage } from '../support/own-database.js';

/**
 * A load balancer polling /readyz gets an answer while the database does not give one: 503
 * DATABASE_UNAVAILABLE when every pool connection is taken (moves stuck on a dead server) or the
 * database holds the check, and 200 again once it answers. An instance that says nothing is
 * dropped as dead rather than waited for.
 */
describe('/readyz while the database does not answer', () => {
  let t: TestApp;
  let storage: Awaited<ReturnType<typeof ownStorage>>;

  beforeAll(async () => {
    storage = await ownStorage('readiness');
    t = await startApp({ ...storage.settings, databasePoolSize: 2 });
  });
  afterAll(async () => {
    await t?.close();
    await storage?.drop();
  });

  const readyz = () => request(t.app.getHttpServer()).get('/readyz');

  it('answers 503 DATABASE_UNAVAILABLE while every pool connection is held, and 200 once they are back', async () => {
    const pool = t.app.get(DatabaseService).pool;
    await readyz().expect(200);
    const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    try {
      for (let probe = 0; probe < 3; probe++) {
        const res = await readyz();
        expect([res.status, res.body]).toEqual([503, { status: 'unavailable', reason: 'DATABASE_UNAVAILABLE' }]);
      }
    } finally {
      for (const client of held) client.release();
    }
    await readyz().expect(200);
  }, 60_000);

  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    'answers 503 DATABASE_UNAVAILABLE while the database holds the check, leaves the pool to other requests, and 200 once it lets go',
    async () => {
      const admin = new pg.Client({ connectionString: storage.settings.databaseUrl! });
      await admin.connect();
      try {
        await admin.query('BEGIN');
        await admin.query('LOCK TABLE "_prisma_migrations" IN ACCESS EXCLUSIVE MODE');
        // More probes than the pool has connections: each check given up on gives its connection back.
        for (let probe = 0; probe < 3; probe++) {
          const res = await readyz();
          expect([res.status, res.body.reason]).toEqual([503, 'DATABASE_UNAVAILABLE']);
        }
        expect((await t.gql('{ games(first: 1) { totalCount } }')).errors).toBeUndefined();
        await admin.query('ROLLBACK');
        await readyz().expect(200);
      } finally {
        await admin.end();
      }
    },
    60_000,
  );
});
