import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../src/config/project-root.js';

const run = promisify(execFile);
const SCRIPTS = resolve(projectRoot(import.meta.dirname), 'scripts/ha');
const POSTGRES = '/usr/lib/postgresql/15/bin/postgres';

/** Whether `command` is an executable on PATH. */
export const haveCommand = (command: string) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** What a local HA cluster needs and this machine lacks (empty: scripts/ha/up can start one without installing anything). */
export function haMissing(): string[] {
  const missing = ['patroni', 'patronictl', 'etcd', 'haproxy'].filter((c) => !haveCommand(c));
  try {
    accessSync(POSTGRES, constants.X_OK);
  } catch {
    missing.push(POSTGRES);
  }
  return missing;
}

/** scripts/ha/up's choices: 2 or 3 PostgreSQL nodes; synchronous_mode_strict. */
export interface HaShape {
  nodes?: 2 | 3;
  strict?: boolean;
}

/**
 * A synchronous Patroni cluster behind HAProxy, started and stopped by scripts/ha/up and
 * scripts/ha/down, its faults made by scripts/ha/node (all by PID).
 */
export class HaCluster {
  private constructor(
    readonly dir: string,
    /** HAProxy's read-write port: always the leader. */
    readonly databaseUrl: string,
  ) {}

  /** Starts a cluster on ports from `portBase` up (portBase .. portBase + 31). */
  static async up(portBase: number, shape: HaShape = {}): Promise<HaCluster> {
    const args = ['--nodes', String(shape.nodes ?? 2), ...(shape.strict ? ['--strict'] : [])];
    const { stdout } = await run(join(SCRIPTS, 'up'), args, { env: { ...process.env, HA_PORT_BASE: String(portBase) }, timeout: 300_000 });
    const value = (name: string) => new RegExp(`^export ${name}=(.*)$`, 'm').exec(stdout)?.[1];
    const dir = value('HA_DIR');
    const url = value('DATABASE_URL');
    if (!dir || !url) throw new Error(`scripts/ha/up said nothing usable: ${stdout}`);
    return new HaCluster(dir, url);
  }

  private async node(...args: string[]): Promise<string> {
    return (await run(join(SCRIPTS, 'node'), [this.dir, ...args], { timeout: 180_000 })).stdout.trim();
  }

  /** kill -9 of the leader's Patroni and PostgreSQL together; answers the killed node's number. */
  async killPrimary(): Promise<number> {
    return Number(await this.node('kill-primary'));
  }

  /** Starts a killed node's Patroni again: it rejoins as a standby. */
  async start(node: number): Promise<void> {
    await this.node('start', String(node));
  }

  /** A planned switchover to the synchronous standby (patronictl). */
  async switchover(): Promise<void> {
    await this.node('switchover');
  }

  /** The leader's number, or null while there is none. */
  async leader(): Promise<number | null> {
    const n = await this.node('leader');
    return n === '' ? null : Number(n);
  }

  /** Waits for a leader and a synchronous standby: the state in which a fault loses nothing acknowledged. */
  async waitHealthy(): Promise<void> {
    await this.node('wait-healthy');
  }

  async down(): Promise<void> {
    await run(join(SCRIPTS, 'down'), [this.dir], { timeout: 120_000 });
  }
}
