import { Injectable, Optional } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';
import type { StoredEvent } from '../core/stream.js';
import { AppendConflict } from './event-store.js';
import { insertGames, transactionTimeout } from './game-creation-sql.js';
import { type EventRecord, isUniqueViolation, storedEvent } from './postgres-event-store.js';
import { eventRow } from './stream-events-sql.js';
import { checkWriters, ProjectionWriters, projectionParts } from './projections.js';
import { type TournamentExtras, type TournamentHead, type TournamentRow, TournamentStore } from './tournament-store.js';

/**
 * The tournaments' storage on PostgreSQL. An append is one transaction at an expected version:
 * the (tournament_id, seq) key and the head's version refuse a racing writer, which stores
 * nothing, not even its games or the rows its events imply.
 */
@Injectable()
export class PostgresTournamentStore extends TournamentStore {
  constructor(
    private readonly db: DatabaseService,
    /** The projections: a scheduled game's creation writes its rows (see insertGames), and so do the tournament's own events. */
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

  /**
   * Without games, ONE statement, as a game's append: the events' insert, the head's move, the
   * participants and the rows the events imply in data-modifying CTEs, committed atomically in a
   * single round trip; the (tournament_id, seq) key is the compare-and-set, and a racing writer
   * stores nothing. A pairing's games (many events) go in one transaction after that statement.
   */
  async append(id: string, events: StoredEvent[], head: TournamentHead, extras: TournamentExtras = {}): Promise<void> {
    const games = extras.games ?? [];
    checkWriters(this.writers, extras.consequences ?? []);
    const { name, text, values } = this.appendStatement(id, events, head, extras);
    try {
      if (games.length === 0) {
        await this.db.pool.query({ name: this.db.statementName(name), text, values });
        return;
      }
      await this.db.prisma.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe(text, ...values);
          await insertGames(tx, this.writers, games);
        },
        { timeout: transactionTimeout(events.length + games.reduce((n, g) => n + g.events.length, 0)) },
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppendConflict('version taken');
      throw err;
    }
  }

  /** The statement appending `events` with the participants they register and the rows they imply (its name tells its variants apart). */
  private appendStatement(id: string, events: StoredEvent[], head: TournamentHead, { participants = [], consequences = [] }: TournamentExtras) {
    const values: unknown[] = [JSON.stringify(events.map((e) => eventRow(e, id))), id, head.version, head.hash, head.status];
    const ctes: string[] = [];
    let name = 'append-tournament';
    if (participants.length > 0) {
      values.push(JSON.stringify(participants.map((p) => ({ id: p.id, registration_no: p.registrationNo, name: p.name, token_hash: p.tokenHash }))));
      ctes.push(participantsCte(`$${values.length}`));
      name += '-participants';
    }
    const projected = projectionParts(this.writers, consequences, values);
    name += projected.name;
    let text = appendTexts.get(name);
    if (text === undefined) appendTexts.set(name, (text = `WITH ${[APPEND_EVENTS_CTE, ...ctes, ...projected.ctes].join(', ')}${MOVE_HEAD_SQL}`));
    return { name, text, values };
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

/** The participants a registration stores ($2: the tournament's id; `param`: their rows). */
const participantsCte = (param: string) => `participants_registered AS (
INSERT INTO participants (id, tournament_id, registration_no, name, token_hash)
SELECT p.id, $2::text, p.registration_no, p.name, p.token_hash
FROM jsonb_to_recordset(${param}::jsonb) AS p(id text, registration_no int, name text, token_hash text)
)`;

/** The texts of the append statements by name: a name always has the same text (it is prepared under it). */
const appendTexts = new Map<string, string>();

const INSERT_EVENTS_SQL = `
INSERT INTO tournament_events (tournament_id, seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash)
SELECT t.game_id, t.seq, t.type, t.actor, t.move_id, t.body_hash, t.payload, t.created_at, t.prev_hash, t.hash
FROM jsonb_to_recordset($1::jsonb) AS t(game_id text, seq int, type text, actor int, move_id text, body_hash text,
                                        payload jsonb, created_at timestamptz, prev_hash text, hash text)`;

/** The events ($1), whose (tournament_id, seq) key refuses a racing writer's: the whole statement fails with it. */
const APPEND_EVENTS_CTE = `ins AS (${INSERT_EVENTS_SQL}
  RETURNING 1
)`;

/** The head's move ($2: id, $3: version, $4: hash, $5: status), once the events are in. */
const MOVE_HEAD_SQL = `
UPDATE tournaments SET version = $3, head_hash = $4, status = $5, updated_at = now() WHERE id = $2 AND EXISTS (SELECT 1 FROM ins)`;
