import type { Viewer } from '../../engines/kit/index.js';
import { buildBundle, type Bundle, type Verdict, verifyInSlices } from '../core/audit.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import { RefereeError } from '../core/errors.js';
import { foldGameInSlices } from '../core/game/fold.js';
import { hidesInformation, statusOf } from '../core/game/state.js';
import type { StoredEvent } from '../core/stream.js';
import type { EventStore, GameCursor, GameFilter, StoredGame } from '../store/event-store.js';
import type { EventViews } from './event-views.js';
import { type GameAnswer, gameAnswer, type GameSnapshot, type GameSummary, snapshotOf, summaryOfRow } from './game-answer.js';
import { isGameId } from '../core/ids.js';
import type { LiveGame, LiveGames } from './live-games.js';
import { isKey } from './key-holders.js';
import type { SeatTokens } from './seat-tokens.js';
import type { Slicer } from './slices.js';

/** Which page of a games list: `first` after a cursor (forwards) or `last` before one (backwards). */
export interface GamePageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** A page of games, newest first, with each game's cursor; `totalCount` counts all the filter matches (asked for separately). */
export interface GamePage {
  games: GameSummary[];
  cursors: string[];
  startCursor: string | null;
  endCursor: string | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  totalCount(): Promise<number>;
}

/** A game at a point of its history (gameStateAt): the game then, and its answer for a viewer (its clocks as they stood then). */
export interface GameAt {
  seq: number;
  game: GameSnapshot;
  answer: GameAnswer;
}

/** Refuses a game of another kind than `kind` (a typed query or move names its game). */
export function checkKind(game: { gameId: string; kind: string }, kind: string): void {
  if (game.kind !== kind) throw new RefereeError('INVALID_INPUT', `game ${game.gameId} is a ${game.kind} game, not ${kind}`);
}

/** Reads: games, views, events as each viewer may see them, history, lists, bundles and verification. */
export class GameQueries {
  constructor(
    private readonly live: LiveGames,
    private readonly tokens: SeatTokens,
    private readonly store: EventStore,
    private readonly registry: EngineRegistry,
    private readonly slicer: Slicer,
    private readonly views: EventViews,
  ) {}

  /** A game by id; with `kind`, a game of another kind is refused (INVALID_INPUT). */
  async game(gameId: string, kind?: string): Promise<LiveGame> {
    const game = await this.live.get(gameId);
    if (kind) checkKind(game, kind);
    return game;
  }

  /** Who the bearer of `token` is in this game: a seat, or a spectator without a token. */
  async viewerOf(gameId: string, token: string | null): Promise<Viewer> {
    if (!token) return 'spectator';
    // A player's key reads as its seat where the player holds one, else (and an app's key) as a spectator; the API checked its READ scope.
    if (isKey(token)) return (await this.tokens.keySeat(gameId, token)) ?? 'spectator';
    return this.tokens.seatOf(gameId, token);
  }

  async events(gameId: string, afterSeq: number, viewer: Viewer, limit = 1000): Promise<StoredEvent[]> {
    if (!Number.isInteger(afterSeq) || afterSeq < 0) throw new RefereeError('INVALID_INPUT', 'afterSeq must be a whole number, 0 or more');
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RefereeError('INVALID_INPUT', 'limit must be between 1 and 1000');
    const game = await this.live.get(gameId);
    return this.servedEvents(game, afterSeq, viewer, Math.min(game.version, afterSeq + limit));
  }

  /** Events in (afterSeq, untilSeq] as `viewer` may see them. */
  async servedEvents(game: LiveGame, afterSeq: number, viewer: Viewer, untilSeq: number): Promise<StoredEvent[]> {
    if (!hidesInformation(game.engine)) return this.store.events(game.gameId, afterSeq, undefined, untilSeq);
    if (!game.ended) return this.views.served(game.gameId, afterSeq, viewer, untilSeq);
    // Everything is public once the game ended.
    this.views.forget(game.gameId);
    return this.store.events(game.gameId, afterSeq, undefined, untilSeq);
  }

  /** The game as it was just after event `seq`, and its answer for `viewer`; `now` is the time of the request. */
  async stateAt(gameId: string, seq: number, viewer: Viewer, now: string): Promise<GameAt> {
    const game = await this.live.get(gameId);
    if (!Number.isInteger(seq) || seq < 1 || seq > game.version) throw new RefereeError('INVALID_INPUT', `seq must be between 1 and ${game.version}`);
    const folded = await this.slicer.run(foldGameInSlices(this.registry, gameId, await this.store.events(gameId, 0, undefined, seq), null));
    const then = snapshotOf({ ...game, ...folded, status: statusOf(folded) });
    // A past state's clocks ran up to its last event's stamp; counting on to now would spend time nobody had.
    const at = seq < game.version ? folded.clock?.at : null;
    return { seq, game: then, answer: gameAnswer(then, viewer, at ?? now) };
  }

  /**
   * A page of games, newest first, Relay style: `first` games after the cursor `after` (forwards),
   * or the `last` games before the cursor `before` (backwards); 20 forwards by default. The
   * other cursor, if given too, bounds the window. As graphql-relay does, `hasNextPage` is only
   * known forwards and `hasPreviousPage` only backwards (false the other way).
   */
  async list(filter: GameFilter, page: GamePageArgs = {}): Promise<GamePage> {
    const { first, last } = page;
    if (first != null && last != null) throw new RefereeError('INVALID_INPUT', 'give first (with after) to page forwards or last (with before) to page backwards, not both');
    const backwards = last != null;
    const size = (backwards ? last : first) ?? 20;
    if (!Number.isInteger(size) || size < 1 || size > 100) throw new RefereeError('INVALID_INPUT', `${backwards ? 'last' : 'first'} must be between 1 and 100`);
    const after = page.after != null ? decodeCursor(page.after, 'after') : undefined;
    const before = page.before != null ? decodeCursor(page.before, 'before') : undefined;
    // One row more than asked says whether there is more beyond the page: after it forwards, before it backwards (the newest row).
    const rows = await this.store.list(filter, size + 1, after, { before, fromOldest: backwards });
    const more = rows.length > size;
    const games = backwards ? rows.slice(rows.length - Math.min(size, rows.length)) : rows.slice(0, size);
    const cursors = games.map(encodeCursor);
    return {
      games: games.map(summaryOfRow),
      cursors,
      startCursor: cursors[0] ?? null,
      endCursor: cursors.at(-1) ?? null,
      hasNextPage: !backwards && more,
      hasPreviousPage: backwards && more,
      totalCount: () => this.store.count(filter),
    };
  }

  /** A self-contained, verifiable export of the whole game. */
  async bundle(gameId: string): Promise<Bundle> {
    const game = await this.finished(gameId, 'bundle');
    return buildBundle(game, await this.store.events(gameId, 0, undefined, game.version));
  }

  /**
   * Recomputes the chain, every random outcome (with the secret seed) and every move, and checks
   * the stream ends at the game's anchored head. Read from the store, not the cache: a verdict
   * is given on what is stored, even for a game that no longer loads.
   */
  async verify(gameId: string): Promise<Verdict> {
    const row = isGameId(gameId) ? await this.store.game(gameId) : null;
    if (!row) throw new RefereeError('NOT_FOUND', `no game with id ${gameId}`);
    const expectedHead = { version: row.version, hash: row.headHash, status: row.status };
    const events = await this.store.events(gameId);
    return this.slicer.run(verifyInSlices(this.registry, gameId, events, { serverSeed: row.serverSeed, expectedCommitment: row.seedCommitment, expectedHead }));
  }

  /** A game whose history may be published whole: over, or with nothing hidden. */
  async finished(gameId: string, what: string): Promise<LiveGame> {
    const game = await this.live.get(gameId);
    if (!game.ended && hidesInformation(game.engine)) throw new RefereeError('GAME_NOT_FINISHED', `this game has hidden information; its ${what} is available when it ends`);
    return game;
  }
}

function encodeCursor(g: StoredGame): string {
  return Buffer.from(`${g.createdAt.toISOString()}|${g.id}`).toString('base64url');
}

function decodeCursor(cursor: string, name: 'after' | 'before'): GameCursor {
  const [at, id, ...rest] = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString().split('|') : [];
  const createdAt = new Date(at);
  if (!at || !isGameId(id) || rest.length > 0 || Number.isNaN(createdAt.getTime())) throw new RefereeError('INVALID_INPUT', `${name} is not a cursor this API gave out`);
  return { createdAt, id };
}
