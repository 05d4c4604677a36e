/**
 * Inbox benchmark: `npm run bench -- bench/inbox.js [--pglite | --postgres URL] [--games 100000]
 * [--mine 1000] [--calls 1000] [--players 10000]`.
 *
 * Fills the players' inbox (the `player_games` table, rows inserted directly: no game is played)
 * with `--games` two-seat games among `--players` players, of which one player holds `--mine`
 * (half of them waiting for it, with deadlines spread over a month, a tenth without a clock),
 * then asks for that player's inbox `--calls` times per query, the way myGames and
 * GET /api/me/games do (PlayerGamesStore.page, a page of 20 and the look-ahead row), and
 * prints p50/p99/max per query: the games waiting for the player (the "my turn" list, the one
 * issue 25 targets at 20 ms p99), its second page, all its games, and its finished games of a
 * kind. The database is a new one (PostgreSQL: a database made for the run on the server of
 * `--postgres`, dropped after; PGlite: a new data folder), migrated as the service migrates it.
 */
import { Logger } from '@nestjs/common';
import { type InboxCursor, type InboxFilter, PlayerGamesStore } from '../src/referee/store/player-games-store.js';
import { ProjectionWriters } from '../src/referee/store/projections.js';
import { benchArgs } from './lib/args.js';
import { benchDatabase } from './lib/database.js';

const { flag, postgresUrl } = benchArgs();
const usePglite = !postgresUrl;
const games = Number(flag('games', '100000'));
const mine = Number(flag('mine', '1000'));
const calls = Number(flag('calls', '1000'));
const playerCount = Number(flag('players', '10000'));
const PAGE = 20;
const ME = 'pl-bench-me';

const out = (s: string) => process.stdout.write(`${s}\n`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * The rows of `games` games, two seats each: the first `mine` have ME in seat 0 (its opponent
 * one of the others), the rest two of the others. Seat 0 is to act in even games, seat 1 in odd
 * ones; a tenth have no clock; deadlines and last moves spread over a month; every fifth game
 * is finished, of one of three kinds.
 */
const SEED_SQL = `
INSERT INTO player_games (player_id, game_id, seat, kind, status, to_act, deadline, version, updated_at)
SELECT CASE WHEN s.seat = 0 AND g.n <= $2 THEN '${ME}' ELSE 'pl-bench-' || ((g.n * 7 + s.seat * 13) % $3) END,
       'g-bench-' || g.n, s.seat, (ARRAY['backgammon', 'cerke', 'chicken-foot'])[1 + g.n % 3],
       CASE WHEN g.n % 5 = 0 THEN 'FINISHED' ELSE 'ACTIVE' END,
       g.n % 5 <> 0 AND g.n % 2 = s.seat,
       CASE WHEN g.n % 5 <> 0 AND g.n % 2 = s.seat AND g.n % 10 <> 1 THEN now() + (g.n % 43200) * interval '1 minute' END,
       10 + g.n % 50, now() - (g.n % 43200) * interval '1 minute'
FROM generate_series($1::int, $4::int) AS g(n), (VALUES (0), (1)) AS s(seat)
ON CONFLICT DO NOTHING`;

async function main(): Promise<void> {
  Logger.overrideLogger(['error']);
  if (![games, mine, calls, playerCount].every((n) => Number.isInteger(n) && n > 0) || mine > games)
    throw new Error('--games, --mine, --calls and --players take whole numbers, --mine at most --games');
  const { db, drop } = await benchDatabase('inbox', postgresUrl);
  try {
    const store = new PlayerGamesStore(db, new ProjectionWriters());
    const seeding = performance.now();
    for (let from = 1; from <= games; from += 10_000) await db.pool.query(SEED_SQL, [from, mine, playerCount, Math.min(games, from + 9_999)]);
    await db.pool.query('ANALYZE player_games');
    const { rows } = await db.pool.query<{ n: string; to_act: string }>(`SELECT count(*) AS n, count(*) FILTER (WHERE to_act) AS to_act FROM player_games WHERE player_id = $1`, [ME]);
    out(
      `Arbiter inbox benchmark: ${usePglite ? 'embedded PGlite' : 'PostgreSQL'}, ${games} games (${2 * games} inbox rows) among ${playerCount} players, seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; ` +
        `the player holds ${rows[0].n}, ${rows[0].to_act} waiting for it; ${calls} calls per query, pages of ${PAGE}`,
    );
    const second = (await store.page(ME, { toAct: true }, PAGE)).at(-1)?.cursor;
    const queries: [string, InboxFilter, InboxCursor | undefined][] = [
      ['toAct: true (my turn, soonest deadline first)', { toAct: true }, undefined],
      ['toAct: true, second page (after)', { toAct: true }, second],
      ['all my games (most recently moved first)', {}, undefined],
      ['status: FINISHED, kind: cerke', { status: 'FINISHED', kind: 'cerke' }, undefined],
    ];
    for (const [name, filter, after] of queries) {
      // Warm: the first calls prepare the statement and read the index into the cache.
      for (let i = 0; i < 20; i++) await store.page(ME, filter, PAGE + 1, after);
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < calls; i++) {
        const started = performance.now();
        found = (await store.page(ME, filter, PAGE + 1, after)).length;
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      out(`  ${name.padEnd(48)} p50 ${percentile(times, 50).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms  max ${times.at(-1)!.toFixed(2)} ms  (${found} rows a call)`);
    }
    const plan = await db.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT * FROM player_games WHERE player_id = $1 AND to_act ORDER BY COALESCE(deadline, 'infinity'::timestamptz), game_id LIMIT 21`,
      [ME],
    );
    out(`  plan of the first: ${plan.rows.map((r) => r['QUERY PLAN'].trim()).join(' / ')}`);
  } finally {
    await drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
