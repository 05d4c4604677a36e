import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The built service entry point (dist/src/main.js), found from src/ or dist/. */
export function serviceEntry(from = import.meta.dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const main = resolve(dir, 'dist/src/main.js');
    if (existsSync(resolve(dir, 'package.json'))) {
      if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
      return main;
    }
  }
  throw new Error('project root not found');
}

export interface RunningService {
  url: string;
  process: ChildProcess;
  log: () => string;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
}

const START_TIMEOUT_MS = 180_000;
/** One probe that hangs must not use up the whole start-up allowance. */
const PROBE_TIMEOUT_MS = 10_000;

export interface ServiceOptions {
  /** Another build's entry point (a before/after comparison runs both from one bench). */
  entry?: string;
  /** Node options before the entry point (`--inspect=…` for a CPU profile). */
  nodeArgs?: string[];
}

/** Starts `node dist/src/main.js` as its own process and waits until /healthz answers. */
export async function startService(env: Record<string, string>, port: number, options: ServiceOptions = {}): Promise<RunningService> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.entry ?? serviceEntry()], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', CREATE_QUOTA_PER_HOUR: '0', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | string | null>((r) => child.on('exit', (code, signal) => r(signal ?? code)));
  const url = `http://127.0.0.1:${port}`;
  // A safety net, not a speed requirement: on a machine busy with parallel test suites, loading
  // the modules alone has taken most of a minute.
  const deadline = Date.now() + START_TIMEOUT_MS;
  // What the last probe saw, so a service that logs "ready" but never answers says why.
  let lastProbe = 'no probe answered';
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited during start-up:\n${output}`);
    try {
      const answer = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      if (answer.ok) break;
      lastProbe = `HTTP ${answer.status}: ${(await answer.text()).slice(0, 300)}`;
    } catch (err) {
      const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
      lastProbe = `${(err as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not start within ${START_TIMEOUT_MS / 1000} s (last probe of ${url}/healthz: ${lastProbe}):\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, process: child, log: () => output, exited };
}
