import { Injectable, Optional } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';
import type { StoredEvent } from '../core/stream.js';
import { type ChallengeCursor, type ChallengeFilter, type ChallengeList, type ChallengeRow, ChallengeStore } from './challenge-store.js';
import { AppendConflict, type ConsequenceRows } from './event-store.js';
import { type FeedRow, insertFeedRows } from './player-feed-store.js';
import { type EventRecord, isUniqueViolation, storedEvent } from './postgres-event-store.js';
import { eventRow, insertStreamEventsSql } from './stream-events-sql.js';
import { insertProjections, ProjectionWriters } from './projections.js';

interface ChallengeRecord {
  id: string;
  challenger_id: string;
  challenged_id: string | null;
  kind: string;
  status: string;
  expires_at: Date;
  game_id: string | null;
  version: number;
  head_hash: string;
  created_at: Date;
}

const challengeRow = (r: ChallengeRecord): ChallengeRow => ({
  id: r.id,
  challengerId: r.challenger_id,
  challengedId: r.challenged_id,
  kind: r.kind,
  status: r.status,
  expiresAt: r.expires_at,
  gameId: r.game_id,
  version: r.version,
  headHash: r.head_hash,
  createdAt: r.created_at,
});

/** Challenges on PostgreSQL: each append's events, the row they change, the notices they make and the rows they imply, in one transaction. */
@Injectable()
export class PostgresChallengeStore extends ChallengeStore {
  constructor(
    private readonly db: DatabaseService,
    @Optional() private readonly writers: ProjectionWriters = new ProjectionWriters(),
  ) {
    super();
  }

  async create(row: Omit<ChallengeRow, 'createdAt'>, events: StoredEvent[], notices: readonly FeedRow[], consequences: readonly ConsequenceRows[]): Promise<void> {
    try {
      await this.db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(
          `INSERT INTO challenges (id, challenger_id, challenged_id, kind, status, expires_at, game_id, version, head_hash, created_at)
           VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7, $8, $9, $10::timestamptz)`,
          row.id,
          row.challengerId,
          row.challengedId,
          row.kind,
          row.status,
          row.expiresAt.toISOString(),
          row.gameId,
          row.version,
          row.headHash,
          events[0].createdAt,
        );
        await tx.$executeRawUnsafe(INSERT_EVENTS_SQL, JSON.stringify(events.map((e) => eventRow(e, row.id))));
        await insertFeedRows(tx, notices);
        await insertProjections(tx, this.writers, consequences);
      });
    } catch (err) {
      throw isUniqueViolation(err) ? new AppendConflict('the challenge exists') : err;
    }
  }

  async append(
    id: string,
    events: StoredEvent[],
    head: Pick<ChallengeRow, 'version' | 'headHash' | 'status' | 'gameId'>,
    notices: readonly FeedRow[],
    consequences: readonly ConsequenceRows[],
  ): Promise<void> {
    try {
      await this.db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(INSERT_EVENTS_SQL, JSON.stringify(events.map((e) => eventRow(e, id))));
        const moved = await tx.$executeRawUnsafe(
          'UPDATE challenges SET version = $2, head_hash = $3, status = $4, game_id = $5, updated_at = now() WHERE id = $1 AND version = $6',
          id,
          head.version,
          head.headHash,
          head.status,
          head.gameId,
          events[0].seq - 1,
        );
        if (moved !== 1) throw new AppendConflict('version taken');
        await insertFeedRows(tx, notices);
        await insertProjections(tx, this.writers, consequences);
      });
    } catch (err) {
      if (err instanceof AppendConflict) throw err;
      if (isUniqueViolation(err)) throw new AppendConflict('version taken');
      throw err;
    }
  }

  async events(id: string, afterSeq = 0): Promise<StoredEvent[]> {
    const { rows } = await this.db.pool.query<EventRecord>(
      'SELECT seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash FROM challenge_events WHERE challenge_id = $1 AND seq > $2 ORDER BY seq',
      [id, afterSeq],
    );
    return rows.map(storedEvent);
  }

  async versions(ids: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await this.db.pool.query<{ id: string; version: number }>('SELECT id, version FROM challenges WHERE id = ANY($1::text[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  async page(list: ChallengeList, filter: ChallengeFilter, first: number, after?: ChallengeCursor): Promise<ChallengeRow[]> {
    const values: unknown[] = [];
    const param = (v: unknown) => `$${values.push(v)}`;
    const where: string[] = [];
    if ('incoming' in list) where.push(`challenged_id = ${param(list.incoming)}`);
    else if ('outgoing' in list) where.push(`challenger_id = ${param(list.outgoing)}`);
    else where.push('challenged_id IS NULL', "status = 'OPEN'", `expires_at > ${param(filter.now.toISOString())}::timestamptz`);
    const status = filter.status;
    if (status === 'OPEN') where.push("status = 'OPEN'", `expires_at > ${param(filter.now.toISOString())}::timestamptz`);
    else if (status === 'EXPIRED') where.push("status = 'OPEN'", `expires_at <= ${param(filter.now.toISOString())}::timestamptz`);
    else if (status) where.push(`status = ${param(status)}`);
    if (after) where.push(`(created_at, id) < (${param(after.at)}::timestamptz, ${param(after.id)})`);
    const { rows } = await this.db.pool.query<ChallengeRecord>(
      `SELECT id, challenger_id, challenged_id, kind, status, expires_at, game_id, version, head_hash, created_at FROM challenges
       WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${param(first)}`,
      values,
    );
    return rows.map(challengeRow);
  }

  async acceptedWithoutGame(limit: number): Promise<string[]> {
    const { rows } = await this.db.pool.query<{ id: string }>(
      `SELECT c.id FROM challenges c WHERE c.status = 'ACCEPTED' AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = c.game_id) ORDER BY c.updated_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.id);
  }
}

const INSERT_EVENTS_SQL = insertStreamEventsSql('challenge_events', 'challenge_id');
