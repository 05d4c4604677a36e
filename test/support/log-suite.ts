import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Config } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { TransparencyLog } from '../../src/transparency/index.js';
import { startApp, type TestApp } from './app.js';
import { ownStorage } from './own-database.js';

/**
 * A transparency log suite's service, on a database of its own (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL: its leaves are only its own) and with a folder of its own; checkpoints only
 * when a test asks (checkpointNow), besides the one at start. `settings` may start what the app
 * needs first (a witness); `teardown` runs after the app is closed.
 */
export function logSuite(name: string, settings: (dir: string) => Promise<Partial<Config>> = async () => ({}), teardown: () => Promise<void> = async () => {}) {
  let t: TestApp;
  let storage: Awaited<ReturnType<typeof ownStorage>>;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `${name}-`));
    const extra = await settings(dir);
    storage = await ownStorage(name);
    t = await startApp({ ...storage.settings, logCheckpointMs: 3_600_000, ...extra });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await teardown();
    await storage?.drop();
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
  return {
    app: () => t,
    dir: () => dir,
    http: () => request(t.app.getHttpServer()),
    log: () => t.app.get(TransparencyLog),
    sql: (query: string, ...args: unknown[]) => t.app.get(DatabaseService).prisma.$executeRawUnsafe(query, ...args),
    rows: <T>(query: string, ...args: unknown[]) => t.app.get(DatabaseService).prisma.$queryRawUnsafe<T[]>(query, ...args),
  };
}
