import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { CONFIG, type Config } from '../config/config.js';
import { backupSocketPath, dataFolderTar } from '../database/data-archive.js';
import { makeFolders } from '../database/data-folder.js';
import { DatabaseService } from '../database/database.service.js';
import { KEY_FILE } from '../transparency/index.js';

const MB = 1024 * 1024;

/**
 * Online backups of the embedded database (`npm run backup -- <file>`, docs/high-availability.md):
 * the service holds PGlite in its own process, so the copy is taken there, on request, between
 * two transactions. The request comes over HTTP on a Unix socket, DATA_DIR/admin/backup.sock, in a
 * folder only the service's user may enter: the operator's credential is that user's access to
 * the data folder, the same access a copy of the stopped folder needs; nothing listens on a port.
 * Not opened on PostgreSQL (pg_dump backs it up) nor by the commands that only read.
 */
@Injectable()
export class BackupSocket implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Backup');
  private server: Server | null = null;
  private path = '';

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly db: DatabaseService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.db.kind !== 'pglite' || !this.config.backgroundWork) return;
    this.path = backupSocketPath(this.config.dataDir);
    makeFolders(dirname(this.path));
    chmodSync(dirname(this.path), 0o700);
    // Left by a process that was killed: this one holds the data folder's lock, no other answers here.
    rmSync(this.path, { force: true });
    this.server = createServer((req, res) => void this.answer(req, res));
    this.server.on('error', (err) => this.logger.warn(`online backups are off: ${this.path}: ${err.message}`));
    this.server.listen(this.path);
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' || req.url !== '/backup') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'only GET /backup is answered here' }));
      return;
    }
    try {
      const started = performance.now();
      const database = await this.db.snapshot();
      const held = Math.round(performance.now() - started);
      const key = join(resolve(this.config.dataDir), KEY_FILE);
      const files = existsSync(key) ? [{ name: KEY_FILE, data: readFileSync(key) }] : [];
      const body = await promisify(gzip)(dataFolderTar(database, files));
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length }).end(body);
      this.logger.log(
        `backup sent: ${(body.length / MB).toFixed(1)} MB (the database's ${(database.length / MB).toFixed(1)} MB copied within ${held} ms of the request; the database serves nothing else while it copies)`,
      );
    } catch (err) {
      this.logger.error(`backup failed: ${(err as Error).message}`);
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (err as Error).message }));
    }
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(this.path, { force: true });
  }
}
