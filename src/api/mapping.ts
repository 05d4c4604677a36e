import {
  type ClockView,
  type GameRow,
  isGameId,
  type LiveGame,
  type MoveResult as RefereeMoveResult,
  RefereeError,
  type SeatRow,
  type StoredEvent,
  type TimeControl as TimeControlRules,
} from '../referee/index.js';
import { rejectionCode } from './rejection-codes.js';
import { type Game, type GameClock, type GameEvent, type GameStatusEnum, type MoveAccepted, type Rejection, type TimeControl, TimeControlKind, type TimeControlInput } from './models.js';

/**
 * A Game model. From a command or a lookup it keeps the live game for its field resolvers; in a
 * list it is built from the stored row alone, so one unreadable game cannot fail the whole list
 * (its own view fields answer the error).
 */
export type GameModel = Game & { live?: LiveGame };

export function toGame(live: LiveGame): GameModel {
  const { gameId: id, kind, status, version, lastHash: headHash, ruleset, rulesetHash, imported, createdAt, seats } = live;
  return { ...toGameFromRow({ id, kind, status, version, headHash, ruleset, rulesetHash, imported, createdAt, seats }), live };
}

export function toGameFromRow(row: Pick<GameRow, 'id' | 'kind' | 'status' | 'version' | 'headHash' | 'ruleset' | 'rulesetHash' | 'imported' | 'createdAt'> & { seats: SeatRow[] }): GameModel {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status as GameStatusEnum,
    version: row.version,
    headHash: row.headHash,
    ruleset: row.ruleset,
    rulesetHash: row.rulesetHash,
    imported: row.imported,
    createdAt: row.createdAt,
    // A tournament game's seats are its participants' (their tokens act as the seats).
    seats: row.seats.map((s) => ({ index: s.index, name: s.name, taken: Boolean(s.tokenHash || s.participantId) })),
  };
}

export function toMoveResult(r: RefereeMoveResult): MoveAccepted | Rejection {
  if (!r.accepted) return { code: rejectionCode(r.code), message: r.message, currentVersion: r.version };
  return { gameId: r.gameId, seat: r.seat, version: r.version, status: r.status as GameStatusEnum, events: ofGame(r.gameId, r.events), result: r.outcome };
}

/** Events as GameEvent models: each names its game, so its typed `detail` can be read in the game's terms. */
export const ofGame = (gameId: string, events: readonly StoredEvent[]): GameEvent[] => events.map((e) => ({ ...e, gameId }));

/** The seats that may act now, as every typed answer gives them: none until the game started, nor once it is over. */
export const seatsToAct = (game: LiveGame): number[] => (game.status === 'ACTIVE' ? game.engine.toAct(game.state) : []);

/**
 * A game id argument, checked before it goes anywhere near the database: anything that is not
 * an id this referee could have given out (base64url, 12 characters today; not a NUL, a control
 * or bidi character, a lone surrogate, a slash, nor longer than 64) names no game.
 */
export function gameIdOf(id: unknown): string {
  if (!isGameId(id)) throw new RefereeError('NOT_FOUND', 'no such game');
  return id;
}

/** For mutations that answer a union: the Rejection for an id that names no game, or null. */
export function rejectGameId(id: unknown): Rejection | null {
  return isGameId(id) ? null : { code: 'NOT_FOUND', message: 'no such game', currentVersion: null };
}

/** Mutations answer a refusal as a Rejection, never as an error. */
export function toRejection(err: unknown): Rejection {
  if (err instanceof RefereeError) return { code: rejectionCode(err.code), message: err.message, currentVersion: null };
  throw err;
}

/** A time control input as the referee reads it (seconds, the engine's spelling): the fields given, for the referee to check. */
export function timeControlOf(input: TimeControlInput | null | undefined): unknown {
  if (!input) return undefined;
  const { kind, ...fields } = input;
  return { kind: kind.toLowerCase(), ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) };
}

const seconds = (ms: number) => ms / 1000;

/** A time control as created (a game's, a tournament's), in seconds. */
export function toTimeControl(c: TimeControlRules): TimeControl {
  return {
    kind: c.kind === 'fischer' ? TimeControlKind.FISCHER : TimeControlKind.CORRESPONDENCE,
    perMoveSeconds: c.kind === 'correspondence' ? seconds(c.perMoveMs) : null,
    bankCapSeconds: c.kind === 'correspondence' && c.bankCapMs !== null ? seconds(c.bankCapMs) : null,
    vacationSeconds: c.kind === 'correspondence' ? seconds(c.vacationMs) : null,
    baseSeconds: c.kind === 'fischer' ? seconds(c.baseMs) : null,
    incrementSeconds: c.kind === 'fischer' ? seconds(c.incrementMs) : null,
  };
}

export function toGameClock(view: ClockView): GameClock {
  const control = toTimeControl(view.control);
  return {
    kind: control.kind,
    control,
    remainingMs: view.remainingMs,
    running: view.running,
    deadline: view.deadline,
    paused: view.paused,
    pauseRequests: view.requests,
    timedOut: view.timedOut,
    autoPlayed: view.autoPlayed,
    vacationLeftMs: view.vacationLeftMs,
  };
}
