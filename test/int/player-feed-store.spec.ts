import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { cursorOf, type FeedRow, insertFeedRows, PlayerFeedStore } from '../../src/referee/store/player-feed-store.js';
import { ProjectionWriters } from '../../src/referee/store/projections.js';

/**
 * The players' feed on a real database (PostgreSQL with TEST_DATABASE_URL, else a fresh PGlite):
 * a player reads its own notices in the order stored, each once, from any cursor, and never a
 * notice an older transaction may still commit before it.
 */
const url = process.env.TEST_DATABASE_URL || null;
let dataDir: string | null = null;
let db: DatabaseService;
let feed: PlayerFeedStore;
const players: string[] = [];

beforeAll(async () => {
  Logger.overrideLogger(['error']);
  dataDir = url ? null : mkdtempSync(join(tmpdir(), 'arbiter-feed-'));
  db = new DatabaseService({ ...loadConfig({ LOG_LEVEL: 'error' }), databaseUrl: url, dataDir: dataDir ?? './data' });
  await db.connect();
  feed = new PlayerFeedStore(db, new ProjectionWriters());
});

afterAll(async () => {
  try {
    if (url && db?.pool) await db.pool.query('DELETE FROM player_feed WHERE player_id = ANY($1)', [players]);
  } finally {
    await db?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
});

const newPlayer = () => {
  const id = `feed-${randomUUID()}`;
  players.push(id);
  return id;
};
const notice = (playerId: string, n: number, type = 'game.your_turn'): FeedRow => ({
  playerId,
  dedupeKey: `${playerId} ${n} ${type}`,
  type,
  data: { n },
  createdAt: new Date(Date.UTC(2026, 11, 6, 0, 0, n)),
});
const ns = (items: { data: Record<string, unknown> }[]) => items.map((i) => i.data.n);

describe('the players feed (store)', () => {
  it("reads a player's notices in the order stored, none of another player's, and resumes after any id with exactly the rest", async () => {
    const alice = newPlayer();
    const bob = newPlayer();
    await feed.write([notice(alice, 1), notice(bob, 1)]);
    await feed.write([notice(alice, 2), notice(alice, 3, 'game.over')]);
    const all = await feed.after(alice, null, 100);
    expect(ns(all.items)).toEqual([1, 2, 3]);
    expect(all.items.map((i) => i.type)).toEqual(['game.your_turn', 'game.your_turn', 'game.over']);
    expect(all.items[0].createdAt.toISOString()).toBe('2026-12-06T00:00:01.000Z');
    const [first] = all.items;
    expect(ns((await feed.after(alice, cursorOf(first.id), 100)).items)).toEqual([2, 3]);
    expect(ns((await feed.after(alice, cursorOf(all.items[2].id), 100)).items)).toEqual([]);
    const page = await feed.after(alice, null, 2);
    expect(page.full).toBe(true);
    expect(ns(page.items)).toEqual([1, 2]);
  });

  it('stores a notice once, however often it is written (and by another transaction)', async () => {
    const alice = newPlayer();
    await feed.write([notice(alice, 1), notice(alice, 1)]);
    await db.prisma.$transaction((tx) => insertFeedRows(tx, [notice(alice, 1), notice(alice, 2, 'challenge.received')]));
    const { items } = await feed.after(alice, null, 100);
    expect(items.map((i) => [i.data.n, i.type])).toEqual([
      [1, 'game.your_turn'],
      [2, 'challenge.received'],
    ]);
  });

  it("wakes this instance's readers of the player whose notices were written, and only them", async () => {
    const alice = newPlayer();
    const bob = newPlayer();
    const woken: string[] = [];
    const stops = [feed.onWritten(alice, () => woken.push('alice')), feed.onWritten(bob, () => woken.push('bob'))];
    await feed.write([notice(alice, 1)]);
    for (const stop of stops) stop();
    await feed.write([notice(alice, 2)]);
    expect(woken).toEqual(['alice']);
  });

  (url ? it : it.skip)('serves no notice while an older transaction that may still commit one is running (PostgreSQL)', async () => {
    const alice = newPlayer();
    const slow = new pg.Client({ connectionString: url! });
    await slow.connect();
    try {
      // The slow transaction takes its id first, then the fast one commits a later notice.
      await slow.query('BEGIN');
      await slow.query('SELECT pg_current_xact_id()');
      await feed.write([notice(alice, 2)]);
      const early = await feed.after(alice, null, 100);
      expect(early.items).toEqual([]);
      expect(early.held).toBe(true);
      await insertFeedRows({ $executeRawUnsafe: (q, ...v) => slow.query(q, v).then((r) => r.rowCount ?? 0) }, [notice(alice, 1)]);
      await slow.query('COMMIT');
      const late = await feed.after(alice, null, 100);
      expect(ns(late.items)).toEqual([1, 2]);
      expect(late.held).toBe(false);
    } finally {
      await slow.end();
    }
  });
});
