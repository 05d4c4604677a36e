import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { DeadlineStore } from '../../src/referee/store/deadline-store.js';
import { haveCommand } from '../../tools/ha-cluster.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { duel, move } from '../support/duels.js';
import { freePort } from '../support/net.js';
import { ownDatabase } from '../support/own-database.js';
import type { TestApp } from '../support/app.js';
import { CREATE, EVENTS, VERIFY } from '../support/queries.js';

/**
 * Two instances whose pools go through PgBouncer in transaction mode (scripts/ha/pgbouncer), each
 * LISTENing on a direct connection (DATABASE_LISTEN_URL): moves, one instance telling another's
 * subscribers, and a deadline both workers reach at once. PostgreSQL only (TEST_DATABASE_URL);
 * skipped where pgbouncer is not installed (`apt-get install pgbouncer`).
 */
const run = promisify(execFile);
const pgUrl = process.env.TEST_DATABASE_URL;
const ready = pgUrl && haveCommand('pgbouncer');
if (pgUrl && !ready) console.log('skipping the PgBouncer test: pgbouncer missing (apt-get install pgbouncer)');

(ready ? describe : describe.skip)('behind PgBouncer in transaction mode', () => {
  const clock = new ManualClock();
  let folder = '';
  let database: Awaited<ReturnType<typeof ownDatabase>>;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'arbiter-pgbouncer-'));
    database = await ownDatabase('pgbouncer');
    const direct = new URL(database!.url);
    const port = await freePort();
    await run('scripts/ha/pgbouncer', [folder, String(port), direct.hostname, direct.port || '5432', '4'], { timeout: 120_000 });
    const pooled = new URL(direct);
    pooled.port = String(port);
    const settings = { databaseUrl: pooled.toString(), databaseListenUrl: direct.toString() };
    a = await startAppWithClock(clock, settings);
    b = await startAppWithClock(clock, settings);
    // The test ticks the deadline workers itself, both at once.
    for (const app of [a, b]) await app.app.get(RefereeService).deadlines!.stop();
  }, 180_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (folder) await run('scripts/ha/down', [folder]).catch(() => rmSync(folder, { recursive: true, force: true }));
    await database?.drop();
  }, 60_000);

  it('stores moves from both instances over a few pooled server connections, and every game verifies', async () => {
    const games = await Promise.all(Array.from({ length: 6 }, (_, i) => duel((i % 2 ? b : a).gql)));
    // Six games' moves at once, round after round, over 4 server connections: each transaction gets one, then gives it back.
    for (let round = 0; round < 4; round++) await Promise.all(games.map((g, i) => move(((i + round) % 2 ? b : a).gql, g.id, g.tokens)));
    for (const g of games) expect((await a.gql(VERIFY, { gameId: g.id })).data.verifyGame).toMatchObject({ ok: true, eventsChecked: expect.any(Number) });
  });

  it("tells one instance's subscribers the moves stored through the other (LISTEN on the direct connection)", async () => {
    const g = await duel(a.gql);
    const referee = b.app.get(RefereeService);
    const start = (await referee.game(g.id)).version;
    const told: number[] = [];
    referee.bus.on(g.id, (appended: { steps: { event: { seq: number } }[] }) => told.push(...appended.steps.map((s) => s.event.seq)));
    for (let i = 0; i < 3; i++) await move(a.gql, g.id, g.tokens);
    const version = (await a.app.get(RefereeService).game(g.id)).version;
    for (let i = 0; told.length < version - start; i++) {
      if (i > 3000) throw new Error(`told ${told.join(',')} of ${start + 1}..${version}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(told).toEqual(Array.from({ length: version - start }, (_, i) => start + 1 + i));
  });

  it('applies a deadline once when both instances reach it at the same moment', async () => {
    const created = (await a.gql(CREATE, { input: { kind: 'backgammon', timeControl: { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400 } } })).data.createGame;
    expect(created.__typename).toBe('GameCreated');
    await a.app.get(DeadlineStore).flushed();
    clock.advance(3 * 86_400_000);
    await Promise.all([a, b].map((app) => app.app.get(RefereeService).deadlines!.tick()));
    const events = (await b.gql(EVENTS, { gameId: created.game.id })).data.gameEvents.nodes as { type: string }[];
    expect(events.filter((e) => e.type === 'TimedOut')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'GameEnded')).toHaveLength(1);
  });
});
