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
  createdAt: Date;
  updatedAt: Date;
}

export interface SeatRow {
  index: number;
  name: string | null;
  tokenHash: string | null;
  clientSeed: string | null;
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

export interface GameFilter {
  kind?: string;
  status?: GameStatus;
  imported?: boolean;
}

/** A new game's rows: the game, its seats and its first events. */
export type NewGame = Omit<GameRow, 'createdAt' | 'updatedAt'>;
export type StoredGame = GameRow & { seats: SeatRow[] };
export type SeatClaim = { index: number; name: string | null; tokenHash: string; clientSeed: string | null };

/**
 * The event store port: read a stream, create one, append at an expected version. The
 * PostgreSQL adapter is the service's; the in-memory one serves unit tests. An append whose
 * expected version was taken rejects with AppendConflict and stores nothing.
 */
export abstract class EventStore {
  /** Creates the game row, its seats and its first events, atomically. */
  abstract createGame(game: NewGame, seats: SeatRow[], events: StoredEvent[]): Promise<void>;
  /** Appends events after `events[0].seq - 1` (the expected version) and moves the game's head. */
  abstract append(gameId: string, events: StoredEvent[], head: GameHead): Promise<void>;
  /** Claims an open seat and appends the join's events, atomically. */
  abstract join(gameId: string, events: StoredEvent[], head: GameHead, seat: SeatClaim): Promise<void>;
  abstract game(id: string): Promise<StoredGame | null>;
  /** Events in (afterSeq, untilSeq], in order. */
  abstract events(gameId: string, afterSeq?: number, limit?: number, untilSeq?: number): Promise<StoredEvent[]>;
  /** The stored version of a game (to confirm a refusal made from a cached state). */
  abstract version(gameId: string): Promise<number | null>;
  abstract seatByTokenHash(tokenHash: string): Promise<{ gameId: string; index: number } | null>;
  /** Newest first; the cursor is the last row's (createdAt, id). */
  abstract list(filter: GameFilter, first: number, after?: { createdAt: Date; id: string }): Promise<StoredGame[]>;
  abstract ping(): Promise<void>;
}
