/**
 * `npm run restore -- <file> [--data-dir D]`: puts a backup made by `npm run backup` into a data
 * folder (D, else DATA_DIR) that holds no database yet, and opens it once, as the service would
 * (PostgreSQL replays the write-ahead log the copy holds, up to its last commit). Then
 * `DATA_DIR=D npm run verify:all` checks every game and tournament in it, and the service starts
 * on it. Exits 0 once restored, 1 on a failure, 2 on a wrong use (or a folder that already holds
 * a database: a restore never writes over one).
 */
import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ConfigError, loadConfig } from '../config/config.js';
import { exitWith } from './exit-with.js';
import { DATABASE_FOLDER, extractDataFolder, holdsDatabase } from '../database/data-archive.js';
import { makeFolders } from '../database/data-folder.js';
import { START_PARAMS } from '../database/pglite-create.js';

async function main(args: string[]): Promise<number> {
  const at = args.indexOf('--data-dir');
  const named = at >= 0 ? args[at + 1] : undefined;
  const rest = at >= 0 ? args.filter((_, i) => i !== at && i !== at + 1) : args;
  if (rest.length !== 1 || rest[0].startsWith('-') || (at >= 0 && !named)) {
    process.stderr.write('usage: npm run restore -- <file> [--data-dir D]   (D defaults to DATA_DIR)\n');
    return 2;
  }
  let dir: string;
  try {
    dir = resolve(named ?? loadConfig().dataDir);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`configuration error: ${err.message}\n`);
    return 2;
  }
  if (holdsDatabase(dir)) {
    process.stderr.write(`${dir} already holds a database: restore into a new folder (a restore never writes over one)\n`);
    return 2;
  }
  const started = performance.now();
  makeFolders(dir);
  const files = extractDataFolder(gunzipSync(readFileSync(rest[0])), dir);
  const db = new PGlite(join(dir, DATABASE_FOLDER), { startParams: [...START_PARAMS] });
  try {
    await db.waitReady;
    const count = async (table: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
    const [games, tournaments] = [await count('games'), await count('tournaments')];
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(`restored ${files} files into ${dir} in ${seconds} s: ${games} games and ${tournaments} tournaments; check them with DATA_DIR=${dir} npm run verify:all\n`);
  } finally {
    await db.close();
  }
  return 0;
}

exitWith(main(process.argv.slice(2)), 'restore');
