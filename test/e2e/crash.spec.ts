import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crashCheck } from '../../tools/crash.js';
import { freePort } from '../support/net.js';

/** Bots playing at once, and the acknowledged moves to wait for before the signal (however long they take). */
const CLIENTS = 16;
const ACKNOWLEDGED = 120;
/** Safety nets only: nothing checked depends on how fast the machine is. */
const ACK_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = 420_000;

/** Runs the check on PostgreSQL (TEST_DATABASE_URL) or a fresh embedded database. */
async function check(signal: 'SIGKILL' | 'SIGTERM') {
  const url = process.env.TEST_DATABASE_URL;
  const dataDir = url ? null : mkdtempSync(join(tmpdir(), 'arbiter-crash-'));
  try {
    const env = { LOG_LEVEL: 'info', ...(url ? { DATABASE_URL: url } : { DATA_DIR: dataDir! }) };
    return await crashCheck(env, await freePort(), CLIENTS, { acknowledged: ACKNOWLEDGED, timeoutMs: ACK_TIMEOUT_MS }, signal);
  } finally {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('crash safety and graceful shutdown', () => {
  it(
    'keeps every acknowledged move after the service is killed with SIGKILL mid-play, and every game verifies',
    async () => {
      const report = await check('SIGKILL');
      // Every bot was waiting on a request when the service died.
      expect(report.inFlightAtStop).toBe(CLIENTS);
      expect(report.acknowledged).toBeGreaterThanOrEqual(ACKNOWLEDGED);
      expect(report.missing).toEqual([]);
      expect(report.unverified).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'on SIGTERM finishes the moves in flight, closes the database cleanly, and loses nothing',
    async () => {
      const report = await check('SIGTERM');
      expect(report.inFlightAtStop).toBe(CLIENTS);
      expect(report.log).toContain('SIGTERM: draining in-flight moves');
      expect(report.log).toContain('stopped cleanly');
      expect(report.acknowledged).toBeGreaterThanOrEqual(ACKNOWLEDGED);
      expect(report.missing).toEqual([]);
      expect(report.unverified).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
