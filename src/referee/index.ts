/**
 * The referee's public entry: what the other modules (the API, the games' typed APIs,
 * tournaments, webhooks) and the host may use of it. Its folders (core, store, application) are
 * its own: nothing outside src/referee/ imports them (.dependency-cruiser.cjs), except code that
 * must not load the service (the offline verifier, the record parser's worker), which uses the
 * pure core.
 */

// The pure core: ids, hashing, errors, a game's clocks and events, tournaments' rules.
export type { Bundle, Verdict } from './core/audit.js';
export { hashOf, sha256Hex } from './core/canonical.js';
export { type ChallengeStatus, EXPIRY_DEFAULT_SECONDS, EXPIRY_LIMITS, MESSAGE_MAX, REASON_MAX, type SeatChoice } from './core/challenge/challenge.js';
export { EngineRegistry } from './core/engine-registry.js';
export { RefereeError } from './core/errors.js';
export { type ClockState, type ClockView, clockView, deadlineMs, type TimeControl } from './core/game/clock.js';
export { decodeGameEvent } from './core/game/events.js';
export { type Ending, endingWords, seatWords } from './core/game/outcome-words.js';
export type { GameStatus } from './core/game/state.js';
export { decodeServedEvent, type ServedGameEvent } from './core/game/views.js';
export { isGameId, isTournamentId } from './core/ids.js';
export { isObject, type StoredEvent } from './core/stream.js';
export { durationWords } from './core/text.js';
export { isProvisional, type PlayerRating, RATING_FAMILIES, type RatingFamily } from './core/rating/pool.js';
export type { RatingChangeRow, RatingRow } from './store/rating-store.js';
export { parseTournamentGame, type TournamentConfigInput } from './core/tournament/config.js';
export type { GameResultPayload, RoundSettings } from './core/tournament/events.js';
export { boardComplete, completedRounds, historyOf, roundComplete } from './core/tournament/history.js';
export { format as rationalText } from './core/tournament/rational.js';
export { crosstable } from './core/tournament/standings.js';
export { type BoardState, type RoundState, statusOf as tournamentStatusOf, type TournamentState } from './core/tournament/state.js';
export type { Format } from './core/tournament/types.js';
export { nextStepAt } from './core/tournament/schedule.js';
// The transparency log's pure parts: the tree (RFC 9162), its entries, signed checkpoints (C2SP).
export {
  appendLeaves,
  consistencyRanges,
  EMPTY_ROOT,
  hashRanges,
  inclusionRanges,
  leafHash,
  nodesNeeded,
  nodesOfRange,
  type NodeId,
  type Range,
  type StoredNode,
} from './core/tlog/merkle.js';
export { parseCheckpoint, parseNote, parseSignerKey, type SigningKey, signCheckpoint, signerKeyText, type VerifierKey, verifierKeyText } from './core/tlog/checkpoint.js';
export { cosignedAt, parseCosignerKey } from './core/tlog/cosignature.js';
export { addCheckpointBody, TLOG_SIZE_TYPE } from './core/tlog/witness.js';
export { entryBytes, type LogEntry, type LogEntryKind, runningKind, type StreamKind, tournamentResult } from './core/tlog/log-entry.js';
export { checkInOpensAt } from './core/tournament/schedule-config.js';

// The stores, and the registry of the projections' SQL writers.
export { EventStore, type GameRow, type SeatRow } from './store/event-store.js';
export { type FeedItem, type FeedRow, insertFeedRows, PlayerFeedStore } from './store/player-feed-store.js';
export type { PlayerGameRow } from './store/player-games-store.js';
export { type ProjectionSql, ProjectionWriters } from './store/projections.js';
export { type TournamentRow, TournamentStore } from './store/tournament-store.js';

// The application: the services, the module, and the registries other modules plug into.
export { AccountService, type KeyListing, type LiveAccount, type ShownKey } from './application/accounts.js';
export { type LivePool, type RatingPage, RatingService, type ShownRating } from './application/ratings.js';
export { type ChallengeChange, ChallengeConsequences, type ChallengePage, ChallengeService, type LiveChallenge } from './application/challenges.js';
export { Clock } from './application/clock.js';
export { type MoveResult, ORGANIZER_SEAT } from './application/command-handler.js';
export { type ConsequenceHandler, GameConsequences } from './application/consequences.js';
export type { LiveGame } from './application/live-games.js';
export { GameDirectory, TokenDirectory, type TokenLookup, type TokenRole } from './application/directories.js';
export { type GameAnswer, gameAnswer, type GameSnapshot, type GameSummary, resultOf, seatsToAct, summaryOf } from './application/game-answer.js';
export { type EndReason, type GameNotice, NOTICE_TYPES, noticesOf } from './application/game-notices.js';
export { clockDocument, gameDocument, timeControlDocument } from './application/game-document.js';
export type { CreateGameInput } from './application/game-setup.js';
export type { InboxArgs, InboxPage } from './application/player-games.js';
export type { FeedReader } from './application/player-feed.js';
export { KeyedLock } from './application/keyed-lock.js';
export { isKey, KEY_SCOPES, KeyDirectory, type KeyHolder, type KeyScope, type PlayerCard, requireScope } from './application/key-holders.js';
export { type LowTimeListener, LowTimeListeners } from './application/low-time.js';
export { RefereeMetrics } from './application/metrics.port.js';
export { InThreadRecordParser, RecordParser } from './application/record-parser.js';
export { RefereeModule } from './application/referee.module.js';
export { RefereeService } from './application/referee.service.js';
export type { CreationAllowance } from './application/stream-commands.js';
export { isCleanText, tokenHash } from './application/seat-tokens.js';
export { type BulkRow, type EnteredResult, type LiveTournament, type RowRefusal, type TournamentEventsAppended, TournamentService } from './application/tournament.service.js';
export { TournamentConsequences } from './application/tournament-streams.js';
export { TOURNAMENT_NOTICE_TYPES, type TournamentNotice, type TournamentNoticeEvent, tournamentNoticesOf } from './application/tournament-notices.js';
