import { closeSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A small tmpfs for this test file, unmounted after it (root only); null where the sandbox does
 * not allow mounting, or when `wanted` is false: the full-disk tests skip then.
 */
export function suiteTmpfs(sizeMb: number, wanted = true): string | null {
  if (!wanted || process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  afterAll(() => {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Fills the disk under `dir` with one file until it is full (ENOSPC), then frees `leaveMb`; returns the file. */
export function fillDisk(dir: string, leaveMb = 0): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  try {
    for (const chunk = Buffer.alloc(1 << 20, 1); ; ) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  if (leaveMb > 0) truncateSync(filler, Math.max(0, statSync(filler).size - leaveMb * 1024 * 1024));
  return filler;
}
