/**
 * Backgammon (money games and matches to N points) for the referee. Pure: dice come in through
 * chance requests, states are plain JSON and never mutated.
 */
import type { Engine } from '../../../engines/kit/index.js';
import { backgammonRules } from './engine.js';
import { exportRecord, importRecord } from './record.js';
import type { BackgammonAction, BackgammonRuleset, BackgammonState } from './types.js';

export type { BackgammonAction, BackgammonRuleset, BackgammonState, GameEnd, GameResult, PendingDouble, Phase, TurnRecord } from './types.js';
export type { CheckerMove, Checkers, PlayedMove } from './board.js';
export type { BackgammonView, SideView } from './view.js';
export type { PlayOption } from './analysis.js';
export type { MatchIdFields, TanBoard, ResignationLevel, GnubgGameState } from './ids.js';
export { encodePositionId, decodePositionId, encodeMatchId, decodeMatchId, swapSides } from './ids.js';
export { legalPlays, playsForPosition } from './analysis.js';
export { exportRecord, importRecord } from './record.js';
export { SEAT_NAMES } from './game.js';

export const recordContentType = 'text/plain';

export const backgammonEngine: Engine<BackgammonRuleset, BackgammonState, BackgammonAction> = {
  ...backgammonRules,
  exportRecord,
  importRecord,
  recordContentType,
};
