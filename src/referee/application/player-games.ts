import { RefereeError } from '../core/errors.js';
import { deadlineMs } from '../core/game/clock.js';
import type { StoredEvent } from '../core/stream.js';
import type { GameStatus } from '../store/event-store.js';
import { type InboxCursor, type InboxFilter, PLAYER_GAMES, type PlayerGameRow, type PlayerGamesStore } from '../store/player-games-store.js';
import type { ConsequenceHandler } from './consequences.js';
import { seatsToAct } from './game-answer.js';
import type { LiveGame } from './live-games.js';

/** A page of a player's games, with the cursors to go on from. */
export interface InboxPage {
  items: { row: PlayerGameRow; cursor: string }[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export interface InboxArgs extends InboxFilter {
  first?: number | null;
  after?: string | null;
}

const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;
const STATUSES: readonly GameStatus[] = ['WAITING', 'ACTIVE', 'FINISHED'];

/**
 * The players' games (the inbox) as a projection of the games' appends: each player's row for a
 * game where it holds a seat, as of a version (is the game waiting for it, until when), stored
 * with the move that makes it (rowsOf), or just after a new game is stored (started: awaited by
 * a creation, so that its answer comes with the inbox up to date).
 */
export class PlayerGames implements ConsequenceHandler<LiveGame> {
  readonly projection = PLAYER_GAMES;

  constructor(private readonly store: PlayerGamesStore) {}

  async rowsOf(before: LiveGame | null, after: LiveGame, events: readonly StoredEvent[]): Promise<PlayerGameRow[]> {
    return rowsOf(after, before ? events.at(-1)?.createdAt : undefined);
  }

  /** A page of the player's games (see PlayerGamesStore.page); a cursor is the one a page answered. */
  async page(playerId: string, args: InboxArgs): Promise<InboxPage> {
    const first = args.first ?? DEFAULT_PAGE;
    if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE) throw new RefereeError('INVALID_INPUT', `first must be 1 to ${MAX_PAGE}`);
    if (args.status !== undefined && !STATUSES.includes(args.status)) throw new RefereeError('INVALID_INPUT', `status must be one of ${STATUSES.join(', ')}`);
    if (args.kind !== undefined && (typeof args.kind !== 'string' || args.kind.length > 64)) throw new RefereeError('INVALID_INPUT', 'kind must be a game kind');
    const after = args.after ? cursorOf(args.after) : undefined;
    const found = await this.store.page(playerId, { toAct: args.toAct, status: args.status, kind: args.kind }, first + 1, after);
    const items = found.slice(0, first).map(({ row, cursor }) => ({ row, cursor: cursorText(cursor) }));
    return { items, endCursor: items.at(-1)?.cursor ?? null, hasNextPage: found.length > first };
  }
}

/** The rows of a game's players as of its version: one per seat bound to a player. */
function rowsOf(game: LiveGame, lastEventAt?: string): PlayerGameRow[] {
  if (!game.seatPlayers.some(Boolean)) return [];
  const toAct = new Set(seatsToAct(game));
  const updatedAt = lastEventAt ? new Date(lastEventAt) : game.createdAt;
  return game.seatPlayers.flatMap((playerId, seat) => {
    if (!playerId) return [];
    const due = game.clock && !game.ended ? deadlineMs(game.clock, seat) : null;
    return [{ playerId, gameId: game.gameId, seat, kind: game.kind, status: game.status, toAct: toAct.has(seat), deadline: due === null ? null : new Date(due), version: game.version, updatedAt }];
  });
}

const cursorText = (c: InboxCursor) => Buffer.from(JSON.stringify([c.at, c.gameId])).toString('base64url');

function cursorOf(text: string): InboxCursor {
  try {
    const [at, gameId] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof gameId === 'string' && (at === 'infinity' || !Number.isNaN(Date.parse(at)))) return { at, gameId };
  } catch {
    // answered below
  }
  throw new RefereeError('INVALID_INPUT', 'after must be a cursor an earlier page answered');
}
