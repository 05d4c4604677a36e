import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crashCheck } from '../../bench/lib/crash.js';

/** Runs the check on PostgreSQL (TEST_DATABASE_URL) or a fresh embedded database. */
async function check(signal: 'SIGKILL' | 'SIGTERM') {
  const url = process.env.TEST_DATABASE_URL;
  const dataDir = url ? null : mkdtempSync(join(tmpdir(), 'arbiter-crash-'));
  try {
    return await crashCheck({ LOG_LEVEL: 'info', ...(url ? { DATABASE_URL: url } : { DATA_DIR: dataDir! }) }, 3600 + Math.floor(Math.random() * 100), 16, 1500, signal);
  } finally {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('crash safety and graceful shutdown', () => {
  it('keeps every acknowledged move after the service is killed with SIGKILL mid-play, and every game verifies', async () => {
    const report = await check('SIGKILL');
    expect(report.acknowledged).toBeGreaterThan(20);
    expect(report.missing).toEqual([]);
    expect(report.unverified).toEqual([]);
  });

  it('on SIGTERM finishes the moves in flight, closes the database cleanly, and loses nothing', async () => {
    const report = await check('SIGTERM');
    expect(report.log).toContain('SIGTERM: draining in-flight moves');
    expect(report.log).toContain('stopped cleanly');
    expect(report.acknowledged).toBeGreaterThan(20);
    expect(report.missing).toEqual([]);
    expect(report.unverified).toEqual([]);
  });
});
