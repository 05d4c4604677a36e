import { canonicalJson } from '../canonical.js';
import type { StoredEvent } from '../stream.js';
import { decodeTournamentEvent } from '../tournament/events.js';
import { leafHash } from './merkle.js';

/**
 * An entry of the transparency log: the final head of a finished game or tournament. Its bytes
 * (what the tree hashes as a leaf, RFC 9162 §2.1.1) are the RFC 8785 canonical JSON, in UTF-8, of
 *
 *     { "format": "arbiter-log-entry/1", "kind": "game" | "tournament", "id", "seq", "hash", "result" }
 *
 * `seq` and `hash` are the stream's last event (its head: a bundle must end there), `result` is
 * the game's result (null for an aborted game) or the tournament's final ranking. Anyone can
 * recompute the bytes from a bundle with any JCS implementation.
 */
export const LOG_ENTRY_FORMAT = 'arbiter-log-entry/1';

export type LogEntryKind = 'game' | 'tournament';

export interface LogEntry {
  kind: LogEntryKind;
  id: string;
  seq: number;
  hash: string;
  result: unknown;
}

export const entryBytes = (e: LogEntry): Buffer => Buffer.from(canonicalJson({ format: LOG_ENTRY_FORMAT, kind: e.kind, id: e.id, seq: e.seq, hash: e.hash, result: e.result ?? null }), 'utf8');

export const entryLeafHash = (e: LogEntry): Buffer => leafHash(entryBytes(e));

/** A finished tournament's result as its entry records it: the ranking its TournamentFinished event announced. */
export function tournamentResult(events: readonly StoredEvent[]): { ranking: unknown } | null {
  const end = events.find((e) => e.type === 'TournamentFinished');
  if (!end) return null;
  const decoded = decodeTournamentEvent(end);
  return { ranking: decoded.ok && decoded.value.type === 'TournamentFinished' ? decoded.value.payload.ranking : null };
}
