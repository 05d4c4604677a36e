import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../database/database.service.js';
import { KeyedLock } from '../referee/index.js';
import type { PlayerRegistrations } from './challenge-notifications.js';
import type { TournamentRegistrations } from './tournament-notifications.js';
import type { NotificationStore, Registration, RegistrationChange, WebhookEvent } from './notifications.js';
import { insertOutboxSql, type OutboxMessage, outboxRows } from './outbox.js';

/** A registration as stored. */
export interface WebhookRow extends Registration {
  url: string;
  secret: string;
  ownerTokenHash: string;
  createdAt: Date;
  /** Attempts in a row that got no answer in time. */
  timeouts: number;
  /** Since when nothing is tried (after SUSPEND_AFTER_TIMEOUTS timeouts in a row), until its owner resumes it. */
  suspendedAt: Date | null;
}

/** A message claimed for one delivery attempt, with where it goes and how it is signed. */
export interface ClaimedMessage {
  id: string;
  webhookId: string;
  payload: unknown;
  /** This attempt's number, from 1. */
  attempt: number;
  createdAt: Date;
  url: string;
  secret: string;
  /** Where it goes: the URL's host and port, as written. */
  destination: string;
  /** Its registration's owner (the token's hash). */
  owner: string;
  /** Its registration's timeouts in a row before this attempt. */
  timeouts: number;
}

/** What one instance has in flight, per destination and per owner, and the most each may have. */
export interface InFlight {
  byDestination: Record<string, number>;
  byOwner: Record<string, number>;
  perDestination: number;
  perOwner: number;
}

/** What an attempt says of its registration's receiver: it timed out (paused until then), it answered or refused (null), or nothing (interrupted). */
export type EndpointOutcome = { timedOut: true; pausedUntil: Date; suspendAfter: number } | { timedOut: false } | null;

/** How an attempt went: delivered, to be tried again at `retryAt`, or given up. */
export type AttemptOutcome = { status: number | null; error: string | null; at: Date } & ({ delivered: true } | { delivered: false; retryAt: Date | null });

/** One message of a registration's delivery log. */
export interface DeliveryRow {
  position: string;
  id: string;
  type: string;
  gameId: string;
  seq: number;
  createdAt: Date;
  attempts: number;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
}

/** A registration to store (its creation time is the database's). */
export type NewWebhook = Omit<WebhookRow, 'createdAt' | 'timeouts' | 'suspendedAt'>;

/** The webhooks' tables (prisma/migrations/*_webhooks): registrations, their outbox and its log. */
@Injectable()
export class WebhookStore implements NotificationStore, PlayerRegistrations, TournamentRegistrations {
  private readonly scopes = new KeyedLock();

  constructor(private readonly db: DatabaseService) {}

  async registrationsFor(gameId: string, tournamentId: string | null, playerIds: readonly string[]): Promise<Registration[]> {
    const { rows } = await this.db.pool.query<RegistrationRecord>({
      name: this.db.statementName('webhooks-for-game'),
      text: `SELECT ${REGISTRATION_COLUMNS} FROM webhooks WHERE game_id = $1 OR tournament_id = $2 OR player_id = ANY($3::text[])`,
      values: [gameId, tournamentId, playerIds],
    });
    return rows.map(registration);
  }

  async playerRegistrations(playerIds: readonly string[]): Promise<Registration[]> {
    const { rows } = await this.db.pool.query<RegistrationRecord>({
      name: this.db.statementName('webhooks-for-players'),
      text: `SELECT ${REGISTRATION_COLUMNS} FROM webhooks WHERE player_id = ANY($1::text[])`,
      values: [playerIds],
    });
    return rows.map(registration);
  }

  async tournamentRegistrations(tournamentId: string, playerIds: readonly string[]): Promise<Registration[]> {
    const { rows } = await this.db.pool.query<RegistrationRecord>({
      name: this.db.statementName('webhooks-for-tournament'),
      text: `SELECT ${REGISTRATION_COLUMNS} FROM webhooks WHERE tournament_id = $1 OR player_id = ANY($2::text[])`,
      values: [tournamentId, playerIds],
    });
    return rows.map(registration);
  }

  async changes(after: Date | null): Promise<{ any: boolean; changes: RegistrationChange[] }> {
    const { rows } = await this.db.pool.query<{ any: boolean; changes: { id: string; game_id: string | null; tournament_id: string | null; player_id: string | null; at: string }[] | null }>({
      name: this.db.statementName('webhook-changes'),
      text: `SELECT EXISTS (SELECT 1 FROM webhooks) AS any,
        (SELECT json_agg(c ORDER BY c.id) FROM webhook_changes c WHERE $1::timestamptz IS NULL OR c.at > $1::timestamptz) AS changes`,
      values: [after?.toISOString() ?? null],
    });
    const changes = (rows[0].changes ?? []).map((c) => ({ id: String(c.id), gameId: c.game_id, tournamentId: c.tournament_id, playerId: c.player_id, at: new Date(c.at) }));
    return { any: rows[0].any, changes };
  }

  async enqueue(messages: readonly OutboxMessage[]): Promise<void> {
    await this.db.pool.query(insertOutboxSql('$1'), [outboxRows(messages)]);
  }

  /**
   * Stores a registration unless its scope has `limit` already; false then. Registrations for one
   * scope are counted and stored one at a time: in this process they wait in a queue per scope
   * (not each on a pooled connection), and across processes on the scope's transaction-scoped
   * advisory lock; without both, registrations made at once all counted the same rows and stored
   * past the limit.
   */
  async create(w: NewWebhook, limit: number): Promise<boolean> {
    const scope = JSON.stringify([w.gameId, w.seat, w.tournamentId, w.participantId, w.playerId]);
    return this.scopes.run(scope, async () => {
      const client = await this.db.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhooks:${scope}`]);
        const { rowCount } = await client.query(
          `INSERT INTO webhooks (id, url, secret, events, low_time_thresholds, game_id, seat, tournament_id, participant_id, owner_token_hash, player_id)
           SELECT $1, $2, $3, $4::text[], $5::int[], $6, $7::int, $8, $9, $10, $12
           WHERE (SELECT count(*) FROM webhooks WHERE game_id IS NOT DISTINCT FROM $6 AND seat IS NOT DISTINCT FROM $7::int
                  AND tournament_id IS NOT DISTINCT FROM $8 AND participant_id IS NOT DISTINCT FROM $9 AND player_id IS NOT DISTINCT FROM $12) < $11`,
          [w.id, w.url, w.secret, w.events, w.lowTimeThresholdsSeconds, w.gameId, w.seat, w.tournamentId, w.participantId, w.ownerTokenHash, limit, w.playerId],
        );
        await client.query('COMMIT');
        return rowCount === 1;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    });
  }

  async get(id: string): Promise<WebhookRow | null> {
    const { rows } = await this.db.pool.query<RegistrationRecord & { url: string; secret: string; owner_token_hash: string; created_at: Date; timeouts: number; suspended_at: Date | null }>(
      `SELECT ${REGISTRATION_COLUMNS}, url, secret, owner_token_hash, created_at, timeouts, suspended_at FROM webhooks WHERE id = $1`,
      [id],
    );
    const r = rows[0];
    return r ? { ...registration(r), url: r.url, secret: r.secret, ownerTokenHash: r.owner_token_hash, createdAt: r.created_at, timeouts: r.timeouts, suspendedAt: r.suspended_at } : null;
  }

  async setSecret(id: string, secret: string): Promise<void> {
    await this.db.pool.query('UPDATE webhooks SET secret = $2 WHERE id = $1', [id, secret]);
  }

  /** Lifts a suspension and the backoff: the registration's pending messages are due at once. */
  async resume(id: string): Promise<void> {
    await this.db.pool.query(
      `WITH due AS (UPDATE webhook_messages SET next_attempt_at = now() WHERE webhook_id = $1 AND delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at > now())
       UPDATE webhooks SET timeouts = 0, paused_until = NULL, suspended_at = NULL WHERE id = $1`,
      [id],
    );
  }

  /** Deletes a registration and its messages (delivered or not). */
  async delete(id: string): Promise<void> {
    await this.db.pool.query('WITH gone AS (DELETE FROM webhook_messages WHERE webhook_id = $1) DELETE FROM webhooks WHERE id = $1', [id]);
  }

  /**
   * Claims up to `limit` messages due at `now`, each the first undelivered one of its (webhook,
   * game), for one attempt each, leased until `leaseUntil`. Other instances skip the rows locked
   * here and, once this commits, see them leased: a message is delivered by one instance at a
   * time, and the next of its (webhook, game) only once it is delivered or given up. A lease
   * left by a process that died runs out, and the message is claimed again.
   *
   * Fairly: no destination or owner gets more than its share of `inFlight` (counting what is in
   * flight already), the owners with the fewest in flight go first (then the longest due), and a
   * registration paused after a timeout, or suspended, waits.
   */
  async claim(now: Date, leaseUntil: Date, limit: number, inFlight: InFlight): Promise<ClaimedMessage[]> {
    const { rows } = await this.db.pool.query<{
      id: string;
      webhook_id: string;
      payload: unknown;
      attempts: number;
      created_at: Date;
      url: string;
      secret: string;
      owner_token_hash: string;
      timeouts: number;
      destination: string;
    }>({
      name: this.db.statementName('claim-webhook-messages'),
      text: CLAIM_SQL,
      values: [now.toISOString(), leaseUntil.toISOString(), limit, JSON.stringify(inFlight.byDestination), JSON.stringify(inFlight.byOwner), inFlight.perOwner, inFlight.perDestination],
    });
    return rows.map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      payload: r.payload,
      attempt: r.attempts,
      createdAt: r.created_at,
      url: r.url,
      secret: r.secret,
      destination: r.destination,
      owner: r.owner_token_hash,
      timeouts: r.timeouts,
    }));
  }

  /**
   * Records an attempt, unless the message was claimed again since (its lease ran out): that
   * attempt records its own. With it, what it says of the receiver: a timeout counts one more in
   * a row and pauses the registration (suspends it at `suspendAfter` in a row); any answer sets
   * the count back to 0.
   */
  async record(message: ClaimedMessage, outcome: AttemptOutcome, endpoint: EndpointOutcome): Promise<void> {
    const done = outcome.delivered ? outcome.at : null;
    const failed = !outcome.delivered && outcome.retryAt === null ? outcome.at : null;
    const next = !outcome.delivered && outcome.retryAt ? outcome.retryAt : outcome.at;
    await this.db.pool.query({
      name: this.db.statementName('record-webhook-attempt'),
      text: RECORD_SQL,
      values: [
        message.id,
        message.attempt,
        outcome.at.toISOString(),
        outcome.status,
        outcome.error,
        done?.toISOString() ?? null,
        failed?.toISOString() ?? null,
        next.toISOString(),
        endpoint?.timedOut ?? null,
        endpoint?.timedOut ? endpoint.pausedUntil.toISOString() : null,
        endpoint?.timedOut ? endpoint.suspendAfter : null,
      ],
    });
  }

  /**
   * Makes a registration's message due now (redelivery): one waiting for its next attempt, given
   * up, or delivered already (sent again, with the same webhook-id). A registration's backoff
   * after a timeout is lifted too; a suspension is not (resume). Null when it has no such message.
   */
  async redeliver(webhookId: string, messageId: string): Promise<DeliveryRow | null> {
    const { rows } = await this.db.pool.query<DeliveryRecord>(
      `WITH unpaused AS (UPDATE webhooks SET paused_until = NULL WHERE id = $1 AND EXISTS (SELECT 1 FROM webhook_messages WHERE id = $2 AND webhook_id = $1))
       UPDATE webhook_messages SET next_attempt_at = LEAST(next_attempt_at, now()), delivered_at = NULL, failed_at = NULL
       WHERE id = $2 AND webhook_id = $1 RETURNING ${DELIVERY_COLUMNS}`,
      [webhookId, messageId],
    );
    return rows[0] ? delivery(rows[0]) : null;
  }

  /** A registration's messages, newest first, `first` at most, older than the cursor `before`. */
  async deliveries(webhookId: string, first: number, before: string | null): Promise<DeliveryRow[]> {
    const { rows } = await this.db.pool.query<DeliveryRecord>(
      `SELECT ${DELIVERY_COLUMNS}
       FROM webhook_messages WHERE webhook_id = $1 AND ($2::bigint IS NULL OR position < $2::bigint) ORDER BY position DESC LIMIT $3`,
      [webhookId, before, first],
    );
    return rows.map(delivery);
  }
}

const DELIVERY_COLUMNS = 'position, id, type, game_id, seq, created_at, attempts, last_attempt_at, last_status, last_error, next_attempt_at, delivered_at, failed_at';

interface DeliveryRecord {
  position: string;
  id: string;
  type: string;
  game_id: string;
  seq: number;
  created_at: Date;
  attempts: number;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  failed_at: Date | null;
}

const delivery = (r: DeliveryRecord): DeliveryRow => ({
  position: String(r.position),
  id: r.id,
  type: r.type,
  gameId: r.game_id,
  seq: r.seq,
  createdAt: r.created_at,
  attempts: r.attempts,
  lastAttemptAt: r.last_attempt_at,
  lastStatus: r.last_status,
  lastError: r.last_error,
  nextAttemptAt: r.delivered_at || r.failed_at ? null : r.next_attempt_at,
  deliveredAt: r.delivered_at,
  failedAt: r.failed_at,
});

const REGISTRATION_COLUMNS = 'id, events, low_time_thresholds, game_id, seat, tournament_id, participant_id, player_id';

interface RegistrationRecord {
  id: string;
  events: string[];
  low_time_thresholds: number[];
  game_id: string | null;
  seat: number | null;
  tournament_id: string | null;
  participant_id: string | null;
  player_id: string | null;
}

const registration = (r: RegistrationRecord): Registration => ({
  id: r.id,
  events: r.events as WebhookEvent[],
  lowTimeThresholdsSeconds: r.low_time_thresholds,
  gameId: r.game_id,
  seat: r.seat,
  tournamentId: r.tournament_id,
  participantId: r.participant_id,
  playerId: r.player_id,
});

/** A webhook URL's host and port as written (the URL is stored normalized): the unit of the per-destination share. */
const DESTINATION = "substring(w.url from '^[a-z]+://([^/?#]+)')";

/** See WebhookStore.claim. A message whose registration is gone is never claimed. */
const CLAIM_SQL = `
WITH heads AS (
  SELECT DISTINCT ON (webhook_id, game_id) id FROM webhook_messages
  WHERE delivered_at IS NULL AND failed_at IS NULL
  ORDER BY webhook_id, game_id, seq, n
), due AS (
  SELECT m.id, m.next_attempt_at,
    row_number() OVER (PARTITION BY w.owner_token_hash ORDER BY m.next_attempt_at) + COALESCE(($5::jsonb ->> w.owner_token_hash)::int, 0) AS owner_rank,
    row_number() OVER (PARTITION BY ${DESTINATION} ORDER BY m.next_attempt_at) + COALESCE(($4::jsonb ->> ${DESTINATION})::int, 0) AS destination_rank
  FROM webhook_messages m JOIN heads h ON h.id = m.id JOIN webhooks w ON w.id = m.webhook_id
  WHERE m.next_attempt_at <= $1 AND w.suspended_at IS NULL AND (w.paused_until IS NULL OR w.paused_until <= $1)
), picked AS (
  SELECT m.id FROM webhook_messages m JOIN due d ON d.id = m.id
  WHERE d.owner_rank <= $6 AND d.destination_rank <= $7 AND m.next_attempt_at <= $1 AND m.delivered_at IS NULL AND m.failed_at IS NULL
  ORDER BY d.owner_rank, d.next_attempt_at LIMIT $3
  FOR UPDATE OF m SKIP LOCKED
)
UPDATE webhook_messages m SET attempts = m.attempts + 1, next_attempt_at = $2
FROM picked, webhooks w
WHERE m.id = picked.id AND w.id = m.webhook_id
RETURNING m.id, m.webhook_id, m.payload, m.attempts, m.created_at, w.url, w.secret, w.owner_token_hash, w.timeouts, ${DESTINATION} AS destination`;

/** See WebhookStore.record: the attempt, and what it says of the registration's receiver ($9 null: nothing). */
const RECORD_SQL = `
WITH attempt AS (
  UPDATE webhook_messages SET last_attempt_at = $3, last_status = $4, last_error = $5, delivered_at = $6, failed_at = $7, next_attempt_at = $8
  WHERE id = $1 AND attempts = $2
  RETURNING webhook_id
)
UPDATE webhooks w SET
  timeouts = CASE WHEN $9::boolean THEN w.timeouts + 1 ELSE 0 END,
  paused_until = CASE WHEN $9::boolean THEN $10::timestamptz END,
  suspended_at = CASE WHEN $9::boolean AND w.timeouts + 1 >= $11::int THEN COALESCE(w.suspended_at, $3::timestamptz) ELSE w.suspended_at END
FROM attempt WHERE w.id = attempt.webhook_id AND $9::boolean IS NOT NULL`;
