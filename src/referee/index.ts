/**
 * The referee's public entry: what other modules (webhooks, tournaments, the API, the games'
 * typed APIs, the host) may use of it. Its folders (core, store, application) are its own.
 */
export { sha256Hex } from './core/canonical.js';
export { RefereeError } from './core/errors.js';
export { type ClockState, deadlineMs } from './core/game/clock.js';
export { decodeGameEvent } from './core/game/events.js';
export type { GameStatus } from './core/game/state.js';
export { isGameId, isTournamentId } from './core/ids.js';
export type { StoredEvent } from './core/stream.js';
export { EventStore } from './store/event-store.js';
export { type ProjectionSql, ProjectionWriters } from './store/projections.js';
export { TournamentStore } from './store/tournament-store.js';
export { Clock } from './application/clock.js';
export { type ConsequenceHandler, GameConsequences } from './application/consequences.js';
export { GameDirectory, TokenDirectory, type TokenLookup, type TokenRole } from './application/directories.js';
export { type LowTimeListener, LowTimeListeners } from './application/low-time.js';
export { tokenHash } from './application/seat-tokens.js';
