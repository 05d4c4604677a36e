import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PGlite } from '@electric-sql/pglite';
import { PrismaClient } from '../generated/prisma/client.js';
import { CONFIG, type Config } from '../config/config.js';
import { DataDirLock, HEARTBEAT_MS } from './data-dir-lock.js';
import { reach } from './connect-failures.js';
import { closeFiles, freeBytes, makeFolders, prepareDataDir } from './data-folder.js';
import { applyMigrations } from './migrate.js';
import { PGliteBridge } from './pglite-bridge.js';
import { createDatabase, isNewDatabase, START_PARAMS } from './pglite-create.js';
import { describeFailure, isStorageError } from './storage-errors.js';
import { projectRoot } from '../config/project-root.js';

/** The project folder (where package.json is), from src/ under ts-jest or dist/src/ when built. */
const MIGRATIONS_DIR = resolve(projectRoot(import.meta.dirname), 'prisma/migrations');

const MB = 1024 * 1024;

/** Why the service is not ready: short and stable (never the database's own text, nor a path). */
export type NotReadyReason = 'STORAGE_UNAVAILABLE' | 'DATABASE_UNAVAILABLE' | 'MIGRATIONS_PENDING';
export type Readiness = { ready: true } | { ready: false; reason: NotReadyReason };

export interface DatabaseOptions {
  /**
   * Embedded database: free bytes kept on its disk; under this, writes are refused
   * (STORAGE_UNAVAILABLE) and reads go on. PGlite needs room for a whole 16 MB WAL segment: running
   * out of space inside the WAL is a PANIC that only a restart (with space freed) recovers from.
   */
  storageReserveBytes?: number;
  /** Embedded database: how often the holder refreshes its lock file and checks that it still names it (must stay well under FOREIGN_STALE_MS). */
  lockCheckMs?: number;
  /** PostgreSQL: how long to keep trying to reach an unreachable database at start-up. */
  connectTimeoutMs?: number;
  /** Seconds /readyz stays STORAGE_UNAVAILABLE after PostgreSQL reported a storage failure. */
  storageErrorWindowMs?: number;
}

const DEFAULTS: Required<DatabaseOptions> = { storageReserveBytes: 64 * MB, lockCheckMs: HEARTBEAT_MS, connectTimeoutMs: 30_000, storageErrorWindowMs: 30_000 };

/**
 * Owns the database connection. With DATABASE_URL it talks to that PostgreSQL (retrying for a
 * while if it is not reachable at start-up); without, it opens an embedded PGlite database in
 * DATA_DIR/pglite:
 *
 * - the folder is locked (DATA_DIR/arbiter.lock): a second process on it exits at once;
 * - nothing listens: pg connects to PGlite in process (PGliteBridge), so no other process can
 *   reach the database, and Prisma and the event store use the same pg pool as on PostgreSQL;
 * - the pool has ONE connection and the bridge gives PGlite (a single session) to one
 *   connection's exchange or transaction at a time: statements never interleave;
 * - a disk nearly full makes the database refuse writes (reads go on) instead of failing in the
 *   middle of writing its WAL.
 *
 * Durability on PGlite: a statement's WAL is written to the operating system before its answer
 * (a commit is acknowledged only then), so an acknowledged move survives the process being
 * killed; PGlite runs PostgreSQL with fsync off and its Node file system cannot fsync, so it does
 * not survive a crash of the machine or a power cut. Use PostgreSQL for that.
 */
@Injectable()
export class DatabaseService implements OnModuleDestroy {
  private readonly logger = new Logger('Database');
  prisma!: PrismaClient;
  /** The pool under Prisma's adapter, for the one statement on the move path (see EventStore.append). */
  pool!: pg.Pool;
  /** Which database, for the logs (holds the data folder's path: not for HTTP answers). */
  description = '';
  private pglite: PGlite | null = null;
  private bridge: PGliteBridge | null = null;
  private lock: DataDirLock | null = null;
  private latestMigration: string | null = null;
  private lastStorageErrorAt = 0;
  private closed = false;
  private readonly options: Required<DatabaseOptions>;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    options: DatabaseOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** `pglite` (embedded) or `postgresql`. */
  get kind(): 'pglite' | 'postgresql' {
    return this.config.databaseUrl ? 'postgresql' : 'pglite';
  }

  async connect(): Promise<void> {
    const started = performance.now();
    try {
      if (this.config.databaseUrl) await this.openPostgres(this.config.databaseUrl);
      else await this.openEmbedded();
    } catch (err) {
      await this.abandon();
      throw err;
    }
    this.logger.log(`connected to ${this.description} in ${Math.round(performance.now() - started)} ms`);
  }

  private async openEmbedded(): Promise<void> {
    const dataDir = resolve(this.config.dataDir);
    const dir = join(dataDir, 'pglite');
    this.description = `pglite ${dir}`;
    prepareDataDir(dataDir);
    this.lock = await DataDirLock.acquire(dataDir, {
      onStale: (holder) =>
        this.logger.warn(
          holder
            ? `DATA_DIR ${dataDir}: taking over the lock of pid ${holder.pid}, which no longer runs (it stopped without closing the database)`
            : `DATA_DIR ${dataDir}: taking over a damaged lock file that names no process (no process on this machine holds the folder)`,
        ),
      onLost: (holder) => {
        const by = holder ? `pid ${holder.pid} on ${holder.host}` : 'a process that wrote a damaged lock file';
        this.logger.error(`DATA_DIR ${dataDir}: the lock now names ${by}: this process stops writing (every statement is refused); restart it once the folder is its own again`);
        this.bridge?.stop(`another process (${by}) took over its data folder`);
      },
      checkMs: this.options.lockCheckMs,
    });
    // Owner-only: the database holds every game's secret seed.
    makeFolders(dir);
    chmodSync(dir, 0o700);
    // PostgreSQL's own lock file. With our lock held it can only be left over from a process that
    // died, possibly half-written on a full disk, and PostgreSQL refuses to start on an empty one.
    rmSync(join(dir, 'postmaster.pid'), { force: true });
    const free = freeBytes(dir);
    if (free !== null && free < this.options.storageReserveBytes) {
      this.logger.warn(`DATA_DIR ${dataDir}: only ${Math.floor(free / MB)} MB free on its disk; the database refuses writes under ${Math.floor(this.options.storageReserveBytes / MB)} MB`);
    }

    // PostgreSQL's last complaints, to say why a start failed (PGlite only says "failed to initialize properly").
    const said: string[] = [];
    let engine: PGlite | null = null;
    try {
      if (isNewDatabase(dir)) {
        const pid = await createDatabase(dir).catch((err: Error) => {
          said.push(err.message);
          throw err;
        });
        this.logger.log(`created a new database in ${dir}, in a process of its own (pid ${pid}, exited)`);
      }
      engine = new PGlite(dir, {
        // No effect on Node's file system (it has nothing to sync): stated for the reader.
        relaxedDurability: false,
        startParams: [...START_PARAMS],
        onStderr: (line: string) => {
          if (/\b(PANIC|FATAL|ERROR):/.test(line)) said.push(line);
          if (said.length > 4) said.shift();
          return false;
        },
      });
      await engine.waitReady;
    } catch (err) {
      if (engine) await closeFiles(engine);
      const last = said.at(-1)?.replace(/^.*?\b(PANIC|FATAL|ERROR):\s*/, '$1: ');
      const storage = isStorageError(err) || (last !== undefined && isStorageError({ message: last }));
      throw new Error(
        `the embedded database in ${dir} could not start: ${last ?? describeFailure(err)}` +
          (storage
            ? `. Its disk is full: free at least ${Math.ceil(Math.max(this.options.storageReserveBytes, DEFAULTS.storageReserveBytes) / MB)} MB there, then start again (nothing stored is lost).`
            : ''),
      );
    }
    this.pglite = engine;

    this.bridge = new PGliteBridge(this.pglite, {
      dataDir: dir,
      reserveBytes: this.options.storageReserveBytes,
      log: { log: (m) => this.logger.log(m), warn: (m) => this.logger.warn(m), error: (m) => this.logger.error(m) },
    });
    const client = new pg.Client(this.clientConfig());
    await client.connect();
    await this.migrate(client);
    this.bridge.enableStorageGuard();
    await this.bridge.checkStorage();
    // One connection: PGlite is one session, and a transaction must have it to itself.
    this.pool = new pg.Pool({ ...this.clientConfig(), max: 1, idleTimeoutMillis: 0, Client: this.observedClient() });
    // With one connection, a seat join's transaction may wait for it behind a few large imports
    // (maxWait); once it has begun, its statements go first, so its own timeout stays short: a
    // transaction holds the whole database while it runs.
    this.prisma = new PrismaClient({ adapter: new PrismaPg(this.pool), transactionOptions: { maxWait: 60_000, timeout: 10_000 } });
    await this.prisma.$connect();
  }

  private async openPostgres(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('DATABASE_URL is not a valid URL; expected postgresql://user:pass@host:5432/db');
    }
    const where = `${parsed.hostname || parsed.searchParams.get('host') || 'localhost'}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
    this.description = `postgresql ${where}${this.config.databaseListenUrl ? ' (pooled; listening directly)' : ''}`;
    // Behind a transaction-mode pooler, the migrations' advisory lock needs the direct session.
    await this.migrate(await reach(this.config.databaseListenUrl ?? url, where, this.options.connectTimeoutMs, this.logger));
    this.pool = new pg.Pool({ connectionString: url, max: this.config.databasePoolSize, Client: this.observedClient() });
    // An idle connection that breaks (the database restarted, the network cut) is dropped from the
    // pool and replaced on next use; unhandled, its error would end the process.
    this.pool.on('error', (err) => this.logger.warn(`a database connection broke while idle: ${err.message}`));
    this.prisma = new PrismaClient({ adapter: new PrismaPg(this.pool) });
    await this.prisma.$connect();
  }

  /**
   * How to open one more pg connection to this database (tools, tests): on PGlite an in-process
   * stream through the bridge, which queues it behind the pool's exchanges and transactions.
   */
  clientConfig(): pg.ClientConfig {
    const bridge = this.bridge;
    if (bridge) return { user: 'postgres', database: 'postgres', host: 'embedded', stream: () => bridge.connect() };
    return { connectionString: this.config.databaseUrl ?? undefined };
  }

  /** The connection that LISTENs: a session of its own, direct to PostgreSQL when DATABASE_URL is pooled. */
  listenConfig(): pg.ClientConfig {
    return this.config.databaseListenUrl ? { connectionString: this.config.databaseListenUrl } : this.clientConfig();
  }

  private async migrate(client: pg.Client): Promise<void> {
    try {
      const report = await applyMigrations(client, MIGRATIONS_DIR);
      this.logger.log(`migrations applied=${report.applied.length} alreadyApplied=${report.alreadyApplied}`);
      this.latestMigration =
        readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
          .filter((d) => d.isDirectory() && existsSync(join(MIGRATIONS_DIR, d.name, 'migration.sql')))
          .map((d) => d.name)
          .sort()
          .at(-1) ?? null;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** A pg Client that reports every failed statement's error to noteError (for readiness). */
  private observedClient(): typeof pg.Client {
    const note = (err: unknown) => this.noteError(err);
    const broke = (err: Error) => this.logger.warn(`a database connection in use broke: ${err.message}`);
    const query = pg.Client.prototype.query as unknown as (...args: unknown[]) => unknown;
    return class ObservedClient extends pg.Client {
      constructor(config?: string | pg.ClientConfig) {
        super(config);
        // A connection the server ends while it is checked out between two statements (a
        // failover, a restart) emits 'error' with no one listening, which would end the process.
        // Heard here, its next statement fails instead (STORAGE_UNAVAILABLE) and the pool drops it.
        this.on('error', broke);
      }

      // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this forwards them all.
      override query(...args: any[]): any {
        const last = args.at(-1);
        if (typeof last === 'function') {
          args[args.length - 1] = (err: unknown, res: unknown) => {
            if (err) note(err);
            last(err, res);
          };
          return query.apply(this, args);
        }
        const result = query.apply(this, args) as { then?: (ok: unknown, fail: (err: unknown) => void) => unknown } | undefined;
        if (typeof result?.then === 'function') result.then(undefined, note);
        return result;
      }
    };
  }

  private noteError(err: unknown): void {
    // The embedded database's own refusals while its disk is nearly full are reported by the bridge.
    if (!isStorageError(err) || this.bridge?.storageLow) return;
    if (Date.now() - this.lastStorageErrorAt > this.options.storageErrorWindowMs) {
      this.logger.error(`the database failed to store: out of disk space or a storage failure (${(err as Error)?.message ?? String(err)})`);
    }
    this.lastStorageErrorAt = Date.now();
  }

  /** Whether `err` is a failure to store (disk full, ...): the API answers STORAGE_UNAVAILABLE. */
  isStorageError(err: unknown): boolean {
    return isStorageError(err);
  }

  /** Alive: false only when the embedded database failed and nothing but a restart recovers it. */
  get failed(): boolean {
    return this.bridge?.dead != null;
  }

  /**
   * Ready: the database answers, the latest migration is applied, and it can store (the embedded
   * database's disk is not nearly full, PostgreSQL reported no storage failure lately). A database
   * that does not answer within `timeoutMs` (a failover in progress: HAProxy holds the connection
   * while no node is primary) is DATABASE_UNAVAILABLE: a load balancer's check gets its 503 in
   * time instead of giving up on an instance that says nothing.
   */
  async readiness(timeoutMs = 2000): Promise<Readiness> {
    const not = (reason: NotReadyReason): Readiness => ({ ready: false, reason });
    if (this.closed || !this.pool) return not('DATABASE_UNAVAILABLE');
    if (this.bridge) {
      if (this.bridge.dead) return not(this.bridge.dead.storage ? 'STORAGE_UNAVAILABLE' : 'DATABASE_UNAVAILABLE');
      await this.bridge.checkStorage();
      if (this.bridge.storageLow) return not('STORAGE_UNAVAILABLE');
    }
    if (Date.now() - this.lastStorageErrorAt < this.options.storageErrorWindowMs) return not('STORAGE_UNAVAILABLE');
    try {
      return (await this.migrationApplied(timeoutMs)) ? { ready: true } : not('MIGRATIONS_PENDING');
    } catch (err) {
      return not(isStorageError(err) ? 'STORAGE_UNAVAILABLE' : 'DATABASE_UNAVAILABLE');
    }
  }

  /**
   * Whether the latest migration is applied, asked on a pool connection, all within `timeoutMs`
   * (else it throws). Given up, it leaves nothing behind: a connection that comes later is handed
   * back unused (a check per probe would otherwise queue up behind an outage, then take the pool
   * when it ends), and one whose statement did not answer is discarded, not reused (it may be dead).
   */
  private async migrationApplied(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('readiness check timed out')), timeoutMs)));
    const checkout = this.pool.connect();
    try {
      const client = await Promise.race([checkout, late]).catch((err: unknown) => {
        checkout.then(
          (c) => c.release(),
          () => undefined,
        );
        throw err;
      });
      try {
        const check = client.query<{ ok: boolean }>(`SELECT EXISTS (SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL) AS ok`, [
          this.latestMigration,
        ]);
        const { rows } = await Promise.race([check, late]);
        client.release();
        return rows[0]?.ok === true;
      } catch (err) {
        client.release(true);
        throw err;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** The embedded database's free-space guard (tests move the reserve to simulate a full disk). */
  get storageReserveBytes(): number {
    return this.bridge?.reserveBytes ?? this.options.storageReserveBytes;
  }

  set storageReserveBytes(bytes: number) {
    this.options.storageReserveBytes = bytes;
    if (this.bridge) this.bridge.reserveBytes = bytes;
  }

  /**
   * A statement name for pg's prepared-statement cache, or undefined on PGlite: a new pool
   * connection there meets statements an earlier one prepared in the same single session.
   * PostgreSQL keeps 63 characters of a name (pg warns on stderr past them, and two names alike
   * up to there would clash): a longer one ends in a hash of the whole instead. Undefined too
   * behind a transaction-mode pooler (DATABASE_LISTEN_URL set): the next transaction may run on
   * a server connection that never prepared the name.
   */
  statementName(name: string): string | undefined {
    if (this.pglite || this.config.databaseListenUrl) return undefined;
    return name.length <= 63 ? name : `${name.slice(0, 46)}-${createHash('sha256').update(name).digest('hex').slice(0, 16)}`;
  }

  /**
   * A copy of the embedded database's files (a tar, PGlite's dumpDataDir) taken between two
   * transactions: it holds every commit acknowledged before, and opens as after a crash would.
   */
  async snapshot(): Promise<Uint8Array> {
    const { bridge, pglite } = this;
    if (!bridge || !pglite) throw new Error('only the embedded database is copied by the service; back PostgreSQL up with pg_dump');
    if (bridge.dead) throw new Error('the embedded database failed; restart the service');
    return bridge.between(async () => new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.prisma?.$disconnect();
    await this.pool?.end();
    await this.abandon();
    this.logger.log('database closed');
  }

  /** Closes the embedded engine (unless it failed: it would never answer) and releases the folder. */
  private async abandon(): Promise<void> {
    try {
      if (this.bridge) {
        await this.bridge.whenIdle();
        this.bridge.close();
      }
      // A failed engine would never answer its shutdown: only its files are closed.
      if (this.pglite && this.bridge?.dead) await closeFiles(this.pglite);
      else if (this.pglite && !this.pglite.closed) await this.pglite.close();
    } finally {
      this.lock?.release();
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }
}
