import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, gqlAt as gql } from '../support/net.js';

/**
 * The service under a process manager: started exactly as the README says (`npm start`, which
 * runs the built service), stopped with SIGTERM sent to the npm process, as systemd, Docker or a
 * shell's job control would. The signal must reach the service, which stops cleanly, and nothing
 * may be left running. On PostgreSQL with TEST_DATABASE_URL (or DATABASE_URL), else on an
 * embedded database in a temporary DATA_DIR. Nothing here depends on the machine's speed: every
 * wait is for an event, with generous safety nets.
 */

const root = resolve(import.meta.dirname, '../..');
const pgUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || null;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 60_000;

const CREATE = `mutation { createGame(input: { kind: "backgammon", ruleset: { matchLength: 3 } }) {
  __typename ... on GameCreated { game { id version } } ... on Rejection { code message } } }`;
const GAME_BY_ID = `query($id: ID!) { game(id: $id) { id version } }`;

/** A process as /proc shows it: its start time (against pid reuse) and whether it still runs (not a zombie). */
function procStat(pid: number): { state: string; startTime: string } | null {
  try {
    // pid (comm) state ppid ... starttime is field 22; comm may hold spaces, so split after the last ')'.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop()!.trim().split(/\s+/);
    return { state: fields[0], startTime: fields[19] };
  } catch {
    return null;
  }
}

function running(pid: number, startTime: string): boolean {
  const stat = procStat(pid);
  return stat !== null && stat.startTime === startTime && stat.state !== 'Z';
}

/** The direct children of a process (Linux /proc, every thread's list). */
function children(pid: number): number[] {
  const found = new Set<number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/)) if (child) found.add(Number(child));
    } catch {
      /* thread gone meanwhile */
    }
  }
  return [...found];
}

function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

interface Started {
  npm: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when npm's stdout and stderr are closed (by npm and by everything that inherited them). */
  closed: Promise<void>;
}

const started: ChildProcess[] = [];
/** Processes found below npm, killed after a failure if they still run. */
const tracked: { pid: number; startTime: string }[] = [];
const dirs: string[] = [];

/** `npm start` in the project, as the README runs it, and waits until /healthz answers 200. */
async function npmStart(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_update_notifier: 'false',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '0',
    CREATE_QUOTA_PER_HOUR: '0',
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  if (!env.DATABASE_URL) delete environment.DATABASE_URL;
  const npm = spawn('npm', ['start'], { cwd: root, env: environment, detached: false, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(npm);
  let output = '';
  npm.stdout!.on('data', (d) => (output += d));
  npm.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => npm.on('exit', (code, signal) => done({ code, signal })));
  const closed = new Promise<void>((done) => npm.on('close', () => done()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (npm.exitCode !== null || npm.signalCode !== null) throw new Error(`npm start exited during start-up (${npm.exitCode ?? npm.signalCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`npm start did not answer /healthz within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { npm, url, output: () => output, exited, closed };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: not within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Every process below a pid (Linux /proc), with its start time, found before any signal is sent. */
function descendants(pid: number): { pid: number; startTime: string; args: string[]; comm: string }[] {
  const found: { pid: number; startTime: string; args: string[]; comm: string }[] = [];
  for (const child of children(pid)) {
    const stat = procStat(child);
    if (!stat) continue;
    try {
      found.push({ pid: child, startTime: stat.startTime, args: commandLine(child), comm: readFileSync(`/proc/${child}/comm`, 'utf8').trim() });
    } catch {
      continue; // gone meanwhile
    }
    found.push(...descendants(child));
  }
  return found;
}

/** SIGTERM to the npm process only: the service stops cleanly, npm exits after it, and nothing is left running. */
async function stopWithSigterm(service: Started): Promise<void> {
  const below = descendants(service.npm.pid!);
  tracked.push(...below);
  // The service itself: node running dist/src/main.js (npm execs it, so no shell stands in between).
  const node = below.find((p) => p.comm === 'node' && p.args.some((a) => a.endsWith('dist/src/main.js')));
  expect(node).toBeDefined();
  expect(service.npm.kill('SIGTERM')).toBe(true);
  const exit = await within(service.exited, STOP_TIMEOUT_MS, 'npm to exit after SIGTERM');
  // npm waits for its child before it exits: nothing it started is left behind as an orphan.
  const left = below.filter((p) => running(p.pid, p.startTime)).map((p) => `${p.pid} ${p.args.join(' ')}`);
  expect(left).toEqual([]);
  await within(service.closed, STOP_TIMEOUT_MS, 'the output to close');
  expect(service.output()).toContain('SIGTERM: draining in-flight moves');
  expect(service.output()).toContain('stopped cleanly');
  expect(exit).toEqual({ code: 0, signal: null });
}

afterAll(() => {
  // Safety net after a failure: only the processes this file started, and what runs below them.
  for (const p of started) if (p.exitCode === null && p.signalCode === null) tracked.push(...descendants(p.pid!));
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const p of tracked) {
    if (!running(p.pid, p.startTime)) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
  // Pipes an orphan held would keep Jest waiting.
  for (const p of started) for (const stream of [p.stdout, p.stderr]) stream?.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the service under a process manager (npm start, SIGTERM to npm)', () => {
  it(
    'npm start runs node in the foreground: SIGTERM to npm stops the service cleanly, leaves no process behind and releases the data folder',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-process-'));
      dirs.push(dataDir);
      const env: Record<string, string> = pgUrl ? { DATABASE_URL: pgUrl, DATA_DIR: dataDir } : { DATA_DIR: dataDir };

      const first = await npmStart(env);
      const created = (await gql(first.url, CREATE)).data.createGame;
      expect(created.__typename).toBe('GameCreated');
      await stopWithSigterm(first);
      if (!pgUrl) expect(existsSync(join(dataDir, 'arbiter.lock'))).toBe(false);

      // The same folder (and database) again: the lock was released and the game is there.
      const second = await npmStart(env);
      expect(second.output()).not.toContain('taking over the lock');
      expect((await gql(second.url, GAME_BY_ID, { id: created.game.id })).data.game).toEqual({ id: created.game.id, version: created.game.version });
      await stopWithSigterm(second);
    },
    2 * START_TIMEOUT_MS + 4 * STOP_TIMEOUT_MS,
  );
});
