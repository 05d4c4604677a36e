import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';

/**
 * A new database for one bench run, connected and migrated as the service migrates it: on the
 * server of `postgresUrl`, a database made for the run (`arbiter_bench_<name>_<pid>`), else a new
 * embedded PGlite folder. `drop` closes it and removes it.
 */
export async function benchDatabase(name: string, postgresUrl: string | null): Promise<{ db: DatabaseService; drop(): Promise<void> }> {
  const dataDir = postgresUrl ? null : mkdtempSync(join(tmpdir(), `arbiter-${name}-`));
  const database = `arbiter_bench_${name}_${process.pid}`;
  const admin = postgresUrl ? new pg.Client({ connectionString: postgresUrl }) : null;
  let url: string | null = null;
  if (admin && postgresUrl) {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const u = new URL(postgresUrl);
    u.pathname = `/${database}`;
    url = u.toString();
  }
  const db = new DatabaseService({ ...loadConfig({ LOG_LEVEL: 'silent' }), databaseUrl: url, dataDir: dataDir ?? './data' });
  const drop = async () => {
    await db.close();
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await db.connect();
  } catch (err) {
    await drop();
    throw err;
  }
  return { db, drop };
}
