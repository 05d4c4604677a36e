import { closeSync, lstatSync, lutimesSync, openSync, readFileSync, readlinkSync, renameSync, statSync, symlinkSync, unlinkSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
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

/** A second process on the same data folder: the message names the folder and, when the lock file says, the holder. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | null,
    readonly lockPath: string,
  ) {
    super(
      `DATA_DIR ${dir} is in use by another Arbiter process` +
        (holder ? ` (pid ${holder.pid} on ${holder.host}, since ${holder.since})` : ' on this machine') +
        '. Two processes on one embedded database would lose acknowledged moves: stop that process, or give this one another DATA_DIR.',
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
export const HEARTBEAT_MS = 15_000;
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
 * Linux: an abstract Unix socket named for the folder (its device and inode), bound while the
 * process lives. The kernel frees it when the process ends, however it ends, and no file can be
 * deleted to free it sooner; it lives in the network namespace, so containers that share a
 * volume are kept apart by the lock file's heartbeat instead. It accepts nothing (a connection is
 * closed at once) and leads to no database. Elsewhere: null, and the lock file alone decides.
 */
async function holdFolder(dir: string, lockPath: string): Promise<Server | null> {
  if (process.platform !== 'linux') return null;
  const { dev, ino } = statSync(dir, { bigint: true });
  const server = createServer((socket) => socket.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ path: `\0arbiter-data-dir:${dev}:${ino}` }, resolve);
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new DataDirLockedError(dir, readHolder(lockPath), lockPath);
    throw err;
  }
  return server.unref();
}

/** What the holder is told when it finds its lock file naming another process: it must stop writing at once. */
export type LockLost = (holder: LockHolder | null) => void;

/**
 * An exclusive lock on a data folder, held two ways: by the process itself (holdFolder: a second
 * process on this machine is refused even if the lock file was deleted), and by a lock file that
 * names the holder (for the messages, and for another host sharing the folder). A lock file left
 * by a process that no longer runs is taken over (and `onStale` says so). While it holds the
 * folder, the holder checks its lock file: a deleted one is written again; one that names
 * another process means the folder was taken from it, and `onLost` is told. The lock is removed
 * on release, and at the latest when the process exits.
 */
export class DataDirLock {
  private held = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private os: Server | null = null;
  private readonly me: LockHolder = { pid: process.pid, host: hostname(), startTicks: startTicksOf(process.pid), since: new Date(Date.now()).toISOString() };
  private readonly onExit = () => this.release();

  private constructor(
    readonly dir: string,
    readonly path: string,
  ) {}

  static async acquire(dir: string, events: { onStale: (holder: LockHolder | null) => void; onLost: LockLost; checkMs: number }): Promise<DataDirLock> {
    const lock = new DataDirLock(dir, join(dir, LOCK_FILE));
    lock.os = await holdFolder(dir, lock.path);
    try {
      lock.take(events.onStale);
    } catch (err) {
      lock.os?.close();
      throw err;
    }
    lock.watch(events.onLost, events.checkMs);
    return lock;
  }

  private take(onStale: (holder: LockHolder | null) => void): void {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        create(this.path, encode(this.me));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`DATA_DIR ${this.dir}: cannot create the lock ${this.path}: ${(err as Error).message}`);
        const holder = readHolder(this.path);
        // Holding the folder ourselves, a file that names nobody (damaged, half-written) is no one's.
        if (holder ? alive(holder, this.path) : !this.os) throw new DataDirLockedError(this.dir, holder, this.path);
        this.removeStale(holder);
        onStale(holder);
        continue;
      }
      this.held = true;
      process.once('exit', this.onExit);
      return;
    }
    throw new DataDirLockedError(this.dir, readHolder(this.path), this.path);
  }

  /** Refreshes the lock file's time (another host's staleness test) and checks that it still names this process. */
  private watch(onLost: LockLost, everyMs: number): void {
    this.heartbeat = setInterval(() => {
      const holder = readHolder(this.path);
      try {
        if (holder && holder.pid === this.me.pid && holder.host === this.me.host && holder.since === this.me.since) {
          const now = new Date();
          lutimesSync(this.path, now, now);
        } else if (!holder && this.os && !exists(this.path)) {
          // Deleted: the process still holds the folder, so its name goes back on the door.
          create(this.path, encode(this.me));
        } else {
          clearInterval(this.heartbeat);
          this.held = false;
          onLost(holder);
        }
      } catch {
        /* the disk refused this time: the next beat tries again */
      }
    }, everyMs).unref();
  }

  /**
   * Moves the stale file aside, atomically, so that of two processes taking over the same stale lock
   * only one removes it; if what was moved is not the stale holder's (another process took over
   * first), it is put back and this process refuses to start.
   */
  private removeStale(stale: LockHolder | null): void {
    const aside = `${this.path}.stale-${process.pid}`;
    try {
      renameSync(this.path, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else moved it: try again
      throw err;
    }
    const moved = readHolder(aside);
    if (moved && (moved.pid !== stale?.pid || moved.since !== stale.since)) {
      try {
        renameSync(aside, this.path);
      } catch {
        /* best effort */
      }
      throw new DataDirLockedError(this.dir, moved, this.path);
    }
    unlinkSync(aside);
  }

  /** Removes the lock file if it is still this process's, and lets the folder go. */
  release(): void {
    clearInterval(this.heartbeat);
    this.os?.close();
    this.os = null;
    if (!this.held) return;
    this.held = false;
    process.removeListener('exit', this.onExit);
    try {
      if (readHolder(this.path)?.pid === process.pid) unlinkSync(this.path);
    } catch {
      /* already gone */
    }
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
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
