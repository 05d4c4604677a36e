import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../database/database.service.js';
import { appendLeaves, entryBytes, leafHash, type LogEntry, type LogEntryKind, type NodeId, nodesOfRange, runningKind, type StoredNode, type StreamKind } from '../referee/index.js';

/** An entry as stored: its place in the tree once sequenced. */
export interface StoredEntry extends LogEntry {
  leafIndex: number | null;
}

export interface StoredCheckpoint {
  size: number;
  root: Buffer;
  note: string;
}

/** What one sequencing step did: the tree it left, and the checkpoint it signed (if any). */
export interface Sequenced {
  size: number;
  root: Buffer;
  added: number;
  checkpoint: StoredCheckpoint | null;
}

/** Signs a checkpoint of the tree at `size` with `root`, given the last one stored; null: sign none. */
export type CheckpointSigner = (size: number, root: Buffer, last: StoredCheckpoint | null) => string | null;

interface EntryRecord {
  kind: LogEntryKind;
  stream_id: string;
  seq: number;
  hash: string;
  result: unknown;
  leaf_index: string | null;
}

const SEQUENCER_LOCK = 'arbiter:transparency-log:sequencer';
const entryOf = (r: EntryRecord): StoredEntry => ({
  kind: r.kind,
  id: r.stream_id,
  seq: r.seq,
  hash: r.hash,
  result: r.result ?? null,
  leafIndex: r.leaf_index === null ? null : Number(r.leaf_index),
});
const checkpointOf = (r: { size: string; root: Buffer; note: string }): StoredCheckpoint => ({ size: Number(r.size), root: r.root, note: r.note });

/**
 * The heads of the running games and tournaments that moved since their last leaf, as waiting
 * entries: a head is logged once, whichever instance and tick sees it ((kind, stream, seq) is unique).
 */
const RUNNING_HEADS = `INSERT INTO log_entries (kind, stream_id, seq, hash)
SELECT h.kind, h.id, h.version, h.head_hash FROM (
  SELECT 'running-game' AS kind, id, version, head_hash, updated_at FROM games WHERE status = 'ACTIVE' AND head_hash IS NOT NULL
  UNION ALL
  SELECT 'running-tournament', id, version, head_hash, updated_at FROM tournaments WHERE status = 'RUNNING'
) h
WHERE NOT EXISTS (SELECT 1 FROM log_entries e WHERE e.kind = h.kind AND e.stream_id = h.id AND e.seq = h.version)
ORDER BY h.updated_at, h.id
ON CONFLICT DO NOTHING`;

/** A checkpoint as served: the log's signed note, then its witnesses' cosignature lines. */
const CHECKPOINTS = `SELECT c.size, c.root, c.note || coalesce((SELECT string_agg(s.line, '' ORDER BY s.name, s.key_id) FROM log_cosignatures s WHERE s.size = c.size), '') AS note FROM log_checkpoints c`;

/**
 * The log on PostgreSQL (and PGlite). Entries arrive with the appends that finish their streams
 * (LOG_ENTRIES_SQL); `sequence` gives the waiting ones their leaf indices, in the order they were
 * stored, and stores the perfect subtrees they complete: one transaction, under a
 * transaction-scoped advisory lock (one sequencer at a time over every instance), moving the
 * tree's row only from the size it read (a compare-and-set: never two trees). Leaf indices and
 * node keys are unique, so even a sequencer without the lock could not store a second tree.
 */
@Injectable()
export class LogStore {
  constructor(private readonly db: DatabaseService) {}

  /** Sequences up to `limit` waiting entries, after adding the running heads that moved, and signs a checkpoint of the result (see CheckpointSigner); null: another instance holds the sequencer. */
  async sequence(limit: number, sign: CheckpointSigner): Promise<Sequenced | null> {
    const client = await this.db.pool.connect();
    try {
      await client.query('BEGIN');
      const lock = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [SEQUENCER_LOCK]);
      if (!lock.rows[0].ok) {
        await client.query('ROLLBACK');
        return null;
      }
      await client.query(RUNNING_HEADS);
      const tree = (await client.query<{ size: string; root: Buffer }>('SELECT size, root FROM log_tree WHERE id = 1 FOR UPDATE')).rows[0];
      const size = Number(tree.size);
      const waiting = await client.query<EntryRecord & { id: string }>('SELECT id, kind, stream_id, seq, hash, result, leaf_index FROM log_entries WHERE leaf_index IS NULL ORDER BY id LIMIT $1', [
        limit,
      ]);
      const edge = await this.nodesIn(client, nodesOfRange({ lo: 0, hi: size }));
      const grown = appendLeaves(
        size,
        edge.map((n) => n.hash),
        waiting.rows.map((r) => leafHash(entryBytes(entryOf(r)))),
      );
      if (waiting.rows.length > 0) {
        await client.query(
          "INSERT INTO log_nodes (level, idx, hash) SELECT n.level, n.idx, decode(n.hash_hex, 'hex') FROM unnest($1::smallint[], $2::bigint[], $3::text[]) AS n(level, idx, hash_hex)",
          [grown.nodes.map((n) => n.level), grown.nodes.map((n) => String(n.index)), grown.nodes.map((n) => n.hash.toString('hex'))],
        );
        await client.query('UPDATE log_entries e SET leaf_index = v.idx FROM unnest($1::bigint[], $2::bigint[]) AS v(id, idx) WHERE e.id = v.id', [
          waiting.rows.map((r) => r.id),
          waiting.rows.map((_, i) => String(size + i)),
        ]);
        const moved = await client.query('UPDATE log_tree SET size = $1, root = $2, updated_at = now() WHERE id = 1 AND size = $3', [String(grown.size), grown.root, String(size)]);
        if (moved.rowCount !== 1) throw new Error('the log tree moved under the sequencer');
      }
      const lastRow = (await client.query<{ size: string; root: Buffer; note: string }>('SELECT size, root, note FROM log_checkpoints ORDER BY size DESC LIMIT 1')).rows[0];
      const last = lastRow ? checkpointOf(lastRow) : null;
      let checkpoint: StoredCheckpoint | null = null;
      const note = last?.size === grown.size ? null : sign(grown.size, grown.root, last);
      if (note !== null) {
        checkpoint = { size: grown.size, root: grown.root, note };
        await client.query('INSERT INTO log_checkpoints (size, root, note) VALUES ($1, $2, $3)', [String(grown.size), grown.root, note]);
      }
      await client.query('COMMIT');
      return { size: grown.size, root: grown.root, added: waiting.rows.length, checkpoint };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** The hashes of these perfect nodes (those stored). */
  nodes(ids: readonly NodeId[]): Promise<StoredNode[]> {
    return this.nodesIn(this.db.pool, ids);
  }

  private async nodesIn(client: { query: DatabaseService['pool']['query'] }, ids: readonly NodeId[]): Promise<StoredNode[]> {
    if (ids.length === 0) return [];
    const { rows } = await client.query<{ level: number; idx: string; hash: Buffer }>(
      'SELECT n.level, n.idx, n.hash FROM log_nodes n JOIN unnest($1::smallint[], $2::bigint[]) AS w(level, idx) ON n.level = w.level AND n.idx = w.idx',
      [ids.map((n) => n.level), ids.map((n) => String(n.index))],
    );
    const byKey = new Map(rows.map((r) => [`${r.level}/${r.idx}`, { level: r.level, index: Number(r.idx), hash: r.hash }]));
    return ids.flatMap((n) => byKey.get(`${n.level}/${n.index}`) ?? []);
  }

  /** A stream's final entry. */
  async entry(kind: StreamKind, id: string): Promise<StoredEntry | null> {
    const { rows } = await this.db.pool.query<EntryRecord>('SELECT kind, stream_id, seq, hash, result, leaf_index FROM log_entries WHERE kind = $1 AND stream_id = $2', [kind, id]);
    return rows[0] ? entryOf(rows[0]) : null;
  }

  /** A running stream's latest head in the tree of `treeSize` leaves, at `seq` or before. */
  async runningEntry(kind: StreamKind, id: string, seq: number, treeSize: number): Promise<StoredEntry | null> {
    const { rows } = await this.db.pool.query<EntryRecord>(
      'SELECT kind, stream_id, seq, hash, result, leaf_index FROM log_entries WHERE kind = $1 AND stream_id = $2 AND seq <= $3 AND leaf_index < $4 ORDER BY seq DESC LIMIT 1',
      [runningKind(kind), id, seq, String(treeSize)],
    );
    return rows[0] ? entryOf(rows[0]) : null;
  }

  async entryAt(leafIndex: number): Promise<StoredEntry | null> {
    const { rows } = await this.db.pool.query<EntryRecord>('SELECT kind, stream_id, seq, hash, result, leaf_index FROM log_entries WHERE leaf_index = $1', [String(leafIndex)]);
    return rows[0] ? entryOf(rows[0]) : null;
  }

  /** The latest signed checkpoint, or the one of `size`, with its cosignatures. */
  async checkpoint(size?: number): Promise<StoredCheckpoint | null> {
    const { rows } =
      size === undefined
        ? await this.db.pool.query<{ size: string; root: Buffer; note: string }>(`${CHECKPOINTS} ORDER BY c.size DESC LIMIT 1`)
        : await this.db.pool.query<{ size: string; root: Buffer; note: string }>(`${CHECKPOINTS} WHERE c.size = $1`, [String(size)]);
    return rows[0] ? checkpointOf(rows[0]) : null;
  }

  /** Stores a witness's cosignature line of the checkpoint of `size` (once). */
  async addCosignature(size: number, witness: { name: string; keyId: Buffer }, line: string): Promise<void> {
    await this.db.pool.query('INSERT INTO log_cosignatures (size, name, key_id, line) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
      String(size),
      witness.name,
      witness.keyId.toString('hex'),
      line,
    ]);
  }

  /** The size of the largest checkpoint the witness cosigned, or null. */
  async lastCosigned(witness: { name: string; keyId: Buffer }): Promise<number | null> {
    const { rows } = await this.db.pool.query<{ size: string | null }>('SELECT max(size)::text AS size FROM log_cosignatures WHERE name = $1 AND key_id = $2', [
      witness.name,
      witness.keyId.toString('hex'),
    ]);
    return rows[0]?.size == null ? null : Number(rows[0].size);
  }

  /** The tree's size now (sequenced, maybe not signed yet). */
  async size(): Promise<number> {
    const { rows } = await this.db.pool.query<{ size: string }>('SELECT size FROM log_tree WHERE id = 1');
    return Number(rows[0].size);
  }
}
