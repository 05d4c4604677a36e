import { canonicalJson } from '../canonical.js';
import type { StoredEvent } from '../stream.js';
import { decodeTournamentEvent } from '../tournament/events.js';
import { leafHash } from './merkle.js';

/**
 * An entry of the transparency log: the final head of a finished game or tournament, or the head
 * of a running one at a checkpoint interval. Its bytes (what the tree hashes as a leaf, RFC 9162
 * §2.1.1) are the RFC 8785 canonical JSON, in UTF-8, of
 *
 *     { "format": "arbiter-log-entry/1", "kind": "game" | "tournament" | "running-game" | "running-tournament", "id", "seq", "hash", "result" }
 *
 * `seq` and `hash` are the stream's last event then (a final head: a bundle must end there; a
 * running head: a later bundle must pass through it), `result` is the game's result (null for an
 * aborted game) or the tournament's final ranking, null for a running head. Anyone can recompute
 * the bytes from a bundle with any JCS implementation.
 */
export const LOG_ENTRY_FORMAT = 'arbiter-log-entry/1';

/** What a stream is: a game or a tournament (its final entry's kind). */
export type StreamKind = 'game' | 'tournament';
export type LogEntryKind = StreamKind | 'running-game' | 'running-tournament';

/** The kind of a stream's running heads. */
export const runningKind = (kind: StreamKind) => (kind === 'game' ? 'running-game' : 'running-tournament');
/** The stream a kind of entry is of, and whether the entry is a running head. */
export const streamOf = (kind: LogEntryKind): { stream: StreamKind; running: boolean } => ({ stream: kind.endsWith('tournament') ? 'tournament' : 'game', running: kind.startsWith('running-') });

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
