import { type ConsequenceHandler, type LiveGame, type LiveTournament, type LogEntry, type ProjectionSql, type StoredEvent, tournamentResult } from '../referee/index.js';

/** The log's projection of the appends: a finished stream's entry. */
export const LOG_ENTRIES = 'log_entries';

/**
 * A game's entry, stored in the statement that ends it (finished, or aborted with no result): its
 * final head and result. A game ends once, so it has one entry; ON CONFLICT keeps the first.
 */
export class GameEntries implements ConsequenceHandler<LiveGame> {
  readonly projection = LOG_ENTRIES;
  async rowsOf(before: LiveGame | null, after: LiveGame): Promise<LogEntry[]> {
    if (!after.ended || before?.ended) return [];
    return [{ kind: 'game', id: after.gameId, seq: after.version, hash: after.lastHash, result: after.outcome ?? null }];
  }
}

/** A tournament's entry, stored in the transaction that finishes it: its final head and ranking (the TournamentFinished event's). */
export class TournamentEntries implements ConsequenceHandler<LiveTournament> {
  readonly projection = LOG_ENTRIES;
  async rowsOf(before: LiveTournament | null, after: LiveTournament, events: readonly StoredEvent[]): Promise<LogEntry[]> {
    if (!after.finished || before?.finished) return [];
    return [{ kind: 'tournament', id: after.tournamentId, seq: after.version, hash: after.lastHash, result: tournamentResult(events) }];
  }
}

export const LOG_ENTRIES_SQL: ProjectionSql<LogEntry> = {
  projection: LOG_ENTRIES,
  parameter: (rows) => ({ variant: '', value: JSON.stringify(rows.map((r) => ({ kind: r.kind, stream_id: r.id, seq: r.seq, hash: r.hash, result: r.result ?? null }))) }),
  ctes: (param) => `log_entries_add AS (
  INSERT INTO log_entries (kind, stream_id, seq, hash, result)
  SELECT t.kind, t.stream_id, t.seq, t.hash, t.result FROM jsonb_to_recordset(${param}::jsonb) AS t(kind text, stream_id text, seq int, hash text, result jsonb)
  ON CONFLICT (kind, stream_id) WHERE kind IN ('game', 'tournament') DO NOTHING
)`,
};
