import type { GameStatus } from '../core/game/state.js';
import type { StoredEvent } from '../core/stream.js';

export type { GameStatus };

export interface GameRow {
  id: string;
  kind: string;
  status: GameStatus;
  version: number;
  /** Hash of the event at `version`: where the stream must end. */
  headHash: string | null;
  ruleset: unknown;
  rulesetHash: string;
  seedCommitment: string;
  serverSeed: string;
  randomSource: 'fair' | 'supplied';
  suppliedChance: number[][] | null;
  imported: boolean;
  result: unknown;
  /** The tournament, round and board the game was scheduled for; null outside tournaments. */
  tournamentId: string | null;
  round: number | null;
  board: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SeatRow {
  index: number;
  name: string | null;
  tokenHash: string | null;
  clientSeed: string | null;
  /** A tournament participant whose token acts as this seat. */
  participantId?: string | null;
  /** The player the seat is bound to: that player's key acts as this seat. */
  playerId?: string | null;
}

export interface GameHead {
  status: GameStatus;
  version: number;
  /** Hash of the event at `version`. */
  hash: string;
  result: unknown;
}

/** The stream's expected version was taken by another writer (the compare-and-set failed). */
export class AppendConflict extends Error {}

/** Where a games list is cut: a row's creation time and id (newest first, ties by id). */
export interface GameCursor {
  createdAt: Date;
  id: string;
}

export interface GameFilter {
  kind?: string;
  status?: GameStatus;
  imported?: boolean;
  tournamentId?: string;
  /** Only games a tournament scheduled (true), or only games outside tournaments (false). */
  inTournament?: boolean;
  round?: number;
}

/** A new game's rows: the game, its seats and its first events. */
export type NewGame = Omit<GameRow, 'createdAt' | 'updatedAt' | 'tournamentId' | 'round' | 'board'> & Partial<Pick<GameRow, 'tournamentId' | 'round' | 'board'>>;
export type StoredGame = GameRow & { seats: SeatRow[] };
export type SeatClaim = { index: number; name: string | null; tokenHash: string; clientSeed: string | null; playerId?: string | null };

/** A new game's rows: its game row, seats, events and the rows its creation implies. */
export interface NewGameRows {
  row: NewGame;
  seats: SeatRow[];
  events: StoredEvent[];
  consequences?: readonly ConsequenceRows[];
}

/**
 * Rows one projection owes to a batch of events (what the append implies: see the application's
 * Consequences), stored with them in the same statement or not at all. The store knows no
 * projection: each adapter writes a projection's rows as the projection's owner told it to.
 */
export interface ConsequenceRows {
  projection: string;
  rows: readonly unknown[];
}

/** Told of appends to any game on the database, by any process (see EventStore.watch). */
export interface AppendWatcher {
  /** The game's stored version is now at least `version`. */
  appended(gameId: string, version: number): void;
  /**
   * A stored event of this stream (a game's or a tournament's) was updated or deleted: the log is
   * append-only, so its cached copy is no longer what is stored, and must be read again.
   */
  altered(streamId: string): void;
  /** Appends may go untold from now on (the listening connection was lost)… */
  lost(): void;
  /** …and are told again: what was appended in between must be looked up. */
  restored(): void;
}

/** The watchers of one store: each is told everything, and a late one that things are lost. */
export class AppendWatchers implements AppendWatcher {
  private readonly all = new Set<AppendWatcher>();
  private isLost = false;

  get size(): number {
    return this.all.size;
  }

  add(watcher: AppendWatcher): () => boolean {
    this.all.add(watcher);
    if (this.isLost) watcher.lost();
    return () => this.all.delete(watcher);
  }

  appended(gameId: string, version: number): void {
    for (const w of this.all) w.appended(gameId, version);
  }

  altered(streamId: string): void {
    for (const w of this.all) w.altered(streamId);
  }

  lost(): void {
    this.isLost = true;
    for (const w of this.all) w.lost();
  }

  restored(): void {
    this.isLost = false;
    for (const w of this.all) w.restored();
  }
}

/**
 * The event store port: read a stream, create one, append at an expected version. The
 * PostgreSQL adapter is the service's; the in-memory one serves unit tests. An append whose
 * expected version was taken rejects with AppendConflict and stores nothing.
 */
export abstract class EventStore {
  /** Creates the game row, its seats and its first events, atomically. */
  /** A new game, with the rows its creation implies (`consequences`, as an append's), all stored or none. */
  abstract createGame(game: NewGame, seats: SeatRow[], events: StoredEvent[], consequences?: readonly ConsequenceRows[]): Promise<void>;
  /** Appends events after `events[0].seq - 1` (the expected version) and moves the game's head, with the rows they imply. */
  abstract append(gameId: string, events: StoredEvent[], head: GameHead, consequences?: readonly ConsequenceRows[]): Promise<void>;
  /** Claims an open seat and appends the join's events (and the rows they imply), atomically. */
  abstract join(gameId: string, events: StoredEvent[], head: GameHead, seat: SeatClaim, consequences?: readonly ConsequenceRows[]): Promise<void>;
  abstract game(id: string): Promise<StoredGame | null>;
  /** Events in (afterSeq, untilSeq], in order. */
  abstract events(gameId: string, afterSeq?: number, limit?: number, untilSeq?: number): Promise<StoredEvent[]>;
  /** The stored version of a game (to confirm a refusal made from a cached state). */
  async version(gameId: string): Promise<number | null> {
    return (await this.versions([gameId])).get(gameId) ?? null;
  }
  /** The stored versions of these games (those that exist). */
  abstract versions(gameIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * The statuses of a tournament's games still played (not FINISHED) and of `gameIds` (those
   * that exist): what the tournament's catch-up needs, read without the games it finished.
   */
  abstract tournamentGameStatuses(tournamentId: string, gameIds: readonly string[]): Promise<Map<string, GameStatus>>;
  /**
   * Tells `watcher` of every append to any game from now on, by this process or another on the
   * same database, until the returned function is called.
   */
  abstract watch(watcher: AppendWatcher): Promise<() => Promise<void>>;
  abstract seatByTokenHash(tokenHash: string): Promise<{ gameId: string; index: number } | null>;
  /**
   * Newest first, at most `first` rows. A cursor is a row's (createdAt, id): `after` keeps the
   * rows older than it, `options.before` the rows newer than it. `options.fromOldest` takes the
   * `first` oldest rows of that window instead of the newest (paging backwards), still answered
   * newest first.
   */
  abstract list(filter: GameFilter, first: number, after?: GameCursor, options?: { before?: GameCursor; fromOldest?: boolean }): Promise<StoredGame[]>;
  /** How many games match the filter. */
  abstract count(filter: GameFilter): Promise<number>;
  abstract ping(): Promise<void>;
}
