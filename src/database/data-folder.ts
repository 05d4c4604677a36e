import { accessSync, constants, existsSync, mkdirSync, statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/** Creates DATA_DIR (owner-only when created here) and checks it is a writable folder, naming it if not. */
export function prepareDataDir(dataDir: string): void {
  if (existsSync(dataDir)) {
    if (!statSync(dataDir).isDirectory()) throw new Error(`DATA_DIR ${dataDir} is not a folder`);
  } else {
    try {
      makeFolders(dataDir);
    } catch (err) {
      throw new Error(`DATA_DIR ${dataDir} cannot be created: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  try {
    accessSync(dataDir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    throw new Error(`DATA_DIR ${dataDir} is not writable by this process (uid ${process.getuid?.() ?? '?'})`);
  }
}

/** mkdir -p, one level at a time, owner-only (Node's recursive mkdir loops forever under /proc). */
export function makeFolders(path: string): void {
  if (existsSync(path)) return;
  const parent = dirname(path);
  if (parent !== path) makeFolders(parent);
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/**
 * Closes the files of a PGlite engine that failed (no shutdown: it would never answer), and stops
 * the timers PostgreSQL left armed in it (they would keep the process alive, and call into it).
 */
export async function closeFiles(engine: PGlite): Promise<void> {
  try {
    (engine.Module as unknown as { _clear_setitimer?: () => void })._clear_setitimer?.();
  } catch {
    /* no timers */
  }
  try {
    await engine.fs?.closeFs();
  } catch {
    /* it never opened them */
  }
}

/** Free bytes on the disk of `dir` for this user, or null where the system cannot say. */
export function freeBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}
