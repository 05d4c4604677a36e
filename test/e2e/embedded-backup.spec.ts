import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { seededRandom } from '../../src/engines/kit/index.js';
import { ENGINES } from '../../src/games/index.js';
import { backupSocketPath } from '../../src/database/data-archive.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { Bot } from '../../tools/bot.js';
import { serviceEntry, startService } from '../../tools/service.js';
import { startApp } from '../support/app.js';
import { freePort } from '../support/net.js';

/**
 * The embedded database's online backup (docs/high-availability.md, "Backups"): `npm run backup`
 * takes a copy from the running service while bots play, `npm run restore` puts it into a new
 * folder, `npm run verify:all` verifies every game there, and the service starts on it with every
 * move acknowledged before the backup began. The backup socket admits only the service's user.
 * The embedded database only: the pass with TEST_DATABASE_URL skips it (it would run the same).
 */
const embedded = !process.env.TEST_DATABASE_URL;
const run = promisify(execFile);
const cli = (name: string, args: string[], env: Record<string, string>) =>
  run(process.execPath, [serviceEntry().replace(/main\.js$/, `cli/${name}.js`), ...args], { env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env }, timeout: 180_000 });

(embedded ? it : it.skip)(
  'a backup taken while bots play restores into a folder the service starts on, with every move acknowledged before it, and every game verifies',
  async () => {
    const folder = mkdtempSync(join(tmpdir(), 'arbiter-online-backup-'));
    const dataDir = join(folder, 'data');
    const restored = join(folder, 'restored');
    const service = await startService({ DATA_DIR: dataDir, DATABASE_URL: '' }, await freePort());
    const acknowledged: { gameId: string; moveId: string; at: number }[] = [];
    let stop = false;
    let backupBegan = Number.POSITIVE_INFINITY;
    try {
      const engine = ENGINES.find((e) => e.kind === 'backgammon')!;
      const play = async (n: number) => {
        const bot = new Bot(service.url, engine, { autoRoll: true }, seededRandom(n + 1), `online-${n}`, ['resign', 'double']);
        await bot.newGame();
        while (!stop) {
          const answer = await bot.move();
          if (answer.accepted) acknowledged.push({ gameId: bot.gameId, moveId: answer.moveId, at: performance.now() });
          if (answer.finished) await bot.newGame();
        }
      };
      let failed: unknown = null;
      const bots = [0, 1, 2, 3].map((n) => play(n).catch((err) => (failed = err)));
      const acknowledgedReach = async (n: number) => {
        while (acknowledged.length < n) {
          if (failed) throw failed;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      await acknowledgedReach(40);
      backupBegan = performance.now();
      const { stdout } = await cli('backup', [join(folder, 'arbiter.backup.tgz')], { DATA_DIR: dataDir });
      expect(stdout).toMatch(/^backup of .* written to .*arbiter\.backup\.tgz: [\d.]+ MB in [\d.]+ s$/m);
      // The service goes on after the copy: moves are still acknowledged.
      const after = acknowledged.length;
      await acknowledgedReach(after + 20);
      stop = true;
      await Promise.all(bots);
    } finally {
      stop = true;
      service.process.kill('SIGTERM');
      await service.exited;
    }
    try {
      const before = acknowledged.filter((m) => m.at < backupBegan);
      const { stdout: said } = await cli('restore', [join(folder, 'arbiter.backup.tgz'), '--data-dir', restored], {});
      expect(said).toMatch(/^restored \d+ files into .* in [\d.]+ s: \d+ games and 0 tournaments; check them with DATA_DIR=.* npm run verify:all$/m);
      const games = new Set(acknowledged.map((m) => m.gameId)).size;
      const { stdout } = await cli('verify-all', [], { DATA_DIR: restored });
      const checked = Number(/^(\d+) games and 0 tournaments checked in .* s: every one verifies$/m.exec(stdout)?.[1]);
      expect(checked).toBeGreaterThanOrEqual(new Set(before.map((m) => m.gameId)).size);
      expect(checked).toBeLessThanOrEqual(games);
      // The service starts on the restored folder and holds every move acknowledged before the backup began.
      const t = await startApp({ databaseUrl: null, dataDir: restored });
      try {
        expect(await t.app.get(DatabaseService).readiness()).toEqual({ ready: true });
        const stored = (await t.app.get(DatabaseService).pool.query<{ game_id: string; move_id: string }>('SELECT game_id, move_id FROM events WHERE move_id IS NOT NULL')).rows;
        const found = new Set(stored.map((r) => `${r.game_id} ${r.move_id}`));
        expect(before.filter((m) => !found.has(`${m.gameId} ${m.moveId}`))).toEqual([]);
        // Nothing in the copy was never acknowledged.
        const sent = new Set(acknowledged.map((m) => `${m.gameId} ${m.moveId}`));
        expect([...found].filter((k) => !sent.has(k))).toEqual([]);
      } finally {
        await t.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
  600_000,
);

(embedded && process.getuid?.() === 0 ? it : it.skip)(
  "the backup socket refuses another user than the service's",
  async () => {
    const folder = mkdtempSync(join(tmpdir(), 'arbiter-backup-socket-'));
    const dataDir = join(folder, 'data');
    const service = await startService({ DATA_DIR: dataDir, DATABASE_URL: '' }, await freePort());
    try {
      // Only the socket's own folder (DATA_DIR/admin, owner-only) is left to keep another user out.
      chmodSync(folder, 0o755);
      chmodSync(dataDir, 0o755);
      const connect = `require('node:net').connect(${JSON.stringify(backupSocketPath(dataDir))}).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); })`;
      expect(spawnSync(process.execPath, ['-e', connect], { encoding: 'utf8' }).stdout.trim()).toBe('connected');
      expect(spawnSync(process.execPath, ['-e', connect], { encoding: 'utf8', uid: 65534, gid: 65534 }).stdout.trim()).toBe('EACCES');
    } finally {
      service.process.kill('SIGTERM');
      await service.exited;
      rmSync(folder, { recursive: true, force: true });
    }
  },
  300_000,
);
