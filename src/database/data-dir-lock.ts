import { closeSync, lstatSync, lutimesSync, openSync, readFileSync, readlinkSync, renameSync, symlinkSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The lock file's name inside DATA_DIR. */
export const LOCK_FILE = 'arbiter.lock';

/** Who holds a data folder (what the lock says). */
export interface LockHolder {
  pid: number;
  host: string;
  /** The holder's start time in clock ticks since boot (/proc/<pid>/stat field 22), to tell a reused pid; null off Linux. */
  startTicks: string | null;
  since: string;
}

/** A second process on the same data folder: the message names the folder and the holder. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | null,
    readonly lockPath: string,
  ) {
    super(
      holder
        ? `DATA_DIR ${dir} is in use by another Arbiter process (pid ${holder.pid} on ${holder.host}, since ${holder.since}). ` +
            'Two processes on one embedded database would lose acknowledged moves: stop that process, or give this one another DATA_DIR. ' +
            `If no such process runs, delete ${lockPath}.`
        : `DATA_DIR ${dir} is locked by ${lockPath}, which names no process (it is being written, or is damaged). ` + `If no Arbiter process uses this folder, delete ${lockPath}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** The start time of a process (Linux), or null when it cannot be read (no /proc, or no such process). */
function startTicksOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) is in parentheses and may hold spaces: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The holder refreshes its lock's time this often, so that another host can tell a live lock from a stale one. */
const HEARTBEAT_MS = 15_000;
/** A lock from another host (a shared volume, a container recreated with another host name) is stale after this long without a refresh. */
const FOREIGN_STALE_MS = 60_000;

/**
 * Whether the process that wrote `holder` still runs: on this host, whether its pid runs (and
 * is the same process); from another host, whose pids cannot be checked, whether it refreshed
 * the lock lately.
 */
function alive(holder: LockHolder, path: string): boolean {
  if (holder.host !== hostname()) {
    try {
      return Date.now() - lstatSync(path).mtimeMs < FOREIGN_STALE_MS;
    } catch {
      return false;
    }
  }
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The pid runs; if it started at another time than the holder did, the pid was reused.
  const now = startTicksOf(holder.pid);
  return !(holder.startTicks && now && holder.startTicks !== now);
}

/**
 * The lock is a symbolic link whose target names the holder (`arbiter:<pid>:<start ticks>:<since ms>:<host>`):
 * created in one step, it is never seen half-written, and it needs no free disk block, so a
 * process can still take it on a full disk. Where symbolic links are not allowed, a file created
 * with O_EXCL that holds the same text.
 */
function encode(holder: LockHolder): string {
  return `arbiter:${holder.pid}:${holder.startTicks ?? '-'}:${Date.parse(holder.since)}:${holder.host}`;
}

function decode(text: string): LockHolder | null {
  const m = /^arbiter:(\d+):([^:]+):(\d+):(.*)$/.exec(text.trim());
  if (!m) return null;
  const pid = Number(m[1]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  return { pid, startTicks: m[2] === '-' ? null : m[2], since: new Date(Number(m[3])).toISOString(), host: m[4] };
}

/** Who holds the lock at `path`, or null if nobody does or it cannot be read. */
export function readHolder(path: string): LockHolder | null {
  try {
    return decode(readlinkSync(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EINVAL') return null; // EINVAL: a plain file (the fallback)
  }
  try {
    return decode(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * An exclusive lock on a data folder: a lock file created with O_EXCL that holds this process's
 * pid. A second process finds the file, sees the holder alive and refuses to start; a holder that
 * no longer runs (killed, crashed) left a stale lock, which is taken over (and `onStale` says so).
 * The lock is removed on release, and at the latest when the process exits.
 */
export class DataDirLock {
  private held = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly onExit = () => this.release();

  private constructor(
    readonly dir: string,
    readonly path: string,
  ) {}

  static acquire(dir: string, onStale: (holder: LockHolder | null) => void): DataDirLock {
    const lock = new DataDirLock(dir, join(dir, LOCK_FILE));
    lock.take(onStale);
    return lock;
  }

  private take(onStale: (holder: LockHolder | null) => void): void {
    const me: LockHolder = { pid: process.pid, host: hostname(), startTicks: startTicksOf(process.pid), since: new Date(Date.now()).toISOString() };
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        create(this.path, encode(me));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`DATA_DIR ${this.dir}: cannot create the lock ${this.path}: ${(err as Error).message}`);
        const holder = readHolder(this.path);
        // A lock that names no process is not ours to remove: say which file to delete.
        if (!holder || alive(holder, this.path)) throw new DataDirLockedError(this.dir, holder, this.path);
        this.removeStale(holder);
        onStale(holder);
        continue;
      }
      this.held = true;
      process.once('exit', this.onExit);
      this.heartbeat = setInterval(() => {
        try {
          const now = new Date();
          lutimesSync(this.path, now, now);
        } catch {
          /* gone: release() follows */
        }
      }, HEARTBEAT_MS).unref();
      return;
    }
    throw new DataDirLockedError(this.dir, readHolder(this.path), this.path);
  }

  /**
   * Moves the stale file aside, atomically, so that of two processes taking over the same stale lock
   * only one removes it; if what was moved is not the stale holder's (another process took over
   * first), it is put back and this process refuses to start.
   */
  private removeStale(stale: LockHolder): void {
    const aside = `${this.path}.stale-${process.pid}`;
    try {
      renameSync(this.path, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else moved it: try again
      throw err;
    }
    const moved = readHolder(aside);
    if (moved && (moved.pid !== stale.pid || moved.since !== stale.since)) {
      try {
        renameSync(aside, this.path);
      } catch {
        /* best effort */
      }
      throw new DataDirLockedError(this.dir, moved, this.path);
    }
    unlinkSync(aside);
  }

  /** Removes the lock file if it is still this process's. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    clearInterval(this.heartbeat);
    process.removeListener('exit', this.onExit);
    try {
      if (readHolder(this.path)?.pid === process.pid) unlinkSync(this.path);
    } catch {
      /* already gone */
    }
  }
}

/** Creates the lock atomically (EEXIST if it exists): a symbolic link, or an O_EXCL file where links are not allowed. */
function create(path: string, text: string): void {
  try {
    symlinkSync(text, path);
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
  }
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, `${text}\n`);
  } catch (err) {
    // Never leave a lock that names nobody (a full disk): it would stop every later start.
    closeSync(fd);
    unlinkSync(path);
    throw err;
  }
  closeSync(fd);
}
