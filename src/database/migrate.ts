import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

/**
 * Applies prisma/migrations at start-up, bookkeeping in `_prisma_migrations` exactly as
 * `prisma migrate deploy` does (same table, sha256 checksum, advisory lock), so Prisma's own
 * tooling reads the same history. Each migration runs in one transaction: a failure leaves
 * neither its DDL nor its row.
 */
const LOCK_KEY = 72707369;

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
}

export async function applyMigrations(client: pg.Client, dir: string): Promise<MigrationReport> {
  if (!existsSync(dir)) throw new Error(`migrations folder not found: ${dir}`);
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort();
  await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const done = await client.query<{ migration_name: string; checksum: string }>(`SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`);
    const applied = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    const report: MigrationReport = { applied: [], alreadyApplied: 0 };
    for (const name of names) {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      if (applied.has(name)) {
        report.alreadyApplied++;
        if (applied.get(name) !== checksum) console.warn(`migration ${name} was edited after it was applied`);
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), checksum, name],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${name} failed: ${(err as Error).message}`);
      }
      report.applied.push(name);
    }
    return report;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
  }
}
