import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';
import { type ProjectionSql, ProjectionWriters } from './projections.js';

/**
 * A game's next deadline as of one of its versions; `dueAt` null: no seat's time runs (paused).
 * `warnAt`: when a running seat next crosses a low-time threshold (null: none will). A stored row
 * may be older than its game, and so earlier than the game's deadline, never later (see
 * DeadlineWorker.rowsOf).
 */
export interface DeadlineRow {
  gameId: string;
  seat: number | null;
  dueAt: Date | null;
  warnAt: Date | null;
  version: number;
}

/** A row an instance claimed because its deadline or its warning came, to decide the timeout or tell the warning. */
export interface ClaimedDeadline {
  gameId: string;
  seat: number;
  dueAt: Date;
  warnAt: Date | null;
  version: number;
}

/** What to write for one game: its deadline (and warning, none when omitted), or that it ended (no deadline any more). */
export type DeadlineWrite = (Omit<DeadlineRow, 'warnAt'> & { warnAt?: Date | null; ended?: false; claimedUntil?: Date | null }) | { gameId: string; version: number; ended: true };

interface Pending {
  write: DeadlineWrite;
  done: { resolve: () => void; reject: (err: unknown) => void }[];
}

/** The projection of the deadlines: a move's row, stored with it (see DeadlineWorker.rowsOf). */
export const DEADLINES = 'deadlines';

/**
 * The `deadlines` table: the next deadline (and low-time warning) of each running game with a
 * clock. A move's row, when it has one to write, is written by the event store, in the statement
 * that appends the move (the deadlines' writer, DEADLINES_SQL, registered with it here); what is
 * written here is the rest: the worker's (rows recomputed by the sweep or after a refused timeout, the next
 * warning once one was told).
 * These writes gather for a few milliseconds and go together in one statement, as a pairing
 * creates games or a batch of claims is decided at once.
 */
@Injectable()
export class DeadlineStore {
  private readonly pending = new Map<string, Pending>();
  private writing = false;
  private timer: NodeJS.Timeout | null = null;
  /** Writes not stored yet (being computed, queued or being written). */
  private readonly unsettled = new Set<Promise<unknown>>();

  constructor(
    private readonly db: DatabaseService,
    writers: ProjectionWriters,
  ) {
    writers.register(DEADLINES_SQL);
  }

  /**
   * Stores a game's deadline as of `version` (or removes it when the game ended), unless a
   * newer version's is stored already. A row written with no `claimedUntil` is claimable.
   */
  write(write: DeadlineWrite): Promise<void> {
    return this.unsettledUntil(
      new Promise<void>((resolve, reject) => {
        const queued = this.pending.get(write.gameId);
        // One row per game and statement (ON CONFLICT may touch a row once): the newest wins.
        if (queued) {
          if (write.version >= queued.write.version) queued.write = write;
          queued.done.push({ resolve, reject });
        } else this.pending.set(write.gameId, { write, done: [{ resolve, reject }] });
        this.later();
      }),
    );
  }

  private unsettledUntil<T>(written: Promise<T>): Promise<T> {
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
      await this.db.pool.query({ name: this.db.statementName('write-deadlines'), text: WRITE_SQL, values: [deadlineRows(batch.map((p) => p.write))] });
      for (const p of batch) for (const d of p.done) d.resolve();
    } catch (err) {
      for (const p of batch) for (const d of p.done) d.reject(err);
    } finally {
      this.writing = false;
      this.later();
    }
  }

  /**
   * Claims up to `limit` rows whose deadline or warning is due at `now` and that no instance is
   * deciding, earliest first, until `until`. Concurrent claims on other connections skip the
   * rows locked here: each due row goes to one instance.
   */
  async claim(now: Date, until: Date, limit: number): Promise<ClaimedDeadline[]> {
    const { rows } = await this.db.pool.query<{ game_id: string; seat: number; due_at: Date; warn_at: Date | null; version: number }>({
      name: this.db.statementName('claim-deadlines'),
      text: CLAIM_SQL,
      values: [now.toISOString(), until.toISOString(), limit],
    });
    return rows.map((r) => ({ gameId: r.game_id, seat: r.seat, dueAt: r.due_at, warnAt: r.warn_at, version: r.version }));
  }

  /** Gives a claimed deadline back, to be claimed again at once (its timeout was not decided). */
  async release(gameId: string): Promise<void> {
    await this.db.pool.query('UPDATE deadlines SET claimed_until = NULL WHERE game_id = $1', [gameId]);
  }

  /** When the next unclaimed deadline or warning is due; null when none is pending. */
  async earliest(now: Date): Promise<Date | null> {
    const { rows } = await this.db.pool.query<{ next_at: Date }>({
      name: this.db.statementName('earliest-deadline'),
      text: `SELECT ${NEXT_AT} AS next_at FROM deadlines WHERE ${NEXT_AT} IS NOT NULL AND (claimed_until IS NULL OR claimed_until <= $1) ORDER BY ${NEXT_AT} LIMIT 1`,
      values: [now.toISOString()],
    });
    return rows[0]?.next_at ?? null;
  }

  /**
   * Running games with a clock that have no deadline row (a new game's first row, written just
   * after the game, lost to a crash), with their stored versions; and drops the rows of games
   * that are no longer running. A row older than its game is not missing anything: a move that
   * pushed the deadline later left it (it wakes the worker early, never late).
   */
  async missing(limit: number): Promise<{ gameId: string; version: number }[]> {
    await this.db.pool.query(ENDED_ROWS_SQL);
    const { rows } = await this.db.pool.query<{ id: string; version: number }>(UNTRACKED_GAMES_SQL, [limit]);
    return rows.map((r) => ({ gameId: r.id, version: r.version }));
  }

  async get(gameId: string): Promise<(DeadlineRow & { claimedUntil: Date | null }) | null> {
    const { rows } = await this.db.pool.query<{ seat: number | null; due_at: Date | null; warn_at: Date | null; version: number; claimed_until: Date | null }>(
      'SELECT seat, due_at, warn_at, version, claimed_until FROM deadlines WHERE game_id = $1',
      [gameId],
    );
    const r = rows[0];
    return r ? { gameId, seat: r.seat, dueAt: r.due_at, warnAt: r.warn_at, version: r.version, claimedUntil: r.claimed_until } : null;
  }
}

/**
 * How long writes gather before they are written in one statement: no move waits for them, so
 * a short wait costs nothing and saves statements (on the embedded database each one takes its
 * turn on the single connection, between the appends).
 */
const WRITE_WINDOW_MS = 25;

/**
 * The deadline rows of several games as the JSON parameter of deadlineCtes: one row per game
 * (ON CONFLICT may touch a row once a statement), its newest version's.
 */
function deadlineRows(writes: readonly DeadlineWrite[]): string {
  const newest = new Map<string, DeadlineWrite>();
  for (const w of writes) if ((newest.get(w.gameId)?.version ?? -1) <= w.version) newest.set(w.gameId, w);
  const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
  return JSON.stringify(
    [...newest.values()].map((w) =>
      w.ended
        ? { game_id: w.gameId, version: w.version, ended: true }
        : { game_id: w.gameId, seat: w.seat, due_at: iso(w.dueAt), warn_at: iso(w.warnAt), version: w.version, claimed_until: iso(w.claimedUntil), ended: false },
    ),
  );
}

/** The parts a write of these rows needs: setting the rows of games that go on, removing those of games that ended. */
interface DeadlineParts {
  set: boolean;
  gone: boolean;
}

/**
 * Stores deadline rows given as JSON (deadlineRows) in parameter `param`: common table
 * expressions for a statement of their own or inside a move's append, only the parts needed
 * (each is planned with its statement: on the embedded database, which prepares none, every
 * time). A game that ended loses its row; any other gets its new one, unless a newer version's
 * is stored already.
 */
function deadlineCtes(param: string, parts: DeadlineParts): string {
  const rows = `jsonb_to_recordset(${param}::jsonb)
    AS t(game_id text, seat int, due_at timestamptz, warn_at timestamptz, version int, claimed_until timestamptz, ended boolean)`;
  const ctes: string[] = [];
  if (parts.gone)
    ctes.push(`deadlines_gone AS (
  DELETE FROM deadlines d USING ${rows} WHERE t.ended AND d.game_id = t.game_id AND d.version <= t.version
)`);
  if (parts.set)
    ctes.push(`deadlines_set AS (
  INSERT INTO deadlines (game_id, seat, due_at, warn_at, version, claimed_until)
  SELECT t.game_id, t.seat, t.due_at, t.warn_at, t.version, t.claimed_until FROM ${rows} WHERE NOT t.ended
  ON CONFLICT (game_id) DO UPDATE
  SET seat = EXCLUDED.seat, due_at = EXCLUDED.due_at, warn_at = EXCLUDED.warn_at, version = EXCLUDED.version, claimed_until = EXCLUDED.claimed_until
  WHERE deadlines.version <= EXCLUDED.version
)`);
  return ctes.join(', ');
}

const WRITE_SQL = `WITH ${deadlineCtes('$1', { set: true, gone: true })} SELECT 1`;

/** The deadlines' rows in a move's append: the variant names the parts its rows need (`set`, `ended`, or both). */
const DEADLINES_SQL: ProjectionSql<DeadlineWrite> = {
  projection: DEADLINES,
  parameter: (rows) => {
    const [set, gone] = [rows.some((w) => !w.ended), rows.some((w) => w.ended)];
    return { variant: [set && 'set', gone && 'ended'].filter(Boolean).join('-'), value: deadlineRows(rows) };
  },
  ctes: (param, variant) => deadlineCtes(param, { set: variant.includes('set'), gone: variant.includes('ended') }),
};

/** What a row waits for: its deadline or its warning, whichever comes first (LEAST skips a null); the migration indexes it. */
const NEXT_AT = 'LEAST(due_at, warn_at)';

const CLAIM_SQL = `
UPDATE deadlines d SET claimed_until = $2
FROM (
  SELECT game_id FROM deadlines
  WHERE ${NEXT_AT} <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
  ORDER BY ${NEXT_AT} LIMIT $3
  FOR UPDATE SKIP LOCKED
) due
WHERE d.game_id = due.game_id
RETURNING d.game_id, d.seat, d.due_at, d.warn_at, d.version`;

/** Rows of games that ended (or are gone): their deadlines will never come. */
const ENDED_ROWS_SQL = `
DELETE FROM deadlines d WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = d.game_id AND g.status = 'ACTIVE')`;

/** A game has a clock when its GameCreated event names a time control. */
const UNTRACKED_GAMES_SQL = `
SELECT g.id, g.version FROM games g
JOIN events e ON e.game_id = g.id AND e.seq = 1
LEFT JOIN deadlines d ON d.game_id = g.id
WHERE g.status = 'ACTIVE' AND jsonb_typeof(e.payload->'timeControl') = 'object'
  AND d.game_id IS NULL
ORDER BY g.id LIMIT $1`;
