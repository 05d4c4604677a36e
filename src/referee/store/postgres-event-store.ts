import { Injectable, type OnModuleDestroy, Optional } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';
import type { StoredEvent } from '../core/stream.js';
import { AppendListener } from './append-listener.js';
import {
  AppendConflict,
  AppendWatchers,
  type AppendWatcher,
  type ConsequenceRows,
  EventStore,
  type GameCursor,
  type GameFilter,
  type GameHead,
  type NewGame,
  type NewGameRows,
  type SeatClaim,
  type SeatRow,
  type StoredGame,
} from './event-store.js';
import { checkWriters, ProjectionWriters, projectionParts, type RawTransaction } from './projections.js';

/**
 * The only code that talks to the database about games. An append is ONE statement: the
 * events' insert, the rows they imply (each projection's, written as its owner registered:
 * ProjectionWriters) and the game rows' update in data-modifying CTEs, so it commits atomically
 * in a single round trip, and the (game_id, seq) primary key is the compare-and-set: a racing
 * writer at the same version violates it and nothing of its append is stored. The move path uses the pg pool under Prisma's adapter
 * directly: Prisma's query interpreter cost more CPU than the statement itself (bench/load.ts).
 */
@Injectable()
export class PostgresEventStore extends EventStore implements OnModuleDestroy {
  private readonly watchers = new AppendWatchers();
  /** On PostgreSQL: the LISTEN connection, while anyone watches. */
  private listener: AppendListener | null = null;

  /** The texts of the append statements by name, made once each: a name always has the same text (it is prepared under it). */
  private readonly appendTexts = new Map<string, string>();

  constructor(
    private readonly db: DatabaseService,
    @Optional() private readonly writers: ProjectionWriters = new ProjectionWriters(),
  ) {
    super();
  }

  /**
   * On PostgreSQL every append is told through the trigger's NOTIFY, to this process and every
   * other. The embedded database has this process only: its appends are told here, directly.
   */
  private get toldHere(): boolean {
    return this.db.kind === 'pglite';
  }

  private told(gameId: string, version: number): void {
    if (this.toldHere) this.watchers.appended(gameId, version);
  }

  async watch(watcher: AppendWatcher): Promise<() => Promise<void>> {
    const remove = this.watchers.add(watcher);
    if (!this.toldHere && !this.listener) {
      this.listener = new AppendListener(() => this.db.listenConfig(), this.watchers);
      await this.listener.start();
    }
    return async () => {
      remove();
      if (this.watchers.size === 0) await this.stopListening();
    };
  }

  private async stopListening(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    await listener?.stop();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stopListening();
  }

  async versions(gameIds: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await this.db.pool.query<{ id: string; version: number }>('SELECT id, version FROM games WHERE id = ANY($1::text[])', [gameIds]);
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  private get prisma() {
    return this.db.prisma;
  }

  /**
   * One statement (one round trip, atomic) for a new game; an imported record's many events go in
   * one transaction, a slice of them per statement (see insertGame).
   */
  async createGame(game: NewGame, seats: SeatRow[], events: StoredEvent[], consequences: readonly ConsequenceRows[] = []): Promise<void> {
    this.checkWriters(consequences);
    await this.createNow(game, seats, events, consequences).catch((err) => {
      throw isUniqueViolation(err) ? new AppendConflict('the game, or one of its seat tokens, exists') : err;
    });
    this.told(game.id, game.version);
  }

  private async createNow(game: NewGame, seats: SeatRow[], events: StoredEvent[], consequences: readonly ConsequenceRows[]) {
    if (events.length <= EVENTS_PER_STATEMENT) {
      const { name, text, values } = createStatement(this.writers, game, seats, events, consequences);
      await this.db.pool.query({ name: this.db.statementName(name), text, values });
      return;
    }
    await this.prisma.$transaction((tx) => insertGame(tx, this.writers, { row: game, seats, events, consequences }), { timeout: transactionTimeout(events.length) });
  }

  /**
   * Appends a move's events at the stream's expected version and moves the game row's head.
   * Appends that arrive while earlier ones are being written are written together, in one
   * statement and one commit (group commit): no wait at low load, far fewer round trips and
   * fsyncs under load. A statement is all-or-nothing, so if any append in a group lost a race,
   * the group is retried one append at a time and only the loser is refused. The rows the
   * events imply go in the same statement, so they commit exactly with their events.
   */
  append(gameId: string, events: StoredEvent[], head: GameHead, consequences: readonly ConsequenceRows[] = []): Promise<void> {
    return new Promise((resolve, reject) => {
      this.checkWriters(consequences);
      this.queue.push({ gameId, events, head, consequences, resolve, reject });
      this.pump();
    });
  }

  /** A join: claims the seat and appends its events in one transaction; a seat already taken stores nothing. */
  async join(gameId: string, events: StoredEvent[], head: GameHead, seat: SeatClaim, consequences: readonly ConsequenceRows[] = []): Promise<void> {
    this.checkWriters(consequences);
    try {
      await this.prisma.$transaction(async (tx) => {
        // The WHERE makes a second claim of the same seat a conflict.
        const claimed = await tx.seat.updateMany({
          where: { gameId, index: seat.index, tokenHash: null, playerId: null },
          data: { name: seat.name, tokenHash: seat.tokenHash, clientSeed: seat.clientSeed, playerId: seat.playerId ?? null, joinedAt: new Date() },
        });
        if (claimed.count !== 1) throw new AppendConflict('seat already taken');
        const { text, values } = this.appendStatement([{ gameId, events, head, consequences }]);
        await tx.$executeRawUnsafe(text, ...values);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppendConflict('version taken');
      throw err;
    }
    this.told(gameId, head.version);
  }

  private readonly queue: PendingAppend[] = [];
  private writing = 0;

  private pump(): void {
    while (this.writing < MAX_CONCURRENT_WRITES && this.queue.length > 0) {
      const group = this.queue.splice(0, MAX_GROUP);
      this.writing++;
      void this.write(group).finally(() => {
        this.writing--;
        this.pump();
      });
    }
  }

  private async write(group: PendingAppend[]): Promise<void> {
    try {
      const { name, text, values } = this.appendStatement(group);
      await this.db.pool.query({ name: this.db.statementName(name), text, values });
      for (const a of group) {
        a.resolve();
        this.told(a.gameId, a.head.version);
      }
    } catch (err) {
      if (isUniqueViolation(err) && group.length > 1) {
        await Promise.all(group.map((a) => this.write([a])));
        return;
      }
      for (const a of group) a.reject(isUniqueViolation(err) ? new AppendConflict('version taken') : err);
    }
  }

  /** Rows no writer was registered for would be lost: the append is refused before anything is written. */
  private checkWriters(consequences: readonly ConsequenceRows[]): void {
    checkWriters(this.writers, consequences);
  }

  /**
   * The statement appending a group: its events and heads ($1, $2), then the rows of each
   * projection some append of the group has rows for, in the writers' order (a game without a
   * clock or registrations pays for neither).
   */
  private appendStatement(group: readonly AppendRows[]): { name: string; text: string; values: unknown[] } {
    const values: unknown[] = [appendRows(group), headRows(group)];
    const projected = projectionParts(
      this.writers,
      group.flatMap((a) => a.consequences),
      values,
    );
    const name = `append-events${projected.name}`;
    let text = this.appendTexts.get(name);
    if (text === undefined) this.appendTexts.set(name, (text = appendSql(projected.ctes)));
    return { name, text, values };
  }

  async game(id: string): Promise<StoredGame | null> {
    const row = await this.prisma.game.findUnique({ where: { id }, include: { seats: { orderBy: { index: 'asc' } } } });
    return row as unknown as StoredGame | null;
  }

  async events(gameId: string, afterSeq = 0, limit?: number, untilSeq?: number): Promise<StoredEvent[]> {
    // Plain pg, like the append: streams are read often and whole, and Prisma's engine costs more.
    const { rows } = await this.db.pool.query<EventRecord>({
      name: this.db.statementName('read-events'),
      text: READ_EVENTS_SQL,
      values: [gameId, afterSeq, untilSeq ?? null, limit ?? null],
    });
    return rows.map(storedEvent);
  }

  async seatByTokenHash(tokenHash: string): Promise<{ gameId: string; index: number } | null> {
    return this.prisma.seat.findUnique({ where: { tokenHash }, select: { gameId: true, index: true } });
  }

  async list(filter: GameFilter, first: number, after?: GameCursor, options: { before?: GameCursor; fromOldest?: boolean } = {}): Promise<StoredGame[]> {
    const { before, fromOldest = false } = options;
    const order = fromOldest ? 'asc' : 'desc';
    const rows = await this.prisma.game.findMany({
      where: {
        ...gameWhere(filter),
        AND: [
          ...(after ? [{ OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] : []),
          ...(before ? [{ OR: [{ createdAt: { gt: before.createdAt } }, { createdAt: before.createdAt, id: { gt: before.id } }] }] : []),
        ],
      },
      orderBy: [{ createdAt: order }, { id: order }],
      take: first,
      include: { seats: { orderBy: { index: 'asc' } } },
    });
    if (fromOldest) rows.reverse();
    return rows as unknown as StoredGame[];
  }

  count(filter: GameFilter): Promise<number> {
    return this.prisma.game.count({ where: gameWhere(filter) });
  }

  async ping(): Promise<void> {
    await this.prisma.$queryRawUnsafe('SELECT 1');
  }
}

const gameWhere = (f: GameFilter) => ({
  kind: f.kind,
  status: f.status,
  imported: f.imported,
  tournamentId: f.tournamentId ?? (f.inTournament === undefined ? undefined : f.inTournament ? { not: null } : null),
  round: f.round,
});

/**
 * A game's row, seats and first events in one statement (also inside a tournament's pairing),
 * with the rows its creation implies (each projection's CTEs, on parameters after $18).
 */
const createSql = (projections: readonly string[]) => `
WITH game AS (
  INSERT INTO games (id, kind, status, version, ruleset, ruleset_hash, seed_commitment, server_seed, random_source,
                     supplied_chance, imported, result, head_hash, tournament_id, round, board)
  VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10::jsonb, $11, $12::jsonb, $15, $16, $17::int, $18::int)
  RETURNING id
), seats AS (
  INSERT INTO seats (game_id, index, name, token_hash, client_seed, joined_at, participant_id, player_id)
  SELECT (SELECT id FROM game), t.index, t.name, t.token_hash, t.client_seed,
         CASE WHEN t.token_hash IS NULL AND t.participant_id IS NULL AND t.player_id IS NULL THEN NULL ELSE now() END, t.participant_id, t.player_id
  FROM jsonb_to_recordset($13::jsonb) AS t(index int, name text, token_hash text, client_seed text, participant_id text, player_id text)
), ins AS (
  INSERT INTO events (game_id, seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash)
  SELECT (SELECT id FROM game), t.seq, t.type, t.actor, t.move_id, t.body_hash, t.payload, t.created_at, t.prev_hash, t.hash
  FROM jsonb_to_recordset($14::jsonb) AS t(seq int, type text, actor int, move_id text, body_hash text, payload jsonb,
                                           created_at timestamptz, prev_hash text, hash text)
  RETURNING 1
)${projections.map((p) => `, ${p}`).join('')}
SELECT count(*) FROM ins`;

/** The texts of the creation statements by name (see createStatement): a name always has the same text. */
const createTexts = new Map<string, string>();

/** The statement creating a game with its first events (at most EVENTS_PER_STATEMENT) and the rows they imply. */
function createStatement(writers: ProjectionWriters, game: NewGame, seats: SeatRow[], events: StoredEvent[], consequences: readonly ConsequenceRows[]) {
  const values = createValues(game, seats, events);
  const projected = projectionParts(writers, consequences, values);
  const name = `create-game${projected.name}`;
  let text = createTexts.get(name);
  if (text === undefined) createTexts.set(name, (text = createSql(projected.ctes)));
  return { name, text, values };
}

/**
 * The rows of each projection some of `consequences` has rows for, in the writers' order, as
 * parameters appended to `values`, and the CTEs writing them; `name` tells the variants apart
 * (a statement is prepared under a name that always means the same text).
 */
const READ_EVENTS_SQL = `
SELECT seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash FROM events
WHERE game_id = $1 AND seq > $2 AND ($3::int IS NULL OR seq <= $3::int) ORDER BY seq LIMIT $4`;

/** An event row as read back. */
export interface EventRecord {
  seq: number;
  type: string;
  actor: number | null;
  move_id: string | null;
  body_hash: string | null;
  payload: unknown;
  created_at: Date;
  prev_hash: string;
  hash: string;
}

/** Events of any games ($1: their rows, eventRow with the game's id). */
const INSERT_EVENTS_SQL = `
  INSERT INTO events (game_id, seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash)
  SELECT t.game_id, t.seq, t.type, t.actor, t.move_id, t.body_hash, t.payload, t.created_at, t.prev_hash, t.hash
  FROM jsonb_to_recordset($1::jsonb) AS t(game_id text, seq int, type text, actor int, move_id text, body_hash text,
                                          payload jsonb, created_at timestamptz, prev_hash text, hash text)`;

const INSERT_EVENTS = `ins AS (${INSERT_EVENTS_SQL}
  RETURNING 1
)`;

/**
 * Events written by one statement when a game starts with many (an imported record): one
 * statement of a hundred thousand would hold the process for seconds (encoding its parameter, and
 * on PGlite, which runs in this thread, executing it); between two of these, others' requests run.
 */
export const EVENTS_PER_STATEMENT = 200;

/**
 * A game's row, seats and events inside the caller's transaction, EVENTS_PER_STATEMENT events a
 * statement, the rows its creation implies with the first: all stored together or, if any
 * statement fails, none.
 */
export async function insertGame(tx: RawTransaction, writers: ProjectionWriters, { row: game, seats, events, consequences = [] }: NewGameRows): Promise<void> {
  checkWriters(writers, consequences);
  const { text, values } = createStatement(writers, game, seats, events.slice(0, EVENTS_PER_STATEMENT), consequences);
  await tx.$executeRawUnsafe(text, ...values);
  for (let from = EVENTS_PER_STATEMENT; from < events.length; from += EVENTS_PER_STATEMENT) {
    await tx.$executeRawUnsafe(INSERT_EVENTS_SQL, JSON.stringify(events.slice(from, from + EVENTS_PER_STATEMENT).map((e) => eventRow(e, game.id))));
  }
}

/** A transaction storing `events` events may take about a millisecond each, and at least 10 s. */
export const transactionTimeout = (events: number) => Math.max(10_000, events);

const MOVE_HEADS = `
UPDATE games SET version = h.version, head_hash = h.head_hash, status = h.status, result = h.result, updated_at = now()
FROM jsonb_to_recordset($2::jsonb) AS h(id text, version int, head_hash text, status text, result jsonb)
WHERE games.id = h.id AND EXISTS (SELECT 1 FROM ins)`;

/**
 * Events of one or more games and their games' new heads in one atomic statement ($1, $2), with
 * the rows they imply (each projection's CTEs, on parameters after): they commit exactly with
 * their events.
 */
const appendSql = (projections: readonly string[]) => `
WITH ${[INSERT_EVENTS, ...projections].join(', ')}${MOVE_HEADS}`;

/**
 * Appends written together at most, and group writes in flight at once: one writer makes the
 * largest groups (fewest commits) while the CPU is the limit, and costs no wait when idle.
 */
const MAX_GROUP = 256;
const MAX_CONCURRENT_WRITES = 1;

/** An append's rows: its events, the game's new head and the rows the events imply. */
interface AppendRows {
  gameId: string;
  events: StoredEvent[];
  head: GameHead;
  consequences: readonly ConsequenceRows[];
}

interface PendingAppend extends AppendRows {
  resolve: () => void;
  reject: (err: unknown) => void;
}

const appendRows = (group: readonly Pick<PendingAppend, 'gameId' | 'events'>[]) => JSON.stringify(group.flatMap((a) => a.events.map((e) => eventRow(e, a.gameId))));

const headRows = (group: readonly Pick<PendingAppend, 'gameId' | 'head'>[]) =>
  JSON.stringify(group.map((a) => ({ id: a.gameId, version: a.head.version, head_hash: a.head.hash, status: a.head.status, result: a.head.result ?? null })));

export function eventRow(e: StoredEvent, gameId?: string) {
  return {
    game_id: gameId,
    seq: e.seq,
    type: e.type,
    actor: e.actor,
    move_id: e.moveId,
    body_hash: e.bodyHash,
    payload: e.payload,
    created_at: e.createdAt,
    prev_hash: e.prevHash,
    hash: e.hash,
  };
}

/** A stored event from its row. */
export const storedEvent = (r: EventRecord): StoredEvent => ({
  seq: r.seq,
  type: r.type,
  actor: r.actor,
  moveId: r.move_id,
  bodyHash: r.body_hash,
  payload: jsonObject(r.payload),
  createdAt: r.created_at.toISOString(),
  prevHash: r.prev_hash,
  hash: r.hash,
});

/** The parameters of createSql. */
function createValues(game: NewGame, seats: SeatRow[], events: StoredEvent[]): unknown[] {
  return [
    game.id,
    game.kind,
    game.status,
    game.version,
    JSON.stringify(game.ruleset),
    game.rulesetHash,
    game.seedCommitment,
    game.serverSeed,
    game.randomSource,
    game.suppliedChance ? JSON.stringify(game.suppliedChance) : null,
    game.imported,
    game.result === null || game.result === undefined ? null : JSON.stringify(game.result),
    JSON.stringify(seats.map((s) => ({ index: s.index, name: s.name, token_hash: s.tokenHash, client_seed: s.clientSeed, participant_id: s.participantId ?? null, player_id: s.playerId ?? null }))),
    JSON.stringify(events.map((e) => eventRow(e))),
    game.headHash,
    game.tournamentId ?? null,
    game.round ?? null,
    game.board ?? null,
  ];
}

/** A stored payload: always an object (every event's is written as one). */
const jsonObject = (json: unknown) => json as Record<string, unknown>;

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } }; message?: string };
  if (e?.code === 'P2002' || e?.code === '23505') return true;
  const cause = e?.meta?.driverAdapterError?.cause;
  return cause?.originalCode === '23505' || cause?.kind === 'UniqueConstraintViolation' || /23505|unique constraint/i.test(e?.message ?? '');
}
