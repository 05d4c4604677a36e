import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crashCheck } from '../../bench/lib/crash.js';

describe('crash safety', () => {
  it('keeps every acknowledged move after the service is killed with SIGKILL mid-play, and every game verifies', async () => {
    const url = process.env.TEST_DATABASE_URL;
    const dataDir = url ? null : mkdtempSync(join(tmpdir(), 'arbiter-crash-'));
    try {
      const report = await crashCheck(url ? { DATABASE_URL: url } : { DATA_DIR: dataDir! }, 3600 + Math.floor(Math.random() * 100));
      expect(report.acknowledged).toBeGreaterThan(20);
      expect(report.missing).toEqual([]);
      expect(report.unverified).toEqual([]);
    } finally {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
