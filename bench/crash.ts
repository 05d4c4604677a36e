/**
 * Crash safety: `npm run bench -- bench/crash.js [--pglite]`. SIGKILLs the service while bots
 * are moving, restarts it, and checks every acknowledged move is stored and every game verifies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crashCheck } from '../tools/crash.js';

const pglite = process.argv.includes('--pglite');
const dataDir = pglite ? mkdtempSync(join(tmpdir(), 'arbiter-crash-')) : null;
const env: Record<string, string> = dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' };
const report = await crashCheck(env, 3700 + Math.floor(Math.random() * 100), 32, 3000);
process.stdout.write(
  `crash check (${pglite ? 'PGlite' : 'PostgreSQL'}): ${report.acknowledged} moves acknowledged in ${report.games} games before SIGKILL; ` +
    `${report.missing.length} missing after restart (${report.restartedIn.toFixed(0)} ms to restart); ${report.unverified.length} games failing verification\n`,
);
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
process.exit(report.missing.length === 0 && report.unverified.length === 0 ? 0 : 1);
