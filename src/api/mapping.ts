import {
  type ClockView,
  clockDocument,
  type GameAnswer,
  type GameSnapshot,
  type GameSummary,
  isGameId,
  type MoveResult as RefereeMoveResult,
  ORGANIZER_SEAT,
  RefereeError,
  type StoredEvent,
  summaryOf,
  type TimeControl as TimeControlRules,
  timeControlDocument,
} from '../referee/index.js';
import type { Viewer } from '../engines/kit/index.js';
import { type Game, type GameClock, type GameEvent, type GameStatusEnum, type MoveAccepted, type Rejection, type TimeControl, TimeControlKind, type TimeControlInput } from './models.js';

/** A game and its answer for the caller: what every seat-specific field of a Game is read from. */
export interface GameShownTo {
  game: GameSnapshot;
  answer: GameAnswer;
}

/**
 * A Game model: the game's summary, and the game itself when a command or a lookup has it. A
 * list's game holds its summary only (one unreadable game cannot fail the whole list): it is
 * read when a field needs more, and then answers that field with its own error. `shown` keeps
 * the answer once made, so the fields of one Game share one read and one token check.
 */
export type GameModel = Game & { snapshot?: GameSnapshot; shown?: Promise<GameShownTo> };

export const toGame = (game: GameSnapshot): GameModel => ({ ...toGameSummary(summaryOf(game)), snapshot: game });

export const toGameSummary = (summary: GameSummary): GameModel => ({ ...summary, status: summary.status as GameStatusEnum });

/** The seat an answer to a move is for: none for a tournament's organizer (its seat is -1), who is answered as a spectator. */
const moverOf = (seat: number): Viewer => (seat === ORGANIZER_SEAT ? 'spectator' : seat);

/** A move's answer, with the game as the move left it: its fields read nothing again. */
export type MoveAcceptedModel = MoveAccepted & { snapshot: GameSnapshot; viewer: Viewer };

export function toMoveResult(r: RefereeMoveResult): MoveAcceptedModel | Rejection {
  if (!r.accepted) return { code: r.code, message: r.message, currentVersion: r.version };
  return { gameId: r.gameId, seat: r.seat, version: r.version, status: r.status as GameStatusEnum, events: ofGame(r.game, r.events), result: r.outcome, snapshot: r.game, viewer: moverOf(r.seat) };
}

/** An event as a GameEvent model: it names its game and kind, so its typed `detail` is read in the game's terms. */
export const asGameEvent = (game: { gameId: string; kind: string }, e: StoredEvent): GameEvent => ({ ...e, createdAt: new Date(e.createdAt), gameId: game.gameId, kind: game.kind });

export const ofGame = (game: { gameId: string; kind: string }, events: readonly StoredEvent[]): GameEvent[] => events.map((e) => asGameEvent(game, e));

/**
 * A game id argument, checked before it goes anywhere near the database: anything that is not
 * an id this referee could have given out (base64url, 12 characters today; not a NUL, a control
 * or bidi character, a lone surrogate, a slash, nor longer than 64) names no game.
 */
export function gameIdOf(id: unknown): string {
  if (!isGameId(id)) throw new RefereeError('NOT_FOUND', 'no such game');
  return id;
}

/** A query parameter's whole number, within what the database's integer columns hold. */
export function wholeNumber(value: unknown, name: string): number {
  if (typeof value === 'string' && /^[0-9]{1,10}$/.test(value) && Number(value) <= 2_147_483_647) return Number(value);
  throw new RefereeError('INVALID_INPUT', `${name} must be a whole number from 0 to 2147483647`);
}

/** For mutations that answer a union: the Rejection for an id that names no game, or null. */
export function rejectGameId(id: unknown): Rejection | null {
  return isGameId(id) ? null : { code: 'NOT_FOUND', message: 'no such game', currentVersion: null };
}

/**
 * Mutations answer a refusal as a Rejection, never as an error. A refusal that passes in time (a
 * quota a command charged as it went: RATE_LIMITED with retryAfter) is no answer to the command:
 * it stays an error, answered as the limits answer one before execution (429, Retry-After).
 */
export function toRejection(err: unknown): Rejection {
  if (err instanceof RefereeError && err.retryAfter === undefined) return { code: err.code, message: err.message, currentVersion: null };
  throw err;
}

/** A mutation's answer: what `command` answers, or its refusal as a Rejection. */
export async function answerOrRejection<T>(command: () => Promise<T>): Promise<T | Rejection> {
  try {
    return await command();
  } catch (err) {
    return toRejection(err);
  }
}

/** A time control input as the referee reads it (seconds, the engine's spelling): the fields given, for the referee to check. */
export function timeControlOf(input: TimeControlInput | null | undefined): unknown {
  if (!input) return undefined;
  const { kind, ...fields } = input;
  return { kind: kind.toLowerCase(), ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) };
}

/** A time control as created (a game's, a tournament's), in seconds. */
export function toTimeControl(c: TimeControlRules): TimeControl {
  const document = timeControlDocument(c);
  return { ...document, kind: TimeControlKind[document.kind] };
}

export function toGameClock(view: ClockView): GameClock {
  const document = clockDocument(view);
  return { ...document, deadline: document.deadline === null ? null : new Date(document.deadline), kind: TimeControlKind[document.kind], control: toTimeControl(view.control) };
}
