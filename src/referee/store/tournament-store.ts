import type { StoredEvent } from '../core/stream.js';
import type { ConsequenceRows, NewGameRows } from './event-store.js';

export interface TournamentRow {
  id: string;
  name: string;
  kind: string;
  format: string;
  status: string;
  version: number;
  headHash: string;
  seedCommitment: string;
  seed: string;
  organizerTokenHash: string;
  createdAt: Date;
}

/** Where a tournament's stream stands after an append. */
export interface TournamentHead {
  version: number;
  hash: string;
  status: string;
}

/** Rows stored with a tournament's events, in the same transaction. */
export interface TournamentExtras {
  /** Games a pairing (or a knockout replay) schedules, with what their creation implies: all stored, or none. */
  games?: NewGameRows[];
  /** The participants registered by these events (one, or a bulk registration's), with their tokens' hashes. */
  participants?: { id: string; registrationNo: number; name: string; tokenHash: string }[];
  /** The rows the tournament's own events imply (TournamentConsequences), stored with them. */
  consequences?: readonly ConsequenceRows[];
}

/**
 * The tournament store port: streams (the same row shape as games'), their participants and the
 * games their rounds schedule. An append is all or nothing at an expected version: a racing
 * writer gets AppendConflict and stores nothing, not even its games. The PostgreSQL adapter is
 * the service's; the in-memory one serves unit tests. It also answers the games' questions about
 * the tournaments' tokens (see TokenDirectory).
 */
export abstract class TournamentStore {
  abstract create(row: Omit<TournamentRow, 'createdAt'>, events: StoredEvent[]): Promise<void>;
  /** Appends after `events[0].seq - 1` (the expected version), with the rows that go with the events. */
  abstract append(id: string, events: StoredEvent[], head: TournamentHead, extras?: TournamentExtras): Promise<void>;
  abstract tournament(id: string): Promise<TournamentRow | null>;
  /** Events after `afterSeq`, in order. */
  /** The events after `afterSeq`, up to `untilSeq` (omitted: the last), in seq order. */
  abstract events(id: string, afterSeq?: number, untilSeq?: number): Promise<StoredEvent[]>;
  async version(id: string): Promise<number | null> {
    return (await this.versions([id])).get(id) ?? null;
  }
  /** The stored versions of these tournaments (those that exist). */
  abstract versions(ids: readonly string[]): Promise<Map<string, number>>;
  /** Newest first. */
  abstract list(first: number, after?: { createdAt: Date; id: string }): Promise<TournamentRow[]>;
  /** The tournaments not finished yet. */
  abstract unfinished(): Promise<string[]>;
  /** The participant a participant token names (by its hash). */
  abstract participant(tokenHash: string): Promise<{ tournamentId: string; participantId: string } | null>;
  /** The tournament whose organizer's token this is (by its hash); null for none. */
  abstract organizedBy(organizerTokenHash: string): Promise<string | null>;
}
