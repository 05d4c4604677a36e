import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { chainEvents, type DraftEvent, emptyHead, eventHash, GENESIS_HASH, type StoredEvent } from '../../src/referee/core/stream.js';
import { AppendConflict, type GameHead, type NewGame, type SeatClaim, type SeatRow } from '../../src/referee/store/event-store.js';
import { PostgresEventStore } from '../../src/referee/store/postgres-event-store.js';

/**
 * The PostgreSQL event store on a real database: PostgreSQL when TEST_DATABASE_URL is set (a
 * database shared between runs, so every id and token hash is random and the games are deleted
 * afterwards), else a fresh embedded PGlite in a temporary folder. Only the store and its
 * DatabaseService are built, not the Nest application.
 *
 * No test assumes anything about timing: racing calls are issued together and the assertions
 * only ask that exactly one wins, whichever it is, and that the database holds the winner's rows.
 */

const url = process.env.TEST_DATABASE_URL || null;
const backend = url ? 'postgresql' : 'pglite';
let dataDir: string | null = null;
let db: DatabaseService;
let store: PostgresEventStore;
const createdIds: string[] = [];

beforeAll(async () => {
  Logger.overrideLogger(['error']);
  dataDir = url ? null : mkdtempSync(join(tmpdir(), 'arbiter-int-'));
  const config = { ...loadConfig({ LOG_LEVEL: 'error' }), databaseUrl: url, dataDir: dataDir ?? './data' };
  db = new DatabaseService(config);
  await db.connect();
  store = new PostgresEventStore(db);
});

afterAll(async () => {
  try {
    // The shared PostgreSQL database keeps nothing of this run (seats and events cascade).
    if (url && db?.pool && createdIds.length > 0) await db.pool.query('DELETE FROM games WHERE id = ANY($1)', [createdIds]);
  } finally {
    await db?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------------
// Rows

const randomHex = () => createHash('sha256').update(randomUUID()).digest('hex');
const newId = (label: string) => {
  const id = `int-${label}-${randomUUID()}`;
  createdIds.push(id);
  return id;
};

function draft(type: string, payload: Record<string, unknown> = {}, extra: Partial<DraftEvent> = {}): DraftEvent {
  return { type, actor: null, moveId: null, bodyHash: null, payload, createdAt: new Date().toISOString(), ...extra };
}

/** A command's drafts: the first carries a fresh move id and body hash, like an accepted move. */
function move(actor: number, label: string, count = 1): DraftEvent[] {
  return Array.from({ length: count }, (_, i) =>
    i === 0 ? draft('Played', { label, i }, { actor, moveId: `m-${randomUUID()}`, bodyHash: randomHex() }) : draft('Drawn', { label, i, values: [i, i + 1] }),
  );
}

const headAfter = (events: StoredEvent[]) => ({ version: events.at(-1)!.seq, lastHash: events.at(-1)!.hash });
const gameHead = (events: StoredEvent[], status: GameHead['status'] = 'ACTIVE', result: unknown = null): GameHead => ({ status, version: events.at(-1)!.seq, hash: events.at(-1)!.hash, result });

function newGame(id: string, events: StoredEvent[], status: NewGame['status'] = 'ACTIVE'): NewGame {
  const serverSeed = randomHex();
  return {
    id,
    kind: 'duel',
    status,
    version: events.length,
    headHash: events.at(-1)?.hash ?? null,
    ruleset: { hand: 3, variant: 'int' },
    rulesetHash: randomHex(),
    seedCommitment: createHash('sha256').update(serverSeed).digest('hex'),
    serverSeed,
    randomSource: 'fair',
    suppliedChance: null,
    imported: false,
    result: null,
  };
}

const takenSeat = (index: number): SeatRow => ({ index, name: `p${index}`, tokenHash: randomHex(), clientSeed: randomHex().slice(0, 16) });
const openSeat = (index: number): SeatRow => ({ index, name: null, tokenHash: null, clientSeed: null });

interface Created {
  id: string;
  game: NewGame;
  seats: SeatRow[];
  events: StoredEvent[];
}

/** Creates a game whose stream holds `count` events (a creation, then moves), both seats taken unless given. */
async function createGame(label: string, count = 1, seats: SeatRow[] = [takenSeat(0), takenSeat(1)], status: NewGame['status'] = 'ACTIVE'): Promise<Created> {
  const id = newId(label);
  const drafts = [draft('GameCreated', { kind: 'duel', seats: seats.length }), ...Array.from({ length: count - 1 }, (_, i) => move(i % 2, `${label}-${i}`)[0])];
  const events = chainEvents(id, emptyHead(), drafts);
  const game = newGame(id, events, status);
  await store.createGame(game, seats, events);
  return { id, game, seats, events };
}

/** Whether a stored stream is a well-formed chain: seq 1.., each prevHash the previous hash, each hash recomputed. */
function expectChained(id: string, events: StoredEvent[]): void {
  let prev = GENESIS_HASH;
  events.forEach((e, i) => {
    expect(e.seq).toBe(i + 1);
    expect(e.prevHash).toBe(prev);
    expect(eventHash(id, e)).toBe(e.hash);
    prev = e.hash;
  });
}

/** Settles every promise and says which resolved and which rejected (with what). */
async function settle(promises: Promise<void>[]): Promise<{ won: number[]; lost: { index: number; reason: unknown }[] }> {
  const outcomes = await Promise.allSettled(promises);
  const won: number[] = [];
  const lost: { index: number; reason: unknown }[] = [];
  for (const [index, o] of outcomes.entries()) {
    if (o.status === 'fulfilled') won.push(index);
    else lost.push({ index, reason: o.reason });
  }
  return { won, lost };
}

/** Wraps the pool's query to record the game ids of every append statement the store sends. */
function recordAppendStatements(): { statements: string[][]; restore(): void } {
  const pool = db.pool;
  const original = pool.query;
  const statements: string[][] = [];
  pool.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as { text?: string; values?: unknown[] } | string;
    if (typeof q === 'object' && q?.text?.includes('INSERT INTO events') && q.text.includes('UPDATE games')) {
      statements.push((JSON.parse(q.values?.[1] as string) as { id: string }[]).map((h) => h.id));
    }
    return (original as (...a: unknown[]) => unknown).apply(pool, args);
  } as typeof pool.query;
  return {
    statements,
    restore: () => {
      pool.query = original;
    },
  };
}

// ---------------------------------------------------------------------------------------------

describe(`PostgresEventStore on ${backend}`, () => {
  describe('compare-and-set on the stream version', () => {
    // One store queues both appends into its writer; two stores (two service instances on one
    // database) send both statements at once, so the primary key itself decides.
    it.each([
      ['one store', () => [store, store] as const],
      ['two store instances', () => [store, new PostgresEventStore(db)] as const],
    ])('two appends at the same version (%s): exactly one is stored, the other is an AppendConflict', async (_, stores) => {
      const g = await createGame('race', 2);
      const [s1, s2] = stores();
      // Different lengths, so the stored version names the winner.
      const a = chainEvents(g.id, headAfter(g.events), move(0, 'a', 1));
      const b = chainEvents(g.id, headAfter(g.events), move(1, 'b', 3));
      expect(a[0].seq).toBe(3);
      expect(b[0].seq).toBe(3);

      const { won, lost } = await settle([s1.append(g.id, a, gameHead(a)), s2.append(g.id, b, gameHead(b, 'FINISHED', { winner: 1 }))]);

      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0].reason).toBeInstanceOf(AppendConflict);
      const winner = won[0] === 0 ? a : b;
      const stored = await store.events(g.id);
      expect(stored).toEqual([...g.events, ...winner]);
      expectChained(g.id, stored);
      expect(await store.version(g.id)).toBe(winner.at(-1)!.seq);
      const row = await store.game(g.id);
      expect(row?.version).toBe(winner.at(-1)!.seq);
      expect(row?.headHash).toBe(winner.at(-1)!.hash);
      expect(row?.status).toBe(winner === a ? 'ACTIVE' : 'FINISHED');
      expect(row?.result).toEqual(winner === a ? null : { winner: 1 });
    });

    it('the loser can append after reloading the new version', async () => {
      const g = await createGame('retry', 1);
      const a = chainEvents(g.id, headAfter(g.events), move(0, 'a'));
      const b = chainEvents(g.id, headAfter(g.events), move(1, 'b'));
      const { won, lost } = await settle([store.append(g.id, a, gameHead(a)), store.append(g.id, b, gameHead(b))]);
      expect([won.length, lost.length]).toEqual([1, 1]);
      const stored = await store.events(g.id);
      const retry = chainEvents(g.id, headAfter(stored), move(1, 'b-again'));
      await store.append(g.id, retry, gameHead(retry));
      expect(await store.events(g.id)).toEqual([...stored, ...retry]);
      expect(await store.version(g.id)).toBe(3);
    });
  });

  describe('group commit', () => {
    it('writes a group of appends for many games and refuses only the one that lost its race', async () => {
      const games = await Promise.all(Array.from({ length: 21 }, (_, i) => createGame(`group-${i}`, 1)));
      const [contested, ...others] = games;
      // seq 2 of the contested game is taken before the group is sent.
      const first = chainEvents(contested.id, headAfter(contested.events), move(0, 'first', 1));
      await store.append(contested.id, first, gameHead(first));

      const appends = others.map((g, i) => chainEvents(g.id, headAfter(g.events), move(i % 2, `valid-${i}`, 2)));
      // The loser expects version 1 (seq 2 is taken) and brings a second event at the free seq 3:
      // none of it may be stored.
      const loser = chainEvents(contested.id, headAfter(contested.events), move(1, 'loser', 2));
      expect(loser.map((e) => e.seq)).toEqual([2, 3]);

      const recorder = recordAppendStatements();
      let outcome: Awaited<ReturnType<typeof settle>>;
      try {
        // All issued in the same tick: the first goes out alone, the rest queue behind it and are
        // written as one group; the loser is in the middle of that group.
        const calls = appends.map((events, i) => () => store.append(others[i].id, events, gameHead(events)));
        calls.splice(10, 0, () => store.append(contested.id, loser, gameHead(loser, 'FINISHED', { winner: 1 })));
        outcome = await settle(calls.map((call) => call()));
      } finally {
        recorder.restore();
      }

      // The loser was sent in a statement together with other games' appends (the group path).
      expect(recorder.statements.some((ids) => ids.length > 1 && ids.includes(contested.id))).toBe(true);

      expect(outcome.lost.map((l) => l.index)).toEqual([10]);
      expect(outcome.lost[0].reason).toBeInstanceOf(AppendConflict);
      expect(outcome.won).toHaveLength(20);

      for (const [i, g] of others.entries()) {
        const stored = await store.events(g.id);
        expect(stored).toEqual([...g.events, ...appends[i]]);
        expectChained(g.id, stored);
        expect(await store.version(g.id)).toBe(3);
        expect((await store.game(g.id))?.version).toBe(3);
      }
      // Nothing of the loser: not its seq 2, not its free seq 3, not its head.
      expect(await store.events(contested.id)).toEqual([...contested.events, ...first]);
      expect(await store.events(contested.id, 2)).toEqual([]);
      expect(await store.version(contested.id)).toBe(2);
      const row = await store.game(contested.id);
      expect(row?.version).toBe(2);
      expect(row?.status).toBe('ACTIVE');
      expect(row?.result).toBeNull();
    });
  });

  describe('seat claims', () => {
    it.each([
      ['one store', () => [store, store] as const],
      ['two store instances', () => [store, new PostgresEventStore(db)] as const],
    ])('two joins claiming the same open seat (%s): exactly one gets it', async (_, stores) => {
      const host = takenSeat(0);
      const g = await createGame('join', 1, [host, openSeat(1)], 'WAITING');
      const [s1, s2] = stores();
      const claims: SeatClaim[] = [
        { index: 1, name: 'alice', tokenHash: randomHex(), clientSeed: 'seed-alice' },
        { index: 1, name: 'bob', tokenHash: randomHex(), clientSeed: 'seed-bob' },
      ];
      const joined = claims.map((c) => chainEvents(g.id, headAfter(g.events), [draft('PlayerJoined', { seat: 1, name: c.name }, { actor: 1 })]));
      expect(joined.map((e) => e[0].seq)).toEqual([2, 2]);

      const { won, lost } = await settle([s1.join(g.id, joined[0], gameHead(joined[0], 'ACTIVE'), claims[0]), s2.join(g.id, joined[1], gameHead(joined[1], 'ACTIVE'), claims[1])]);

      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0].reason).toBeInstanceOf(AppendConflict);
      const w = won[0];
      const l = 1 - w;
      const row = await store.game(g.id);
      expect(row?.version).toBe(2);
      expect(row?.status).toBe('ACTIVE');
      expect(row?.seats).toHaveLength(2);
      expect(row?.seats[0]).toMatchObject({ index: 0, name: host.name, tokenHash: host.tokenHash, clientSeed: host.clientSeed });
      expect(row?.seats[1]).toMatchObject({ index: 1, name: claims[w].name, tokenHash: claims[w].tokenHash, clientSeed: claims[w].clientSeed });
      expect(await store.events(g.id)).toEqual([...g.events, ...joined[w]]);
      expect(await store.version(g.id)).toBe(2);
      expect(await store.seatByTokenHash(claims[w].tokenHash)).toEqual({ gameId: g.id, index: 1 });
      expect(await store.seatByTokenHash(claims[l].tokenHash)).toBeNull();
      expect(await store.seatByTokenHash(host.tokenHash!)).toEqual({ gameId: g.id, index: 0 });
    });
  });

  describe('a join of a seat already taken', () => {
    it('stores nothing, even when its events would fit the stream', async () => {
      const host = takenSeat(0);
      const g = await createGame('taken', 1, [host, takenSeat(1)], 'WAITING');
      const claim: SeatClaim = { index: 1, name: 'late', tokenHash: randomHex(), clientSeed: null };
      const events = chainEvents(g.id, headAfter(g.events), [draft('PlayerJoined', { seat: 1, name: 'late' }, { actor: 1 })]);
      await expect(store.join(g.id, events, gameHead(events, 'ACTIVE'), claim)).rejects.toBeInstanceOf(AppendConflict);
      expect(await store.events(g.id)).toEqual(g.events);
      expect(await store.version(g.id)).toBe(1);
      expect(await store.seatByTokenHash(claim.tokenHash)).toBeNull();
    });
  });

  describe('createGame', () => {
    it('stores the game row, its seats and its first events', async () => {
      const g = await createGame('create', 3, [takenSeat(0), openSeat(1)]);
      const row = await store.game(g.id);
      expect(row).toMatchObject({ ...g.game });
      expect(row?.createdAt).toBeInstanceOf(Date);
      expect(row?.seats).toHaveLength(2);
      for (const [i, s] of g.seats.entries()) expect(row?.seats[i]).toMatchObject({ ...s });
      expect(await store.events(g.id)).toEqual(g.events);
      expect(await store.version(g.id)).toBe(3);
      expect(await store.seatByTokenHash(g.seats[0].tokenHash!)).toEqual({ gameId: g.id, index: 0 });
    });

    it('a second createGame with the same id fails and leaves the first intact', async () => {
      const g = await createGame('dup', 2);
      const before = await store.game(g.id);
      const otherSeats = [takenSeat(0), takenSeat(1), takenSeat(2)];
      const otherEvents = chainEvents(g.id, emptyHead(), [draft('GameCreated', { kind: 'duel', seats: 3, other: true }), ...move(2, 'other', 3)]);
      const other = { ...newGame(g.id, otherEvents, 'FINISHED'), kind: 'other', result: { winner: 2 } };

      await expect(store.createGame(other, otherSeats, otherEvents)).rejects.toBeInstanceOf(AppendConflict);

      expect(await store.game(g.id)).toEqual(before);
      expect(await store.events(g.id)).toEqual(g.events);
      expect(await store.version(g.id)).toBe(2);
      for (const s of otherSeats) expect(await store.seatByTokenHash(s.tokenHash!)).toBeNull();
    });

    it('is atomic: a createGame whose seat token is taken stores no game row and no events', async () => {
      const existing = await createGame('token-owner', 1);
      const id = newId('token-clash');
      const seats = [takenSeat(0), { ...takenSeat(1), tokenHash: existing.seats[1].tokenHash }];
      const events = chainEvents(id, emptyHead(), [draft('GameCreated', { kind: 'duel' }), ...move(0, 'x', 2)]);

      await expect(store.createGame(newGame(id, events), seats, events)).rejects.toBeDefined();

      expect(await store.game(id)).toBeNull();
      expect(await store.version(id)).toBeNull();
      expect(await store.events(id)).toEqual([]);
      expect(await store.seatByTokenHash(seats[0].tokenHash!)).toBeNull();
      expect(await store.seatByTokenHash(existing.seats[1].tokenHash!)).toEqual({ gameId: existing.id, index: 1 });
    });

    it("stores a long stream (an imported record's) in several statements, so that others' queries run between them", async () => {
      const id = newId('long');
      const events = chainEvents(id, emptyHead(), [draft('GameCreated', { kind: 'duel' }), ...Array.from({ length: 999 }, (_, i) => move(i % 2, `long-${i}`)[0])]);
      // Every statement of the pool's connections (Prisma's transactions included) goes through its Client class.
      const sent = jest.spyOn((db.pool as unknown as { Client: typeof pg.Client }).Client.prototype, 'query');
      try {
        await store.createGame(newGame(id, events), [takenSeat(0), takenSeat(1)], events);
        const inserts = sent.mock.calls.filter(([q]) => /INSERT INTO events/.test(typeof q === 'string' ? q : ((q as { text?: string }).text ?? '')));
        expect(inserts.length).toBeGreaterThan(1);
      } finally {
        sent.mockRestore();
      }
      expect(await store.events(id)).toEqual(events);
      expect(await store.version(id)).toBe(1000);
    });

    it('stores a long stream all or nothing: a statement failing after others stores no game, seat or event', async () => {
      const id = newId('long-failed');
      const drafts = [draft('GameCreated', { kind: 'duel' }), ...Array.from({ length: 999 }, (_, i) => move(i % 2, `failed-${i}`)[0])];
      // The last event cannot be stored (no such time): its statement fails after the first ones succeeded.
      drafts[999] = { ...drafts[999], createdAt: 'not a time' };
      const events = chainEvents(id, emptyHead(), drafts);
      const seats = [takenSeat(0), takenSeat(1)];

      await expect(store.createGame(newGame(id, events), seats, events)).rejects.toBeDefined();

      expect(await store.game(id)).toBeNull();
      expect(await store.events(id)).toEqual([]);
      expect(await store.seatByTokenHash(seats[0].tokenHash!)).toBeNull();
    });
  });

  describe('events(afterSeq, limit, untilSeq)', () => {
    let g: Created;
    beforeAll(async () => {
      g = await createGame('paging', 1);
      // Appended in three commands, so the stream spans several writes.
      let stream = g.events;
      for (const [actor, count] of [
        [0, 3],
        [1, 4],
        [0, 2],
      ]) {
        const more = chainEvents(g.id, headAfter(stream), move(actor, `p${actor}-${count}`, count));
        await store.append(g.id, more, gameHead(more));
        stream = [...stream, ...more];
      }
      g.events = stream;
    });
    const seqs = (events: StoredEvent[]) => events.map((e) => e.seq);
    const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

    it('returns the whole stream in order, exactly as written', async () => {
      const all = await store.events(g.id);
      expect(seqs(all)).toEqual(range(1, 10));
      expect(all).toEqual(g.events);
      expectChained(g.id, all);
    });

    it.each([
      // afterSeq, limit, untilSeq, expected seqs
      [0, undefined, undefined, range(1, 10)],
      [3, undefined, undefined, range(4, 10)],
      [0, 4, undefined, range(1, 4)],
      [3, 4, undefined, range(4, 7)],
      [8, 4, undefined, range(9, 10)],
      [0, undefined, 5, range(1, 5)],
      [2, undefined, 6, range(3, 6)],
      [2, 2, 6, range(3, 4)],
      [2, 10, 6, range(3, 6)],
      [5, undefined, 5, []],
      [6, undefined, 5, []],
      [10, undefined, undefined, []],
      [12, 3, undefined, []],
      [0, undefined, 100, range(1, 10)],
    ] as [number, number | undefined, number | undefined, number[]][])('events(after %p, limit %p, until %p)', async (after, limit, until, expected) => {
      const page = await store.events(g.id, after, limit, until);
      expect(seqs(page)).toEqual(expected);
      expect(page).toEqual(g.events.filter((e) => expected.includes(e.seq)));
    });

    it('pages through the stream with a cursor', async () => {
      const pages: number[][] = [];
      for (let after = 0; ; ) {
        const page = await store.events(g.id, after, 3);
        if (page.length === 0) break;
        pages.push(seqs(page));
        after = page.at(-1)!.seq;
      }
      expect(pages).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]]);
    });

    it('returns nothing for an unknown game', async () => {
      expect(await store.events(`int-none-${randomUUID()}`)).toEqual([]);
    });
  });
});

describe(`prepared statement names on ${backend}`, () => {
  (url ? it : it.skip)('keeps within the 63 characters PostgreSQL keeps: a longer name (a move with a clock, players and webhooks) ends in a hash of the whole', async () => {
    const long = 'append-events-deadlines-set-player_games-player_feed-webhook_messages';
    const name = db.statementName(long)!;
    expect(name).toHaveLength(63);
    expect(name.startsWith(long.slice(0, 46))).toBe(true);
    expect(db.statementName(`${long}-x`)).not.toBe(name);
    expect(db.statementName('read-events')).toBe('read-events');
    // PostgreSQL takes it as it is: prepared under the name, and run again by it.
    for (let i = 0; i < 2; i++) expect((await db.pool.query({ name: db.statementName(`${long}-select-${'y'.repeat(20)}`), text: 'SELECT 1 AS one' })).rows).toEqual([{ one: 1 }]);
  });
});
