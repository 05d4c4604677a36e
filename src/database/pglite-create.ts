import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describeFailure } from './storage-errors.js';

/**
 * How PGlite runs PostgreSQL here. Its start-up progress timer re-arms every 10 s: a start-up that
 * fails (a full disk) would leave it running in the process, and the process could not exit.
 * Memory: PGlite's default 128 MB of shared buffers are WebAssembly memory, resident from the
 * start and never given back. 16 MB suffice: the referee serves games from its own cache, so the
 * database mostly writes. Maintenance (a migration's index builds) is bounded the same way.
 */
export const START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, ...['-c', 'log_startup_progress_interval=0', '-c', 'shared_buffers=16MB', '-c', 'maintenance_work_mem=16MB']];

/** Whether PGlite would have to create its database in `dir` (run initdb) before opening it. */
export function isNewDatabase(dir: string): boolean {
  return !existsSync(join(dir, 'PG_VERSION'));
}

/**
 * The child's whole program: PGlite creates the database (initdb, in a second PostgreSQL of its
 * own), starts it once with the service's parameters, and closes it. PostgreSQL's complaints go to
 * stderr, for the service to say why a creation failed.
 */
const FAILED = 'failed: ';
const CREATE = `
const FAILED = ${JSON.stringify(FAILED)};
const [module, dir, params] = process.argv.slice(1);
const { PGlite } = require(module);
let complained = false;
const db = new PGlite(dir, {
  startParams: JSON.parse(params),
  onStderr: (line) => {
    if (/\\b(PANIC|FATAL|ERROR):/.test(line)) {
      complained = true;
      process.stderr.write(line + '\\n');
    }
    return false;
  },
});
db.waitReady.then(() => db.close()).then(
  () => process.exit(0),
  (err) => {
    // What was thrown, for the service to put in words (a file system's errno is an object, not an Error).
    if (!complained) process.stderr.write(FAILED + JSON.stringify({ name: err && err.name, errno: err && err.errno, message: err && err.message }) + '\\n');
    process.exit(1);
  },
);
`;

/** The child's last line in words: PostgreSQL's complaint as it is, or what was thrown, described. */
function inWords(line: string | undefined): string | undefined {
  if (!line?.startsWith(FAILED)) return line;
  try {
    return describeFailure(JSON.parse(line.slice(FAILED.length)));
  } catch {
    return line;
  }
}

/**
 * Creates the embedded database in `dir` in a short-lived child process, and answers its pid.
 * Creating it in the service's own process would leave initdb's PostgreSQL there: about 300 MB
 * of WebAssembly memory that V8 frees late or never, for as long as the service runs. A child's
 * memory is the operating system's again when it exits. Rejects with the child's last complaints.
 */
export function createDatabase(dir: string, startParams: readonly string[] = START_PARAMS): Promise<number> {
  const module = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const child = spawn(process.execPath, ['-e', CREATE, module, dir, JSON.stringify(startParams)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (said = (said + text).slice(-4000)));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(child.pid as number);
      else reject(new Error(inWords(said.trim().split('\n').at(-1)) || `the process creating it ended (${signal ?? `exit code ${code}`})`));
    });
  });
}
