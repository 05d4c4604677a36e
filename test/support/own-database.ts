import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../../src/config/config.js';

/**
 * A database of a suite's own on TEST_DATABASE_URL's server, created empty (the service migrates
 * it at start-up) and dropped by `drop`; null without TEST_DATABASE_URL (each app then has a fresh
 * embedded database anyway). For suites that must not meet other suites' games on the shared
 * database: the fuzz counts every game, and a clock moved days ahead by hand would time out other
 * suites' games and leave its own deadlines for their workers.
 */
export async function ownDatabase(name: string): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return null;
  const database = `arbiter_${name}_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${database}"`);
  const url = new URL(base);
  url.pathname = `/${database}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`) };
}

/**
 * A suite's own storage on either database: its own PostgreSQL database (ownDatabase) or a fresh
 * embedded one in a folder of its own; `settings` go to the suite's apps, `drop` removes it.
 */
export async function ownStorage(name: string): Promise<{ settings: Partial<Config>; drop(): Promise<void> }> {
  const database = await ownDatabase(name);
  if (database) return { settings: { databaseUrl: database.url }, drop: database.drop };
  const dataDir = mkdtempSync(join(tmpdir(), `arbiter-${name}-`));
  return { settings: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * A storage of its own (ownStorage) for each test of the calling suite, created before and
 * dropped after each one; read the settings inside the test. On a shared database other suites'
 * workers take this suite's due deadlines and webhook messages and this suite's take theirs: a
 * hand-moved clock makes theirs due here, and an instance allowing other webhook hosts claims
 * this suite's messages (refusing the destination, which breaks a count of attempts).
 */
export function ownStorageEach(name: string): () => Partial<Config> {
  let own: Awaited<ReturnType<typeof ownStorage>> | null = null;
  beforeEach(async () => {
    own = await ownStorage(name);
  });
  afterEach(async () => {
    await own?.drop();
  });
  return () => own!.settings;
}
