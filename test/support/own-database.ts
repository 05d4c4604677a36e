import pg from 'pg';

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
