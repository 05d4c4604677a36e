/**
 * `npm run backup -- <file>`: writes a consistent copy of the embedded database (DATA_DIR) while
 * the service runs on it (docs/high-availability.md, "Backups"). The running service takes the
 * copy between two transactions and sends it over its backup socket (DATA_DIR/admin/backup.sock,
 * reachable only by the service's user); this command writes it to `<file>` (a gzipped tar,
 * owner-only), never over an existing file. On PostgreSQL, pg_dump is the backup. Exits 0 once
 * written, 1 on a failure (no service answering, a copy cut short), 2 on a wrong use.
 */
import { createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { ConfigError, loadConfig } from '../config/config.js';
import { exitWith } from './exit-with.js';
import { backupSocketPath } from '../database/data-archive.js';

async function main(args: string[]): Promise<number> {
  const file = args[0];
  if (args.length !== 1 || file.startsWith('-')) {
    process.stderr.write('usage: npm run backup -- <file>   (the embedded database in DATA_DIR, while the service runs on it)\n');
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`configuration error: ${err.message}\n`);
    return 2;
  }
  if (config.databaseUrl) {
    process.stderr.write('DATABASE_URL is set: back PostgreSQL up with pg_dump (docs/high-availability.md, "Backups")\n');
    return 2;
  }
  if (existsSync(file)) {
    process.stderr.write(`${file} exists: a backup is never written over a file\n`);
    return 2;
  }
  const socketPath = backupSocketPath(config.dataDir);
  const started = performance.now();
  const partial = `${file}.partial`;
  try {
    const answer = await new Promise<IncomingMessage>((resolve, reject) => request({ socketPath, path: '/backup' }, resolve).on('error', reject).end());
    if (answer.statusCode !== 200) {
      let text = '';
      for await (const chunk of answer) text += chunk;
      process.stderr.write(`the service refused the backup (HTTP ${answer.statusCode}): ${text}\n`);
      return 1;
    }
    const expected = Number(answer.headers['content-length']);
    await pipeline(answer, createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
    const size = statSync(partial).size;
    if (size !== expected) throw new Error(`the copy was cut short: ${size} of ${expected} bytes`);
    renameSync(partial, file);
  } catch (err) {
    rmSync(partial, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') {
      process.stderr.write(`no service answers at ${socketPath}: is it running on DATA_DIR ${config.dataDir}? (with the service stopped, a copy of the folder is the backup)\n`);
      return 1;
    }
    throw err;
  }
  process.stdout.write(`backup of ${config.dataDir} written to ${file}: ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return 0;
}

exitWith(main(process.argv.slice(2)), 'backup');
