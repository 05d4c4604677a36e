import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PrismaClient } from '../generated/prisma/client.js';
import { CONFIG, type Config } from '../config/config.js';
import { applyMigrations } from './migrate.js';

/** The project folder (where package.json is), from src/ under ts-jest or dist/src/ when built. */
function projectRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) if (existsSync(resolve(dir, 'package.json'))) return dir;
  throw new Error(`no package.json above ${from}`);
}
const MIGRATIONS_DIR = resolve(projectRoot(import.meta.dirname), 'prisma/migrations');

/**
 * Owns the database connection. With DATABASE_URL it talks to that PostgreSQL; without, it
 * starts an embedded PGlite database in DATA_DIR, served on a loopback port, so the same
 * adapter, SQL and migration runner serve both.
 */
@Injectable()
export class DatabaseService implements OnModuleDestroy {
  private readonly logger = new Logger('Database');
  prisma!: PrismaClient;
  /** The pool under Prisma's adapter, for the one statement on the move path (see EventStore.append). */
  pool!: pg.Pool;
  description = '';
  private pglite: PGlite | null = null;
  private socketServer: PGLiteSocketServer | null = null;
  private closed = false;

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  async connect(): Promise<void> {
    const started = performance.now();
    let url = this.config.databaseUrl;
    if (!url) {
      const dir = resolve(this.config.dataDir, 'pglite');
      mkdirSync(resolve(this.config.dataDir), { recursive: true });
      this.pglite = await PGlite.create(dir);
      this.socketServer = new PGLiteSocketServer({ db: this.pglite, host: '127.0.0.1', port: 0, maxConnections: 64 });
      await this.socketServer.start();
      url = `postgresql://postgres@${this.socketServer.getServerConn()}/postgres`;
      this.description = `pglite ${dir}`;
    } else {
      this.description = `postgresql ${new URL(url).host}${new URL(url).pathname}`;
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const report = await applyMigrations(client, MIGRATIONS_DIR);
      this.logger.log(`migrations applied=${report.applied.length} alreadyApplied=${report.alreadyApplied}`);
    } finally {
      await client.end();
    }
    // The embedded database is single-session underneath; a few connections are enough to queue on.
    const max = this.pglite ? 8 : this.config.databasePoolSize;
    this.pool = new pg.Pool({ connectionString: url, max });
    this.prisma = new PrismaClient({ adapter: new PrismaPg(this.pool) });
    await this.prisma.$connect();
    this.logger.log(`connected to ${this.description} in ${Math.round(performance.now() - started)} ms`);
  }

  /**
   * A statement name for pg's prepared-statement cache, or undefined on PGlite: there every
   * connection shares one session underneath, so per-connection statement names would collide.
   */
  statementName(name: string): string | undefined {
    return this.pglite ? undefined : name;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.prisma?.$disconnect();
    await this.pool?.end();
    await this.socketServer?.stop();
    await this.pglite?.close();
    this.logger.log('database closed');
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }
}
