import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of processes, read from /proc (Linux only): user + system time of whole processes
 * (all their threads). Used by the load bench to put CPU-seconds of the database and of the
 * service next to the moves they served.
 */

let ticksPerSecond = 0;
function clockTicks(): number {
  if (!ticksPerSecond) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of one process in seconds, or null if it is gone (or /proc is not there). */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks();
  } catch {
    return null;
  }
}

/** The pids of every process owned by a user (by name, looked up in /etc/passwd). */
export function pidsOfUser(user: string): number[] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  if (!line) return [];
  const uid = line.split(':')[2];
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (status.match(/^Uid:\s+(\d+)/m)?.[1] === uid) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
}

/** Whole-machine CPU from /proc/stat: busy and total seconds summed over all cores. */
export function machineCpuSeconds(): { busy: number; total: number } {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = cpu[3] + (cpu[4] ?? 0); // idle + iowait
    return { busy: (total - idle) / clockTicks(), total: total / clockTicks() };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

export const loadAverage = (): string => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return '?';
  }
};

/**
 * Accumulates the CPU time a changing set of processes spends while it runs: sampled every
 * `intervalMs`, each pid's growth since its previous sample is added. A pid seen for the first
 * time after the start counts from zero (it started during the measurement); a pid that exits
 * loses at most its last interval.
 */
export class CpuSampler {
  private readonly last = new Map<number, number>();
  private seconds = 0;
  private timer: NodeJS.Timeout | null = null;
  private first = true;
  private sampling: Promise<void> = Promise.resolve();

  constructor(
    private readonly pids: () => number[] | Promise<number[]>,
    private readonly intervalMs = 250,
  ) {}

  async start(): Promise<void> {
    await this.sample();
    this.first = false;
    this.timer = setInterval(() => {
      this.sampling = this.sampling.then(() => this.sample());
    }, this.intervalMs);
  }

  /** Stops and answers the CPU-seconds used since start. */
  async stop(): Promise<number> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sampling;
    await this.sample();
    return this.seconds;
  }

  private async sample(): Promise<void> {
    let pids: number[];
    try {
      pids = await this.pids();
    } catch {
      return;
    }
    for (const pid of pids) {
      const now = processCpuSeconds(pid);
      if (now === null) continue;
      const before = this.last.get(pid);
      if (before !== undefined) this.seconds += now - before;
      else if (!this.first) this.seconds += now;
      this.last.set(pid, now);
    }
  }
}

/** Resident memory of a process in MiB: now (VmRSS) and its peak so far (VmHWM); null if it is gone. */
export function processMemory(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}
