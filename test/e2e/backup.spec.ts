import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { seededRandom } from '../../src/engines/kit/index.js';
import { ENGINES } from '../../src/games/index.js';
import { TournamentService } from '../../src/referee/index.js';
import { Bot } from '../../tools/bot.js';
import { haveCommand } from '../../tools/ha-cluster.js';
import { serviceEntry } from '../../tools/service.js';
import { startApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { CREATE } from '../support/queries.js';
import { swissOfTwo } from '../support/instances.js';
import { ownDatabase } from '../support/own-database.js';

/**
 * Backups restore and verify (docs/high-availability.md, "Backups"): a database with games and a
 * tournament is copied (pg_dump and pg_restore on PostgreSQL; the data folder of a stopped
 * service on the embedded database), and `npm run verify:all` on the copy verifies every game and
 * tournament in it.
 */
const run = promisify(execFile);
const verifyAll = (env: Record<string, string>) =>
  run(process.execPath, [serviceEntry().replace(/main\.js$/, 'cli/verify-all.js')], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, timeout: 180_000 });

/** Three backgammon games a few moves in, and a tournament whose game has begun. */
async function fill(settings: { databaseUrl?: string | null; dataDir?: string }): Promise<void> {
  const t = await startApp(settings);
  try {
    const engine = ENGINES.find((e) => e.kind === 'backgammon')!;
    for (let g = 0; g < 3; g++) {
      const bot = new Bot(t.url, engine, { autoRoll: true }, seededRandom(g + 1), `backup-${g}`, ['resign', 'double']);
      await bot.newGame();
      for (let m = 0; m < 6; m++) expect((await bot.move()).accepted).toBe(true);
    }
    await swissOfTwo({ tournaments: t.app.get(TournamentService) }, { kind: 'backgammon' });
  } finally {
    await t.close();
  }
}

const pgUrl = process.env.TEST_DATABASE_URL;
const pgTools = haveCommand('pg_dump') && haveCommand('pg_restore');

async function count(url: string, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0].n as number;
  } finally {
    await client.end();
  }
}

(pgUrl && pgTools ? it : it.skip)(
  'PostgreSQL: pg_dump, pg_restore into a new database, and every game and tournament there verifies',
  async () => {
    const source = (await ownDatabase('backup_source'))!;
    const target = (await ownDatabase('backup_target'))!;
    const folder = mkdtempSync(join(tmpdir(), 'arbiter-backup-'));
    try {
      await fill({ databaseUrl: source.url });
      await run('pg_dump', ['--format=custom', `--file=${join(folder, 'arbiter.dump')}`, `--dbname=${source.url}`]);
      await run('pg_restore', ['--no-owner', `--dbname=${target.url}`, join(folder, 'arbiter.dump')]);
      const { stdout } = await verifyAll({ DATABASE_URL: target.url });
      expect(stdout).toMatch(/^4 games and 1 tournaments checked in .* s: every one verifies$/m);
      const events = (url: string) => count(url, 'SELECT count(*)::int AS n FROM events');
      expect(await events(target.url)).toBe(await events(source.url));
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await source.drop();
      await target.drop();
    }
  },
  300_000,
);

(pgUrl ? it : it.skip)(
  'verify:all only reads: a game whose clock ran out while no service ran is left for the service to time out',
  async () => {
    const db = (await ownDatabase('verify_reads'))!;
    try {
      // The game is created an hour ago by its clock: its 10 s ran out long before verify:all starts.
      const t = await startAppWithClock(new ManualClock(new Date(Date.now() - 3_600_000)), { databaseUrl: db.url });
      try {
        const created = (await t.gql(CREATE, { input: { kind: 'backgammon', timeControl: { kind: 'FISCHER', baseSeconds: 10 } } })).data.createGame;
        const clock = (await t.gql('query($id: ID!) { game(id: $id) { clock { deadline } } }', { id: created.game.id })).data.game.clock;
        expect(new Date(clock.deadline).getTime()).toBeLessThan(Date.now());
      } finally {
        await t.close();
      }
      const before = await count(db.url, 'SELECT count(*)::int AS n FROM events');
      const { stdout } = await verifyAll({ DATABASE_URL: db.url });
      expect(stdout).toMatch(/^1 games and 0 tournaments checked in .* s: every one verifies$/m);
      expect(await count(db.url, 'SELECT count(*)::int AS n FROM events')).toBe(before);
    } finally {
      await db.drop();
    }
  },
  120_000,
);

it("the embedded database: a copy of the stopped service's data folder verifies, every game and tournament", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-backup-data-'));
  const copy = mkdtempSync(join(tmpdir(), 'arbiter-backup-copy-'));
  try {
    await fill({ databaseUrl: null, dataDir });
    cpSync(dataDir, copy, { recursive: true });
    const { stdout } = await verifyAll({ DATA_DIR: copy, DATABASE_URL: '' });
    expect(stdout).toMatch(/^4 games and 1 tournaments checked in .* s: every one verifies$/m);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  }
}, 300_000);
