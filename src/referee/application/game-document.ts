import type { ClockView, TimeControl } from '../core/game/clock.js';
import type { GameAnswer } from './game-answer.js';

/** A time control as documents show it (a game's, a tournament's): in seconds, by GraphQL's TimeControl field names. */
export interface TimeControlDocument {
  kind: 'CORRESPONDENCE' | 'FISCHER';
  perMoveSeconds: number | null;
  bankCapSeconds: number | null;
  vacationSeconds: number | null;
  baseSeconds: number | null;
  incrementSeconds: number | null;
}

const seconds = (ms: number) => ms / 1000;

export function timeControlDocument(c: TimeControl): TimeControlDocument {
  return {
    kind: c.kind === 'fischer' ? 'FISCHER' : 'CORRESPONDENCE',
    perMoveSeconds: c.kind === 'correspondence' ? seconds(c.perMoveMs) : null,
    bankCapSeconds: c.kind === 'correspondence' && c.bankCapMs !== null ? seconds(c.bankCapMs) : null,
    vacationSeconds: c.kind === 'correspondence' ? seconds(c.vacationMs) : null,
    baseSeconds: c.kind === 'fischer' ? seconds(c.baseMs) : null,
    incrementSeconds: c.kind === 'fischer' ? seconds(c.incrementMs) : null,
  };
}

/** The clocks as documents show them, by GraphQL's GameClock field names. */
export function clockDocument(view: ClockView) {
  const control = timeControlDocument(view.control);
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

/**
 * A game's answer for one viewer as a JSON document, each field as GraphQL's Game answers it:
 * REST's GET /api/games/:id and the webhooks' messages (which leave out the view and the legal
 * actions: a receiver reads them with its token when it acts) are this, so they cannot drift.
 */
export function gameDocument(answer: GameAnswer, parts: { play: boolean }) {
  return {
    ...answer.summary,
    mySeat: answer.seat,
    toAct: answer.toAct,
    ...(parts.play ? { view: answer.view, legalActions: answer.legalActions } : {}),
    result: answer.outcome,
    fairness: answer.fairness,
    clock: answer.clock && clockDocument(answer.clock),
  };
}
