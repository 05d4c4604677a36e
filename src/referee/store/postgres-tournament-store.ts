import { Injectable, Optional } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';
import type { StoredEvent } from '../core/stream.js';
import { AppendConflict } from './event-store.js';
import { type EventRecord, eventRow, insertGame, isUniqueViolation, storedEvent, transactionTimeout } from './postgres-event-store.js';
import { insertProjections, ProjectionWriters } from './projections.js';
import { type TournamentExtras, type TournamentHead, type TournamentRow, TournamentStore } from './tournament-store.js';

/**
 * The tournaments' storage on PostgreSQL. An append is one transaction at an expected version:
 * the (tournament_id, seq) key and the head's version refuse a racing writer, which stores
 * nothing, not even its games.
 */
@Injectable()
export class PostgresTournamentStore extends TournamentStore {
  constructor(
    private readonly db: DatabaseService,
    /** The projections: a scheduled game's creation writes its rows (see insertGame), and so do the tournament's own events. */
    @Optional() private readonly writers: ProjectionWriters = new ProjectionWriters(),
  ) {
    super();
  }

  async create(row: Omit<TournamentRow, 'createdAt'>, events: StoredEvent[]): Promise<void> {
    try {
      await this.db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(
          `INSERT INTO tournaments (id, name, kind, format, status, version, head_hash, seed_commitment, seed, organizer_token_hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          row.id,
          row.name,
          row.kind,
          row.format,
          row.status,
          row.version,
          row.headHash,
          row.seedCommitment,
          row.seed,
          row.organizerTokenHash,
        );
        await tx.$executeRawUnsafe(INSERT_EVENTS_SQL, JSON.stringify(events.map((e) => eventRow(e, row.id))));
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppendConflict('the tournament exists');
      throw err;
    }
  }

  async append(id: string, events: StoredEvent[], head: TournamentHead, extras: TournamentExtras = {}): Promise<void> {
    try {
      await this.db.prisma.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe(INSERT_EVENTS_SQL, JSON.stringify(events.map((e) => eventRow(e, id))));
          const moved = await tx.$executeRawUnsafe(
            'UPDATE tournaments SET version = $2, head_hash = $3, status = $4, updated_at = now() WHERE id = $1 AND version = $5',
            id,
            head.version,
            head.hash,
            head.status,
            events[0].seq - 1,
          );
          if (moved !== 1) throw new AppendConflict('version taken');
          for (const p of extras.participants ?? [])
            await tx.$executeRawUnsafe('INSERT INTO participants (id, tournament_id, registration_no, name, token_hash) VALUES ($1, $2, $3, $4, $5)', p.id, id, p.registrationNo, p.name, p.tokenHash);
          for (const g of extras.games ?? []) await insertGame(tx, this.writers, g);
          await insertProjections(tx, this.writers, extras.consequences ?? []);
        },
        { timeout: transactionTimeout(events.length + (extras.games ?? []).reduce((n, g) => n + g.events.length, 0)) },
      );
    } catch (err) {
      if (err instanceof AppendConflict) throw err;
      if (isUniqueViolation(err)) throw new AppendConflict('version taken');
      throw err;
    }
  }

  async tournament(id: string): Promise<TournamentRow | null> {
    return this.db.prisma.tournament.findUnique({ where: { id } });
  }

  async events(id: string, afterSeq = 0, untilSeq?: number): Promise<StoredEvent[]> {
    const { rows } = await this.db.pool.query<EventRecord>(
      'SELECT seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash FROM tournament_events WHERE tournament_id = $1 AND seq > $2 AND ($3::int IS NULL OR seq <= $3) ORDER BY seq',
      [id, afterSeq, untilSeq ?? null],
    );
    return rows.map(storedEvent);
  }

  async versions(ids: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await this.db.pool.query<{ id: string; version: number }>('SELECT id, version FROM tournaments WHERE id = ANY($1::text[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  async unfinished(): Promise<string[]> {
    const { rows } = await this.db.pool.query<{ id: string }>("SELECT id FROM tournaments WHERE status <> 'FINISHED'");
    return rows.map((r) => r.id);
  }

  async participant(tokenHash: string): Promise<{ tournamentId: string; participantId: string } | null> {
    const row = await this.db.prisma.participant.findUnique({ where: { tokenHash }, select: { tournamentId: true, id: true } });
    return row ? { tournamentId: row.tournamentId, participantId: row.id } : null;
  }

  async list(first: number, after?: { createdAt: Date; id: string }): Promise<TournamentRow[]> {
    return this.db.prisma.tournament.findMany({
      where: after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {},
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: first,
    });
  }

  async organizedBy(organizerTokenHash: string): Promise<string | null> {
    const { rows } = await this.db.pool.query<{ id: string }>('SELECT id FROM tournaments WHERE organizer_token_hash = $1', [organizerTokenHash]);
    return rows[0]?.id ?? null;
  }
}

const INSERT_EVENTS_SQL = `
INSERT INTO tournament_events (tournament_id, seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash)
SELECT t.game_id, t.seq, t.type, t.actor, t.move_id, t.body_hash, t.payload, t.created_at, t.prev_hash, t.hash
FROM jsonb_to_recordset($1::jsonb) AS t(game_id text, seq int, type text, actor int, move_id text, body_hash text,
                                        payload jsonb, created_at timestamptz, prev_hash text, hash text)`;
