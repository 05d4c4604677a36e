import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect, type Server } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Logger, type LoggerService } from '@nestjs/common';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.js';
import { DataDirLockedError, readHolder } from '../../src/database/data-dir-lock.js';
import { DatabaseService, type DatabaseOptions } from '../../src/database/database.service.js';
import { isStorageError, isUnavailable } from '../../src/database/storage-errors.js';
import { fillDisk, suiteTmpfs } from '../support/tmpfs.js';

/**
 * DatabaseService on its own: the data folder's lock, the in-process bridge to PGlite (one
 * session, never interleaved), the free-space guard and a real full disk, start-up against an
 * unreachable PostgreSQL. The bridge tests are PGlite's; the others run on the database under
 * test where they apply (PostgreSQL with TEST_DATABASE_URL). No assertion depends on timing: an
 * order is checked by events (a query that has not answered yet), never by a clock.
 */

const pgUrl = process.env.TEST_DATABASE_URL || null;
const logged: string[] = [];
const capture: LoggerService = {
  log: (m) => logged.push(`log ${m}`),
  warn: (m) => logged.push(`warn ${m}`),
  error: (m) => logged.push(`error ${m}`),
  debug: () => undefined,
  verbose: () => undefined,
};
const dirs: string[] = [];
const open: DatabaseService[] = [];

beforeAll(() => Logger.overrideLogger(capture));
afterAll(async () => {
  for (const db of open) await db.close().catch(() => undefined);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `arbiter-${label}-`));
  dirs.push(dir);
  return dir;
}

async function embedded(dataDir: string, options?: DatabaseOptions): Promise<DatabaseService> {
  const db = new DatabaseService({ ...loadConfig({ LOG_LEVEL: 'error' }), databaseUrl: null, dataDir }, options);
  await db.connect();
  open.push(db);
  return db;
}

/** Resolves once `done` holds, looking every 10 ms (the lock is checked on a timer of its own). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
}

/** A pid that ran and no longer runs. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the data folder lock (embedded)', () => {
  it('refuses a second DatabaseService on the same folder, naming the folder and the holder, and leaves the first working', async () => {
    const dir = tempDir('lock');
    const first = await embedded(dir);
    const second = new DatabaseService({ ...loadConfig({}), databaseUrl: null, dataDir: dir });
    const err = await second.connect().then(
      () => null,
      (e) => e,
    );
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect(err.message).toContain(`DATA_DIR ${resolve(dir)} is in use by another Arbiter process (pid ${process.pid} on ${hostname()}`);
    expect((await first.pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    await first.close();
    expect(readHolder(join(dir, 'arbiter.lock'))).toBeNull();
  });

  it('takes over a stale lock (its pid no longer runs) and says so', async () => {
    const dir = tempDir('stale');
    const pid = deadPid();
    symlinkSync(`arbiter:${pid}:-:${Date.now()}:${hostname()}`, join(dir, 'arbiter.lock'));
    logged.length = 0;
    const db = await embedded(dir);
    expect(logged.some((l) => l.startsWith('warn') && l.includes(`taking over the lock of pid ${pid}, which no longer runs`))).toBe(true);
    expect(readHolder(join(dir, 'arbiter.lock'))?.pid).toBe(process.pid);
    await db.close();
  });

  it('takes over a damaged lock file that names no process: no process on this machine holds the folder', async () => {
    const dir = tempDir('garbled');
    writeFileSync(join(dir, 'arbiter.lock'), '');
    logged.length = 0;
    const db = await embedded(dir);
    expect(logged.some((l) => l.startsWith('warn') && l.includes('taking over a damaged lock file'))).toBe(true);
    expect(readHolder(join(dir, 'arbiter.lock'))?.pid).toBe(process.pid);
    await db.close();
  });

  it('refuses a second DatabaseService even when the lock file was deleted, never inviting anyone to delete it, and writes the file back', async () => {
    const dir = tempDir('deleted');
    const first = await embedded(dir, { lockCheckMs: 20 });
    unlinkSync(join(dir, 'arbiter.lock'));
    const second = new DatabaseService({ ...loadConfig({}), databaseUrl: null, dataDir: dir });
    const err = await second.connect().then(
      () => null,
      (e) => e,
    );
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect(err.message).toContain(`DATA_DIR ${resolve(dir)} is in use by another Arbiter process`);
    expect(err.message).not.toMatch(/\bdelete\b/i);
    await until(() => readHolder(join(dir, 'arbiter.lock'))?.pid === process.pid);
    expect((await first.pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    await first.close();
  });

  it('stops writing once its lock file names another process: every statement is refused as a storage failure, nothing more is stored', async () => {
    const dir = tempDir('lost');
    const db = await embedded(dir, { lockCheckMs: 20 });
    await db.pool.query('CREATE TABLE lost_test (n int)');
    logged.length = 0;
    unlinkSync(join(dir, 'arbiter.lock'));
    symlinkSync(`arbiter:4242:-:${Date.now()}:another-host`, join(dir, 'arbiter.lock'));
    await until(() => db.failed);
    expect(logged.some((l) => l.startsWith('error') && l.includes('the lock now names pid 4242 on another-host: this process stops writing'))).toBe(true);
    const refused = await db.pool.query('INSERT INTO lost_test VALUES (1)').then(
      () => null,
      (e) => e,
    );
    expect(db.isStorageError(refused)).toBe(true);
    expect(refused.message).toContain('another process (pid 4242 on another-host) took over its data folder');
    // Its lock file is the other process's: left as it is.
    expect(readHolder(join(dir, 'arbiter.lock'))?.pid).toBe(4242);
  });

  it('names DATA_DIR when it cannot be used', async () => {
    const file = join(tempDir('file'), 'not-a-folder');
    writeFileSync(file, 'x');
    const db = new DatabaseService({ ...loadConfig({}), databaseUrl: null, dataDir: file });
    await expect(db.connect()).rejects.toThrow(/^DATA_DIR .*not-a-folder (is not a folder|cannot be created)/);
  });
});

(pgUrl ? describe.skip : describe)('one PGlite session, shared in turn (embedded)', () => {
  let db: DatabaseService;
  const clients: pg.Client[] = [];
  const client = async () => {
    const c = new pg.Client(db.clientConfig());
    await c.connect();
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    db = await embedded(tempDir('bridge'));
    await db.pool.query('CREATE TABLE bridge_test (id serial PRIMARY KEY, who text NOT NULL)');
  });
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
  });

  it("gives the session to one connection's transaction until it ends: another connection's statement waits, then sees the commit", async () => {
    const a = await client();
    const b = await client();
    await a.query('BEGIN');
    await a.query('INSERT INTO bridge_test (who) VALUES ($1)', ['a-tx']);
    let answered = false;
    const read = b.query<{ n: string }>(`SELECT count(*) AS n FROM bridge_test WHERE who = 'a-tx'`).then((r) => {
      answered = true;
      return r;
    });
    // a's next round trip goes first: b's statement is queued behind a's transaction.
    await a.query('SELECT 1');
    expect(answered).toBe(false);
    await a.query('COMMIT');
    expect((await read).rows[0].n).toBe('1');
  });

  it('rolls back the transaction of a connection that goes away, and lets the others go on', async () => {
    const a = await client();
    const b = await client();
    await a.query('BEGIN');
    await a.query('INSERT INTO bridge_test (who) VALUES ($1)', ['a-gone']);
    const read = b.query<{ n: string }>(`SELECT count(*) AS n FROM bridge_test WHERE who = 'a-gone'`);
    await a.end();
    expect((await read).rows[0].n).toBe('0');
    expect((await db.pool.query(`SELECT count(*) AS n FROM bridge_test WHERE who = 'a-gone'`)).rows[0].n).toBe('0');
  });

  it('never interleaves statements of several connections: many parameterised statements at once all answer right', async () => {
    const conns = [await client(), await client(), await client(), db.pool];
    // Each connection sends its statements one after another; the connections all at once.
    const runs = conns.map(async (c, n) => {
      const out: { got: number; want: number }[] = [];
      for (let i = n; i < 60; i += conns.length) {
        const values = Array.from({ length: 1 + (i % 14) }, (_, k) => i * 100 + k);
        const sql = `SELECT ${values.map((_, k) => `$${k + 1}::int`).join(' + ')} AS total`;
        const r = await c.query<{ total: number }>(sql, values);
        out.push({ got: r.rows[0].total, want: values.reduce((x, y) => x + y, 0) });
      }
      return out;
    });
    const results = (await Promise.all(runs)).flat();
    expect(results.filter((r) => r.got !== r.want)).toEqual([]);
  });

  it('runs Prisma interactive transactions on the one pooled connection alongside plain statements', async () => {
    const work = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? db.prisma.$transaction(async (tx) => {
            await tx.$executeRawUnsafe('INSERT INTO bridge_test (who) VALUES ($1)', `tx-${i}`);
            const rows = await tx.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM bridge_test WHERE who = $1`, `tx-${i}`);
            return Number(rows[0].n);
          })
        : db.pool.query('INSERT INTO bridge_test (who) VALUES ($1)', [`plain-${i}`]).then(() => 1),
    );
    expect(await Promise.all(work)).toEqual(Array(10).fill(1));
  });
});

describe(`readiness and storage (${pgUrl ? 'postgresql' : 'pglite'})`, () => {
  let db: DatabaseService;
  beforeAll(async () => {
    if (pgUrl) {
      db = new DatabaseService({ ...loadConfig({}), databaseUrl: pgUrl });
      await db.connect();
      open.push(db);
    } else {
      db = await embedded(tempDir('ready'));
    }
  });

  it('is ready: reachable, migrated, able to store', async () => {
    logged.length = 0;
    expect(await db.readiness()).toEqual({ ready: true });
    expect(db.failed).toBe(false);
  });

  (pgUrl ? it.skip : it)('embedded: refuses writes as disk_full (53100) below the free-space reserve, keeps reading, and is ready again above it', async () => {
    await db.pool.query('CREATE TABLE IF NOT EXISTS guard_test (id serial PRIMARY KEY, body text)');
    const before = db.storageReserveBytes;
    try {
      db.storageReserveBytes = Number.MAX_SAFE_INTEGER;
      const err = await db.pool.query('INSERT INTO guard_test (body) VALUES ($1)', ['x']).then(
        () => null,
        (e) => e,
      );
      expect(err?.code).toBe('53100');
      expect(isStorageError(err)).toBe(true);
      // Through Prisma too (the API sees Prisma's wrapping).
      const viaPrisma = await db.prisma.$executeRawUnsafe('INSERT INTO guard_test (body) VALUES ($1)', 'y').then(
        () => null,
        (e) => e,
      );
      expect(db.isStorageError(viaPrisma)).toBe(true);
      expect((await db.pool.query('SELECT count(*) AS n FROM guard_test')).rows[0].n).toBe('0');
      expect(await db.readiness()).toEqual({ ready: false, reason: 'STORAGE_UNAVAILABLE' });
    } finally {
      db.storageReserveBytes = before;
    }
    expect(await db.readiness()).toEqual({ ready: true });
    await db.pool.query('INSERT INTO guard_test (body) VALUES ($1)', ['z']);
  });

  it('is not ready (STORAGE_UNAVAILABLE) for a while after the database reports a storage failure, seen through pg and through Prisma', async () => {
    // PostgreSQL's disk_full, raised on purpose: what a write on a full disk answers.
    const raise = `DO $$ BEGIN RAISE EXCEPTION 'simulated' USING ERRCODE = '53100'; END $$`;
    const viaPg = await db.pool.query(raise).then(
      () => null,
      (e) => e,
    );
    expect(viaPg?.code).toBe('53100');
    const viaPrisma = await db.prisma.$executeRawUnsafe(raise).then(
      () => null,
      (e) => e,
    );
    expect(viaPrisma).not.toBeNull();
    expect(db.isStorageError(viaPrisma)).toBe(true);
    expect(await db.readiness()).toEqual({ ready: false, reason: 'STORAGE_UNAVAILABLE' });
    expect(logged.some((l) => l.startsWith('error') && l.includes('the database failed to store'))).toBe(true);
  });

  it('recognises storage failures, and nothing else, as storage errors', () => {
    expect(isStorageError(Object.assign(new Error('could not extend file "base/5/1": No space left on device'), { code: '53100' }))).toBe(true);
    expect(isStorageError(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe(true);
    expect(isStorageError({ meta: { driverAdapterError: { cause: { originalCode: '53100' } } } })).toBe(true);
    expect(isStorageError(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isStorageError(new Error('boom'))).toBe(false);
  });

  it('recognises a database out of reach (connection cut, refused, timed out) as unavailable, and a refusal of the query as not', () => {
    expect(isUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isUnavailable({ code: 'P1017', message: 'Server has closed the connection.' })).toBe(true);
    expect(isUnavailable({ cause: Object.assign(new Error('disk full'), { code: '53100' }) })).toBe(true);
    expect(isUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isStorageError(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(false);
  });
});

const tmpfs = suiteTmpfs(96, !pgUrl);

(tmpfs ? describe : describe.skip)('a real full disk (tmpfs, embedded, no free-space reserve)', () => {
  it('a write that cannot extend a table fails softly as disk_full: the database goes on and is ready once space is freed', async () => {
    const db = await embedded(join(tmpfs!, 'soft'), { storageReserveBytes: 0, storageErrorWindowMs: 0 });
    await db.pool.query('CREATE TABLE soft_test (id serial PRIMARY KEY, body text)');
    const filler = fillDisk(tmpfs!, 0);
    try {
      // A fresh table needs a new page, and there is no byte left for it.
      const err = await db.pool.query('INSERT INTO soft_test (body) VALUES ($1)', ['x']).then(
        () => null,
        (e) => e,
      );
      expect(err?.code).toBe('53100');
      expect(isStorageError(err)).toBe(true);
      expect(db.failed).toBe(false);
      expect((await db.pool.query('SELECT count(*) AS n FROM soft_test')).rows[0].n).toBe('0');
    } finally {
      rmSync(filler);
    }
    await db.pool.query('INSERT INTO soft_test (body) VALUES ($1)', ['y']);
    expect(await db.readiness()).toEqual({ ready: true });
    await db.close();
  });

  it('a new data folder on a full disk: the start fails saying the disk is full, naming the folder', async () => {
    const filler = fillDisk(tmpfs!, 0);
    try {
      const err = await embedded(join(tmpfs!, 'new'), { storageReserveBytes: 0 }).then(
        (d) => d.close().then(() => null),
        (e: Error) => e,
      );
      expect(err?.message).not.toContain('[object Object]');
      expect(err?.message).toMatch(/Its disk is full: free at least \d+ MB/);
    } finally {
      rmSync(filler);
    }
  }, 120_000);

  it('a WAL that cannot grow is a PANIC: the engine is marked failed, every statement is refused at once (none hangs), and the folder opens again with every acknowledged row once space is freed', async () => {
    const dataDir = join(tmpfs!, 'hard');
    const db = await embedded(dataDir, { storageReserveBytes: 0 });
    await db.pool.query('CREATE TABLE hard_test (id serial PRIMARY KEY, body text)');
    for (let i = 0; i < 20; i++) await db.pool.query('INSERT INTO hard_test (body) VALUES ($1)', [`row ${i}`]);
    // Less than a WAL segment (16 MB) left; WAL-only records (no table grows) until a new segment is needed.
    const filler = fillDisk(tmpfs!, 8);
    let failure: { code?: string; severity?: string } | null = null;
    for (let i = 0; i < 64 && !failure; i++) {
      await db.pool.query(`SELECT pg_logical_emit_message(true, 'arbiter-test', repeat('x', 1048576))`).catch((err) => (failure = err));
    }
    expect(failure).toMatchObject({ code: '53100', severity: 'PANIC' });
    expect(db.failed).toBe(true);
    expect(await db.readiness()).toEqual({ ready: false, reason: 'STORAGE_UNAVAILABLE' });
    const refused = await db.pool.query('SELECT count(*) FROM hard_test').then(
      () => null,
      (e) => e,
    );
    expect(refused?.code).toBe('53100');
    expect(refused?.message).toMatch(/restart the service once space is freed/);
    await db.close();

    // Opened again while the disk is still full: it opens, or fails saying why (never "PGlite failed to initialize properly").
    const whileFull = await embedded(dataDir, { storageReserveBytes: 0 }).then(
      (d) => d.close().then(() => null),
      (err: Error) => err,
    );
    if (whileFull) expect(whileFull.message).toMatch(/could not start: (FATAL|PANIC): .*No space left on device.*Its disk is full: free at least \d+ MB/);

    rmSync(filler);
    const again = await embedded(dataDir, { storageReserveBytes: 0 });
    expect((await again.pool.query('SELECT count(*) AS n FROM hard_test')).rows[0].n).toBe('20');
    expect(await again.readiness()).toEqual({ ready: true });
    await again.close();
  }, 240_000);
});

describe('start-up against PostgreSQL', () => {
  /** A port nothing listens on (taken and released). */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    await new Promise<void>((r) => server.close(() => r()));
    return typeof address === 'object' && address ? address.port : 0;
  }

  it('retries an unreachable database with backoff, logging each attempt, then gives up naming DATABASE_URL (and no password)', async () => {
    const port = await closedPort();
    logged.length = 0;
    const db = new DatabaseService({ ...loadConfig({}), databaseUrl: `postgresql://arbiter:s3cret@127.0.0.1:${port}/nowhere` }, { connectTimeoutMs: 3000 });
    const err: Error = await db.connect().then(
      () => {
        throw new Error('connected to nothing');
      },
      (e) => e,
    );
    expect(err.message).toMatch(new RegExp(`^DATABASE_URL: the database at 127\\.0\\.0\\.1:${port}/nowhere could not be reached within 3 s \\((\\d+) attempts; last: .*ECONNREFUSED`));
    expect(err.message).not.toContain('s3cret');
    const attempts = logged.filter((l) => l.startsWith('warn') && l.includes('not reachable'));
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    expect(attempts[0]).toContain('attempt 1');
  });

  (pgUrl ? it : it.skip)('connects once a database that was unreachable at start-up comes up', async () => {
    const target = new URL(pgUrl!);
    const port = await closedPort();
    const url = new URL(pgUrl!);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    logged.length = 0;
    const db = new DatabaseService({ ...loadConfig({}), databaseUrl: url.toString() }, { connectTimeoutMs: 120_000 });
    const connecting = db.connect();
    // Once the first attempt has failed, the database "comes up": a proxy to it on that port.
    while (!logged.some((l) => l.includes('not reachable (attempt 1'))) await new Promise((r) => setTimeout(r, 50));
    const proxy: Server = createServer((socket) => {
      const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((r) => proxy.listen(port, '127.0.0.1', r));
    try {
      await connecting;
      open.push(db);
      expect(await db.readiness()).toEqual({ ready: true });
      await db.close();
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  });

  (pgUrl ? it : it.skip)('fails at once, naming DATABASE_URL, when the database refuses (no such database)', async () => {
    const url = new URL(pgUrl!);
    url.pathname = '/arbiter_no_such_database';
    const db = new DatabaseService({ ...loadConfig({}), databaseUrl: url.toString() }, { connectTimeoutMs: 120_000 });
    await expect(db.connect()).rejects.toThrow(/^DATABASE_URL: the database at .*\/arbiter_no_such_database refused the connection: .*does not exist/);
  });
});
