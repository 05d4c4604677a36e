/**
 * Cerke (cet2 kaik): a pure rules engine for both rule profiles (online, strict), 1, 2 or 4
 * seasons, stick casts as chance requests, hands and declarations, and cerke_online / CKKA
 * records. Seat 0 is the IA side (black King, home rows AI AU IA), seat 1 the A side.
 */
import type { Engine } from '../../../engines/kit/index.js';
import { type CerkeAction, parseAction } from './actions.js';
import { exportRecord, importRecord } from './record.js';
import { type CerkeRuleset, parseRuleset } from './ruleset.js';
import { type CerkeState, apply, init, legalActions, pendingChance, resign, resolveChance, toAct } from './state.js';
import { sideOf } from './board.js';
import { describe, outcome, unreachable, view } from './view.js';

export const cerkeEngine: Engine<CerkeRuleset, CerkeState, CerkeAction> = {
  kind: 'cerke',
  parseRuleset,
  seatCount: () => 2,
  parseAction,
  init,
  pendingChance,
  resolveChance,
  toAct,
  legalActions,
  apply,
  resign,
  view,
  outcome,
  unreachable,
  seatLabel: sideOf,
  describe,
  exportRecord,
  importRecord,
  recordContentType: 'text/plain',
};

export type { CerkeAction } from './actions.js';
export type { CerkeRuleset, Profile } from './ruleset.js';
export { PROFILES } from './ruleset.js';
export type { CerkeState, Phase, SeasonResult, StickCast, NegativeHand, GameResult } from './state.js';
export type { Side, Colour, Kind, Piece, CapturedPiece } from './board.js';
export { parseSquare, squareName } from './board.js';
export type { Hand, HandName } from './hands.js';
export { evaluatePile, handsOf } from './hands.js';
export { stateFromPosition, type PositionSetup } from './setup.js';
export { castValues } from './record.js';
