import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';
import type { GameStatus } from './event-store.js';
import { type ProjectionSql, ProjectionWriters } from './projections.js';

/** A player's game as the inbox lists it, as of a version of the game. */
export interface PlayerGameRow {
  playerId: string;
  gameId: string;
  seat: number;
  kind: string;
  status: GameStatus;
  /** The game waits for this seat. */
  toAct: boolean;
  /** When the seat's time runs out, if its clock runs. */
  deadline: Date | null;
  version: number;
  /** The time of the game's last event. */
  updatedAt: Date;
}

/** Which of a player's games: those waiting for it (true) or not (false), of a status, of a kind. */
export interface InboxFilter {
  toAct?: boolean;
  status?: GameStatus;
  kind?: string;
}

/**
 * Where an inbox page is cut: the row's sort time and its game. Games waiting for the player are
 * sorted by deadline (soonest first; none: 'infinity', after every time), the others by their last
 * event (newest first).
 */
export interface InboxCursor {
  at: string;
  gameId: string;
}

/** The projection of the players' games: a move's rows, stored with it. */
export const PLAYER_GAMES = 'player_games';

/**
 * The `player_games` table, the players' inbox: one row per player and game where the player
 * holds a seat. Its rows are written by the event store in the statement that appends the move
 * or creates the game that makes them (PLAYER_GAMES_SQL, registered here).
 */
@Injectable()
export class PlayerGamesStore {
  constructor(
    private readonly db: DatabaseService,
    writers: ProjectionWriters,
  ) {
    writers.register(PLAYER_GAMES_SQL);
  }

  /**
   * At most `first` of the player's games after `after`: with `toAct`, the games waiting for it,
   * the most pressing deadline first (games without a clock last); else the most recently moved
   * first. Each is answered with its cursor.
   */
  async page(playerId: string, filter: InboxFilter, first: number, after?: InboxCursor): Promise<{ row: PlayerGameRow; cursor: InboxCursor }[]> {
    const byDeadline = filter.toAct === true;
    const { rows } = await this.db.pool.query<DbRow>({
      name: this.db.statementName(byDeadline ? 'inbox-to-act' : 'inbox-recent'),
      text: byDeadline ? TO_ACT_SQL : RECENT_SQL,
      values: [playerId, filter.status ?? null, filter.kind ?? null, after?.at ?? null, after?.gameId ?? null, first, ...(byDeadline ? [] : [filter.toAct ?? null])],
    });
    return rows.map((r) => ({ row: fromDb(r), cursor: { at: byDeadline ? (r.deadline?.toISOString() ?? 'infinity') : r.updated_at.toISOString(), gameId: r.game_id } }));
  }
}

interface DbRow {
  player_id: string;
  game_id: string;
  seat: number;
  kind: string;
  status: GameStatus;
  to_act: boolean;
  deadline: Date | null;
  version: number;
  updated_at: Date;
}

const fromDb = (r: DbRow): PlayerGameRow => ({
  playerId: r.player_id,
  gameId: r.game_id,
  seat: r.seat,
  kind: r.kind,
  status: r.status,
  toAct: r.to_act,
  deadline: r.deadline,
  version: r.version,
  updatedAt: r.updated_at,
});

const COLUMNS = 'player_id, game_id, seat, kind, status, to_act, deadline, version, updated_at';

/** One row per player and game (ON CONFLICT may touch a row once a statement): the newest version's. */
function playerGameRows(rows: readonly PlayerGameRow[]): string {
  const newest = new Map<string, PlayerGameRow>();
  for (const r of rows) {
    const key = `${r.playerId} ${r.gameId}`;
    if ((newest.get(key)?.version ?? -1) <= r.version) newest.set(key, r);
  }
  return JSON.stringify(
    [...newest.values()].map((r) => ({
      player_id: r.playerId,
      game_id: r.gameId,
      seat: r.seat,
      kind: r.kind,
      status: r.status,
      to_act: r.toAct,
      deadline: r.deadline?.toISOString() ?? null,
      version: r.version,
      updated_at: r.updatedAt.toISOString(),
    })),
  );
}

const playerGamesCte = (param: string) => `player_games_set AS (
  INSERT INTO player_games (${COLUMNS})
  SELECT ${COLUMNS} FROM jsonb_to_recordset(${param}::jsonb)
    AS t(player_id text, game_id text, seat int, kind text, status text, to_act boolean, deadline timestamptz, version int, updated_at timestamptz)
  ON CONFLICT (player_id, game_id) DO UPDATE
  SET seat = EXCLUDED.seat, kind = EXCLUDED.kind, status = EXCLUDED.status, to_act = EXCLUDED.to_act, deadline = EXCLUDED.deadline,
      version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
  WHERE player_games.version <= EXCLUDED.version
)`;

const PLAYER_GAMES_SQL: ProjectionSql<PlayerGameRow> = {
  projection: PLAYER_GAMES,
  parameter: (rows) => ({ variant: '', value: playerGameRows(rows) }),
  ctes: (param) => playerGamesCte(param),
};

/** The sort time of a game waiting for the player: its deadline, or after every deadline (the migration indexes it). */
const DUE = `COALESCE(deadline, 'infinity'::timestamptz)`;
const FILTERS = `player_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR kind = $3)`;

const TO_ACT_SQL = `
SELECT ${COLUMNS} FROM player_games
WHERE ${FILTERS} AND to_act AND ($4::timestamptz IS NULL OR (${DUE}, game_id) > ($4::timestamptz, $5::text))
ORDER BY ${DUE}, game_id LIMIT $6`;

const RECENT_SQL = `
SELECT ${COLUMNS} FROM player_games
WHERE ${FILTERS} AND ($7::boolean IS NULL OR to_act = $7) AND ($4::timestamptz IS NULL OR (updated_at, game_id) < ($4::timestamptz, $5::text))
ORDER BY updated_at DESC, game_id DESC LIMIT $6`;
