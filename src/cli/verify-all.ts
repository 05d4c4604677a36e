/**
 * `npm run verify:all`: verifies every game and every tournament in the database the service is
 * configured with (DATABASE_URL, or PGlite in DATA_DIR: stop the service first, PGlite has one
 * user), as after restoring a backup (docs/high-availability.md, "Backups"). A game: its hash
 * chain, every random outcome from its seed and every action through its engine (verifyGame); a
 * tournament: its bundle checked offline, as `npm run verify` does, with every game in it.
 * Prints each failure and the counts; exits 1 on any failure, 2 on a configuration error.
 */
import { DatabaseService } from '../database/database.service.js';
import { verifyTournamentBundle } from '../referee/core/tournament/audit.js';
import { EngineRegistry, RefereeService, TournamentService } from '../referee/index.js';
import { runWithService } from './with-service.js';

runWithService(async (app) => {
  const started = performance.now();
  const ids = async (table: 'games' | 'tournaments') => (await app.get(DatabaseService).pool.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);
  let failed = 0;
  const games = await ids('games');
  for (const id of games) {
    const verdict = await app.get(RefereeService).verify(id);
    if (verdict.ok) continue;
    failed++;
    process.stdout.write(`INVALID game ${id}: ${verdict.summary}\n`);
  }
  const tournaments = await ids('tournaments');
  for (const id of tournaments) {
    const verdict = verifyTournamentBundle(app.get(EngineRegistry), await app.get(TournamentService).bundle(id));
    if (verdict.ok) continue;
    failed++;
    process.stdout.write(`INVALID tournament ${id}: ${verdict.summary}\n`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  process.stdout.write(`${games.length} games and ${tournaments.length} tournaments checked in ${seconds} s: ${failed === 0 ? 'every one verifies' : `${failed} do not`}\n`);
  return failed === 0 ? 0 : 1;
});
