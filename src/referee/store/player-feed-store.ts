import { EventEmitter } from 'node:events';
import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';
import { type ProjectionSql, ProjectionWriters } from './projections.js';

/** A notice for one player, to store: `dedupeKey` stores the same notice once, whoever writes it and however often. */
export interface FeedRow {
  playerId: string;
  /** Unique among all the feed's rows, e.g. `game <id> <version> <type> <seat>`. */
  dedupeKey: string;
  /** Dotted, as the webhooks' types: game.your_turn, challenge.received, ... */
  type: string;
  data: Record<string, unknown>;
  /** When what it tells of happened (the event's time). */
  createdAt: Date;
}

/** A stored notice as a reader gets it: `id` is its cursor (opaque), to resume after it. */
export interface FeedItem {
  id: string;
  type: string;
  createdAt: Date;
  data: Record<string, unknown>;
}

/** Where a reader stands in a player's feed: the writing transaction's id and the row's. */
export interface FeedCursor {
  xid: string;
  id: string;
}

/** What a read found: the rows after the cursor that may be served, and whether later rows are held back (see PlayerFeedStore.after). */
export interface FeedPage {
  items: FeedItem[];
  /** Rows of the player are committed but not servable yet (an older transaction still runs): read again soon. */
  held: boolean;
  /** The page is as long as asked for: more may follow at once. */
  full: boolean;
}

/** The projection of the players' feed: a game's notices, stored with the events that make them. */
export const PLAYER_FEED = 'player_feed';

/** What runs a parameterised statement inside a transaction: Prisma's interactive transaction client has it. */
export interface RawExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/**
 * Stores notices inside another aggregate's transaction (a challenge's): they commit with it or
 * not at all. Call `PlayerFeedStore.written(rows)` after the commit to wake this instance's
 * readers at once (the others find them by polling).
 */
export async function insertFeedRows(tx: RawExecutor, rows: readonly FeedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRawUnsafe(INSERT_SQL, feedRowsJson(rows));
}

/**
 * The `player_feed` table: per player, the notices meant for them. A game's notices are written
 * by the event store in the statement that appends (or creates) the game (PLAYER_FEED_SQL,
 * registered here); other aggregates write theirs in their own transactions (insertFeedRows).
 * Readers are woken on this instance by `written`, and poll for the other instances' rows.
 */
@Injectable()
export class PlayerFeedStore {
  private readonly bell = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly db: DatabaseService,
    writers: ProjectionWriters,
  ) {
    writers.register(PLAYER_FEED_SQL);
  }

  /** Stores notices in a statement of their own. */
  async write(rows: readonly FeedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.pool.query({ name: this.db.statementName('write-player-feed'), text: INSERT_SQL, values: [feedRowsJson(rows)] });
    this.written(rows);
  }

  /** Rows were committed: their players' readers on this instance read at once. */
  written(rows: readonly Pick<FeedRow, 'playerId'>[]): void {
    for (const playerId of new Set(rows.map((r) => r.playerId))) this.bell.emit(playerId);
  }

  /** Calls `wake` each time rows of `player` are committed on this instance, until the returned function is called. */
  onWritten(playerId: string, wake: () => void): () => void {
    this.bell.on(playerId, wake);
    return () => void this.bell.off(playerId, wake);
  }

  /**
   * At most `limit` of the player's notices after `after` (from the first without it), in the
   * order no later commit can break: only rows of transactions older than every transaction
   * still running are served (below the snapshot's xmin), by (xid, id).
   */
  async after(playerId: string, after: FeedCursor | null, limit: number): Promise<FeedPage> {
    const { rows } = await this.db.pool.query<{ xid: string; id: string; type: string; created_at: Date; data: Record<string, unknown>; held: boolean }>({
      name: this.db.statementName('read-player-feed'),
      text: READ_SQL,
      values: [playerId, after?.xid ?? '0', after?.id ?? '0', limit],
    });
    const items = rows.filter((r) => r.id !== null).map((r) => ({ id: cursorText({ xid: r.xid, id: r.id }), type: r.type, createdAt: r.created_at, data: r.data }));
    return { items, held: rows[0]?.held ?? false, full: items.length === limit };
  }
}

/** A cursor as readers hold it: the transaction's id and the row's, in decimal. */
export const cursorText = (c: FeedCursor): string => `${c.xid}-${c.id}`;

/** The cursor `text` is, or null when it is none `cursorText` makes. */
export function cursorOf(text: string): FeedCursor | null {
  const m = /^(\d{1,20})-(\d{1,19})$/.exec(text);
  if (!m || BigInt(m[1]) >= 2n ** 64n || BigInt(m[2]) >= 2n ** 63n) return null;
  return { xid: m[1], id: m[2] };
}

const COLUMNS = 'player_id, dedupe_key, type, data, created_at';

function feedRowsJson(rows: readonly FeedRow[]): string {
  return JSON.stringify(rows.map((r) => ({ player_id: r.playerId, dedupe_key: r.dedupeKey, type: r.type, data: r.data, created_at: r.createdAt.toISOString() })));
}

// ON CONFLICT DO NOTHING: a notice stored already (by a retry, or twice in one group) is skipped, never a failed append.
const insertInto = (param: string) => `INSERT INTO player_feed (${COLUMNS})
  SELECT ${COLUMNS} FROM jsonb_to_recordset(${param}::jsonb) AS t(player_id text, dedupe_key text, type text, data jsonb, created_at timestamptz)
  ON CONFLICT (dedupe_key) DO NOTHING`;

const INSERT_SQL = insertInto('$1');

const PLAYER_FEED_SQL: ProjectionSql<FeedRow> = {
  projection: PLAYER_FEED,
  parameter: (rows) => ({ variant: '', value: feedRowsJson(rows) }),
  ctes: (param) => `player_feed_set AS (${insertInto(param)})`,
};

/**
 * The servable rows after the cursor, and whether the player has rows not servable yet; one
 * row with null id when there are none to serve (so `held` is always answered).
 */
const READ_SQL = `
WITH horizon AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
page AS (
  SELECT f.xid::text AS xid, f.id::text AS id, f.type, f.created_at, f.data
  FROM player_feed f, horizon h
  WHERE f.player_id = $1 AND (f.xid, f.id) > ($2::text::xid8, $3::bigint) AND f.xid < h.xmin
  ORDER BY f.xid, f.id LIMIT $4
)
SELECT p.*, EXISTS (SELECT 1 FROM player_feed f, horizon h WHERE f.player_id = $1 AND f.xid >= h.xmin) AS held
FROM (SELECT 1) one LEFT JOIN page p ON true
ORDER BY p.xid::xid8, p.id::bigint`;
