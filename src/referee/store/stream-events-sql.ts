import type { StoredEvent } from '../core/stream.js';

/**
 * The statement that stores a batch of a stream's events (accounts', challenges'): one JSON
 * parameter ($1) of eventRow()s, whose `game_id` is the stream's id, into `table` under `idColumn`.
 */
export const insertStreamEventsSql = (table: string, idColumn: string): string => `
INSERT INTO ${table} (${idColumn}, seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash)
SELECT t.game_id, t.seq, t.type, t.actor, t.move_id, t.body_hash, t.payload, t.created_at, t.prev_hash, t.hash
FROM jsonb_to_recordset($1::jsonb) AS t(game_id text, seq int, type text, actor int, move_id text, body_hash text,
                                        payload jsonb, created_at timestamptz, prev_hash text, hash text)`;

/** The statement that reads a stream's events after a seq ($1: the stream's id, $2: the seq), in order, from `table`. */
export const readStreamEventsSql = (table: string, idColumn: string): string =>
  `SELECT seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash FROM ${table} WHERE ${idColumn} = $1 AND seq > $2 ORDER BY seq`;

/** An event as a row of the JSON parameter of insertStreamEventsSql (and of the games' statements): `gameId` is its stream's id. */
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
