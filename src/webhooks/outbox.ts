import type { ProjectionSql } from '../referee/index.js';

/** The webhooks' projection of the games' appends: the messages they cause (the outbox). */
export const WEBHOOK_OUTBOX = 'webhook_messages';

/**
 * A notification to deliver (a webhook message), stored with the events that caused it in the
 * same statement: it exists exactly when they do. Messages of one (webhook, game) are delivered
 * in (seq, n) order.
 */
export interface OutboxMessage {
  /** Stable: the receiver's deduplication key (webhook-id). */
  id: string;
  webhookId: string;
  gameId: string;
  seq: number;
  n: number;
  type: string;
  /** The body to sign and send. */
  payload: unknown;
  /** When it was caused (ISO 8601): due from then on. */
  createdAt: string;
}

/**
 * Stores outbox messages given as JSON rows (`outboxRows`) in parameter `param`. A message for a
 * registration that is gone (deleted since it was cached) is dropped; one whose id is stored
 * already is left as it is. A message never refuses a move.
 */
export const insertOutboxSql = (param: string) => `
  INSERT INTO webhook_messages (id, webhook_id, game_id, seq, n, type, payload, created_at, next_attempt_at)
  SELECT o.id, o.webhook_id, o.game_id, o.seq, o.n, o.type, o.payload, o.created_at, o.created_at
  FROM jsonb_to_recordset(${param}::jsonb) AS o(id text, webhook_id text, game_id text, seq int, n int, type text, payload jsonb, created_at timestamptz)
  WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.id = o.webhook_id)
  ORDER BY o.game_id, o.seq, o.n
  ON CONFLICT (id) DO NOTHING`;

export const outboxRows = (outbox: readonly OutboxMessage[]) =>
  JSON.stringify(outbox.map((m) => ({ id: m.id, webhook_id: m.webhookId, game_id: m.gameId, seq: m.seq, n: m.n, type: m.type, payload: m.payload, created_at: m.createdAt })));

/** The outbox's writer in the event store's append: the messages go in the statement that stores their events. */
export const OUTBOX_SQL: ProjectionSql<OutboxMessage> = {
  projection: WEBHOOK_OUTBOX,
  parameter: (rows) => ({ variant: '', value: outboxRows(rows) }),
  ctes: (param) => `outbox AS (${insertOutboxSql(param)})`,
};
