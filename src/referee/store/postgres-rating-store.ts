import { Injectable, Optional } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';
import type { GameRatedPayload, PlayerRating, RatedGame } from '../core/rating/pool.js';
import type { StoredEvent } from '../core/stream.js';
import { AppendConflict } from './event-store.js';
import { type EventRecord, isUniqueViolation, storedEvent } from './postgres-event-store.js';
import { eventRow, insertStreamEventsSql, readStreamEventsSql } from './stream-events-sql.js';
import { type ProjectionSql, ProjectionWriters } from './projections.js';
import { type BoardCursor, type QueuedGame, RATING_QUEUE, type RatingChangeRow, type RatingRow, RatingStore } from './rating-store.js';

/** A game's end writes its queue row in the statement that stores the end (the games' consequence). */
const RATING_QUEUE_SQL: ProjectionSql<QueuedGame> = {
  projection: RATING_QUEUE,
  parameter: (rows) => ({ variant: '', value: JSON.stringify(rows.map((r) => ({ game_id: r.id, game: r.game }))) }),
  ctes: (param) => `rating_queue_add AS (
  INSERT INTO rating_queue (game_id, game)
  SELECT t.game_id, t.game FROM jsonb_to_recordset(${param}::jsonb) AS t(game_id text, game jsonb)
  ON CONFLICT (game_id) DO NOTHING
)`,
};

interface RatingRecord {
  pool_id: string;
  player_id: string;
  name: string | null;
  kind: string;
  family: string;
  rating: number;
  rd: number;
  volatility: number | null;
  games: number;
  last_at: Date | null;
  seq: number;
}

interface ChangeRecord {
  pool_id: string;
  seq: number;
  player_id: string;
  game_id: string;
  seat: number;
  place: number;
  before: PlayerRating;
  after: PlayerRating;
  created_at: Date;
}

const ratingRow = (r: RatingRecord): RatingRow => ({
  poolId: r.pool_id,
  playerId: r.player_id,
  name: r.name,
  kind: r.kind,
  family: r.family,
  rating: Number(r.rating),
  rd: Number(r.rd),
  volatility: r.volatility === null ? null : Number(r.volatility),
  games: r.games,
  lastAt: r.last_at?.toISOString() ?? null,
  seq: r.seq,
});

const changeRow = (r: ChangeRecord): RatingChangeRow => ({
  poolId: r.pool_id,
  seq: r.seq,
  playerId: r.player_id,
  gameId: r.game_id,
  seat: r.seat,
  place: r.place,
  before: r.before,
  after: r.after,
  createdAt: r.created_at,
});

const RATING_COLUMNS = 'r.pool_id, r.player_id, a.name, r.kind, r.family, r.rating, r.rd, r.volatility, r.games, r.last_at, r.seq';
const CHANGE_COLUMNS = 'pool_id, seq, player_id, game_id, seat, place, before, after, created_at';

/** The ratings on PostgreSQL: a pool's events, the ratings and changes they set and the game's queue row gone, in one transaction. */
@Injectable()
export class PostgresRatingStore extends RatingStore {
  constructor(
    private readonly db: DatabaseService,
    @Optional() writers: ProjectionWriters = new ProjectionWriters(),
  ) {
    super();
    if (!writers.has(RATING_QUEUE)) writers.register(RATING_QUEUE_SQL);
  }

  async append(pool: { id: string; kind: string; family: string }, events: StoredEvent[], rated: GameRatedPayload): Promise<void> {
    const last = events[events.length - 1];
    const rated_at = last.createdAt;
    try {
      await this.db.prisma.$transaction(async (tx) => {
        if (events[0].seq === 1) {
          await tx.$executeRawUnsafe('INSERT INTO rating_pools (id, kind, family, version, head_hash) VALUES ($1, $2, $3, $4, $5)', pool.id, pool.kind, pool.family, last.seq, last.hash);
        } else {
          const moved = await tx.$executeRawUnsafe(
            'UPDATE rating_pools SET version = $2, head_hash = $3, updated_at = now() WHERE id = $1 AND version = $4',
            pool.id,
            last.seq,
            last.hash,
            events[0].seq - 1,
          );
          if (moved !== 1) throw new AppendConflict('version taken');
        }
        await tx.$executeRawUnsafe(INSERT_EVENTS_SQL, JSON.stringify(events.map((e) => eventRow(e, pool.id))));
        const seats = rated.seats;
        await tx.$executeRawUnsafe(
          `INSERT INTO ratings (pool_id, player_id, kind, family, rating, rd, volatility, games, last_at, seq)
           SELECT $1, t.player, $2, $3, (t.after->>'rating')::float8, (t.after->>'rd')::float8, (t.after->>'volatility')::float8,
                  (t.after->>'games')::int, (t.after->>'lastAt')::timestamptz, $4
           FROM jsonb_to_recordset($5::jsonb) AS t(player text, after jsonb)
           ON CONFLICT (pool_id, player_id) DO UPDATE SET rating = EXCLUDED.rating, rd = EXCLUDED.rd, volatility = EXCLUDED.volatility,
             games = EXCLUDED.games, last_at = EXCLUDED.last_at, seq = EXCLUDED.seq`,
          pool.id,
          pool.kind,
          pool.family,
          last.seq,
          JSON.stringify(seats),
        );
        await tx.$executeRawUnsafe(
          `INSERT INTO rating_changes (pool_id, seq, player_id, game_id, seat, place, before, after, created_at)
           SELECT $1, $2, t.player, $3, t.seat, t.place, t.before, t.after, $4::timestamptz
           FROM jsonb_to_recordset($5::jsonb) AS t(player text, seat int, place int, before jsonb, after jsonb)`,
          pool.id,
          last.seq,
          rated.gameId,
          rated_at,
          JSON.stringify(seats),
        );
        await tx.$executeRawUnsafe('DELETE FROM rating_queue WHERE game_id = $1', rated.gameId);
      });
    } catch (err) {
      if (err instanceof AppendConflict) throw err;
      if (isUniqueViolation(err)) throw new AppendConflict('version taken');
      throw err;
    }
  }

  async events(poolId: string, afterSeq = 0): Promise<StoredEvent[]> {
    const { rows } = await this.db.pool.query<EventRecord>(READ_EVENTS_SQL, [poolId, afterSeq]);
    return rows.map(storedEvent);
  }

  async versions(ids: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await this.db.pool.query<{ id: string; version: number }>('SELECT id, version FROM rating_pools WHERE id = ANY($1::text[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  async pools(): Promise<string[]> {
    const { rows } = await this.db.pool.query<{ id: string }>('SELECT id FROM rating_pools ORDER BY id');
    return rows.map((r) => r.id);
  }

  async queued(limit: number): Promise<QueuedGame[]> {
    const { rows } = await this.db.pool.query<{ game_id: string; game: RatedGame }>('SELECT game_id, game FROM rating_queue ORDER BY id LIMIT $1', [limit]);
    return rows.map((r) => ({ id: r.game_id, game: r.game }));
  }

  async dequeue(gameId: string): Promise<void> {
    await this.db.pool.query('DELETE FROM rating_queue WHERE game_id = $1', [gameId]);
  }

  async ratingsOf(playerId: string): Promise<RatingRow[]> {
    const { rows } = await this.db.pool.query<RatingRecord>(`SELECT ${RATING_COLUMNS} FROM ratings r LEFT JOIN accounts a ON a.id = r.player_id WHERE r.player_id = $1 ORDER BY r.kind, r.family`, [
      playerId,
    ]);
    return rows.map(ratingRow);
  }

  async board(poolId: string, first: number, after?: BoardCursor): Promise<RatingRow[]> {
    const { rows } = await this.db.pool.query<RatingRecord>(
      `SELECT ${RATING_COLUMNS} FROM ratings r LEFT JOIN accounts a ON a.id = r.player_id
       WHERE r.pool_id = $1 AND ($2::float8 IS NULL OR r.rating < $2::float8 OR (r.rating = $2::float8 AND r.player_id > $3::text))
       ORDER BY r.rating DESC, r.player_id LIMIT $4`,
      [poolId, after?.rating ?? null, after?.playerId ?? null, first],
    );
    return rows.map(ratingRow);
  }

  async history(playerId: string, poolId: string, first: number, beforeSeq?: number): Promise<RatingChangeRow[]> {
    const { rows } = await this.db.pool.query<ChangeRecord>(
      `SELECT ${CHANGE_COLUMNS} FROM rating_changes WHERE player_id = $1 AND pool_id = $2 AND ($3::int IS NULL OR seq < $3::int) ORDER BY seq DESC LIMIT $4`,
      [playerId, poolId, beforeSeq ?? null, first],
    );
    return rows.map(changeRow);
  }

  async changesOfGame(gameId: string): Promise<RatingChangeRow[]> {
    const { rows } = await this.db.pool.query<ChangeRecord>(`SELECT ${CHANGE_COLUMNS} FROM rating_changes WHERE game_id = $1 ORDER BY seat`, [gameId]);
    return rows.map(changeRow);
  }
}

const INSERT_EVENTS_SQL = insertStreamEventsSql('rating_events', 'pool_id');
const READ_EVENTS_SQL = readStreamEventsSql('rating_events', 'pool_id');
