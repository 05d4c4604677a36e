import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';

/** A game's next deadline as of one of its versions; `dueAt` null: no seat's time runs (paused). */
export interface DeadlineRow {
  gameId: string;
  seat: number | null;
  dueAt: Date | null;
  version: number;
}

/** A due deadline an instance claimed, to decide its timeout. */
export interface ClaimedDeadline {
  gameId: string;
  seat: number;
  dueAt: Date;
  version: number;
}

/** What to write for one game: its deadline, or that it ended (no deadline any more). */
export type DeadlineWrite = (DeadlineRow & { ended?: false; claimedUntil?: Date | null }) | { gameId: string; version: number; ended: true };

interface Pending {
  write: DeadlineWrite;
  done: { resolve: () => void; reject: (err: unknown) => void }[];
}

/**
 * The `deadlines` table: the next deadline of each running game with a clock. Writes gather for
 * a few milliseconds and go together in one statement (as the event store groups its appends),
 * so a busy server pays about one statement per batch of moves, not one per move.
 */
@Injectable()
export class DeadlineStore {
  private readonly pending = new Map<string, Pending>();
  private writing = false;
  private timer: NodeJS.Timeout | null = null;
  /** Writes not stored yet (queued or being written). */
  private readonly unsettled = new Set<Promise<void>>();

  constructor(private readonly db: DatabaseService) {}

  /**
   * Stores a game's deadline as of `version` (or removes it when the game ended), unless a
   * newer version's is stored already. A row written with no `claimedUntil` is claimable.
   */
  write(write: DeadlineWrite): Promise<void> {
    const written = new Promise<void>((resolve, reject) => {
      const queued = this.pending.get(write.gameId);
      // One row per game and statement (ON CONFLICT may touch a row once): the newest wins.
      if (queued) {
        if (write.version >= queued.write.version) queued.write = write;
        queued.done.push({ resolve, reject });
      } else this.pending.set(write.gameId, { write, done: [{ resolve, reject }] });
      this.later();
    });
    this.unsettled.add(written);
    const settled = () => this.unsettled.delete(written);
    written.then(settled, settled);
    return written;
  }

  /** Writes what is pending now, without waiting for the window; resolves once every write asked for so far is stored (or failed). */
  async flushed(): Promise<void> {
    const waiting = [...this.unsettled];
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      void this.flush();
    }
    await Promise.allSettled(waiting);
  }

  /** The next write, WRITE_WINDOW_MS from now, unless one is due or in progress (which sets the next when it ends). */
  private later(): void {
    if (this.timer || this.writing || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, WRITE_WINDOW_MS);
  }

  private async flush(): Promise<void> {
    if (this.writing || this.pending.size === 0) return;
    this.writing = true;
    const batch = [...this.pending.values()];
    this.pending.clear();
    try {
      const rows = batch.map(({ write: w }) =>
        w.ended
          ? { game_id: w.gameId, version: w.version, ended: true }
          : { game_id: w.gameId, seat: w.seat, due_at: w.dueAt?.toISOString() ?? null, version: w.version, claimed_until: w.claimedUntil?.toISOString() ?? null, ended: false },
      );
      await this.db.pool.query({ name: this.db.statementName('write-deadlines'), text: WRITE_SQL, values: [JSON.stringify(rows)] });
      for (const p of batch) for (const d of p.done) d.resolve();
    } catch (err) {
      for (const p of batch) for (const d of p.done) d.reject(err);
    } finally {
      this.writing = false;
      this.later();
    }
  }

  /**
   * Claims up to `limit` deadlines due at `now` that no instance is deciding, earliest first,
   * until `until`. Concurrent claims on other connections skip the rows locked here: each due
   * row goes to one instance.
   */
  async claim(now: Date, until: Date, limit: number): Promise<ClaimedDeadline[]> {
    const { rows } = await this.db.pool.query<{ game_id: string; seat: number; due_at: Date; version: number }>({
      name: this.db.statementName('claim-deadlines'),
      text: CLAIM_SQL,
      values: [now.toISOString(), until.toISOString(), limit],
    });
    return rows.map((r) => ({ gameId: r.game_id, seat: r.seat, dueAt: r.due_at, version: r.version }));
  }

  /** Gives a claimed deadline back, to be claimed again at once (its timeout was not decided). */
  async release(gameId: string): Promise<void> {
    await this.db.pool.query('UPDATE deadlines SET claimed_until = NULL WHERE game_id = $1', [gameId]);
  }

  /** When the next unclaimed deadline is due; null when none is pending. */
  async earliest(now: Date): Promise<Date | null> {
    const { rows } = await this.db.pool.query<{ due_at: Date }>({
      name: this.db.statementName('earliest-deadline'),
      text: 'SELECT due_at FROM deadlines WHERE due_at IS NOT NULL AND (claimed_until IS NULL OR claimed_until <= $1) ORDER BY due_at LIMIT 1',
      values: [now.toISOString()],
    });
    return rows[0]?.due_at ?? null;
  }

  /**
   * Running games with a clock whose deadline row is missing or older than the game (a write
   * lost to a crash or a broken connection), with their stored versions; and drops the rows of
   * games that are no longer running.
   */
  async stale(limit: number): Promise<{ gameId: string; version: number }[]> {
    await this.db.pool.query(STALE_ROWS_SQL);
    const { rows } = await this.db.pool.query<{ id: string; version: number }>(STALE_GAMES_SQL, [limit]);
    return rows.map((r) => ({ gameId: r.id, version: r.version }));
  }

  async get(gameId: string): Promise<(DeadlineRow & { claimedUntil: Date | null }) | null> {
    const { rows } = await this.db.pool.query<{ seat: number | null; due_at: Date | null; version: number; claimed_until: Date | null }>(
      'SELECT seat, due_at, version, claimed_until FROM deadlines WHERE game_id = $1',
      [gameId],
    );
    const r = rows[0];
    return r ? { gameId, seat: r.seat, dueAt: r.due_at, version: r.version, claimedUntil: r.claimed_until } : null;
  }
}

/**
 * How long writes gather before they are written in one statement: rows are derived data,
 * written after the move's answer, so a short wait costs nothing and saves statements (on the
 * embedded database each one takes its turn on the single connection, between the appends).
 */
const WRITE_WINDOW_MS = 25;

const WRITE_SQL = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(game_id text, seat int, due_at timestamptz, version int, claimed_until timestamptz, ended boolean)
), gone AS (
  DELETE FROM deadlines d USING input i WHERE i.ended AND d.game_id = i.game_id AND d.version <= i.version
)
INSERT INTO deadlines (game_id, seat, due_at, version, claimed_until)
SELECT game_id, seat, due_at, version, claimed_until FROM input WHERE NOT ended
ON CONFLICT (game_id) DO UPDATE SET seat = EXCLUDED.seat, due_at = EXCLUDED.due_at, version = EXCLUDED.version, claimed_until = EXCLUDED.claimed_until
WHERE deadlines.version <= EXCLUDED.version`;

const CLAIM_SQL = `
UPDATE deadlines d SET claimed_until = $2
FROM (
  SELECT game_id FROM deadlines
  WHERE due_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
  ORDER BY due_at LIMIT $3
  FOR UPDATE SKIP LOCKED
) due
WHERE d.game_id = due.game_id
RETURNING d.game_id, d.seat, d.due_at, d.version`;

/** Rows of games that ended (or are gone): their deadlines will never come. */
const STALE_ROWS_SQL = `
DELETE FROM deadlines d WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = d.game_id AND g.status = 'ACTIVE')`;

/** A game has a clock when its GameCreated event names a time control. */
const STALE_GAMES_SQL = `
SELECT g.id, g.version FROM games g
JOIN events e ON e.game_id = g.id AND e.seq = 1
LEFT JOIN deadlines d ON d.game_id = g.id
WHERE g.status = 'ACTIVE' AND jsonb_typeof(e.payload->'timeControl') = 'object'
  AND (d.game_id IS NULL OR d.version < g.version)
ORDER BY g.id LIMIT $1`;
