/**
 * Chicken Foot dominoes (docs/rules/chicken-foot.md): the whole game of N+1 rounds, presets
 * "classic" and "malta-cross", every option of docs/rules/chicken-foot.md §13.
 */
import type { Engine } from '../../../engines/kit/index.js';
import { autoAction, forcedAction, onTimeout, roundOf } from './auto-play.js';
import * as game from './game.js';
import type { ChickenFootAction, ChickenFootState } from './game.js';
import { exportRecord, importRecord, recordContentType } from './record.js';
import { parseRuleset, type ChickenFootRuleset } from './ruleset.js';
import { actionView, chanceView, describe, outcome, seatName, view } from './views.js';

export const chickenFootEngine: Engine<ChickenFootRuleset, ChickenFootState, ChickenFootAction> = {
  kind: 'chicken-foot',
  // Pips left in hand: the fewer, the better.
  pointsOrder: 'lower',
  parseRuleset,
  seatCount: (ruleset) => ruleset.players,
  parseAction: game.parseAction,
  init: game.init,
  pendingChance: game.pendingChance,
  resolveChance: game.resolveChance,
  toAct: game.toAct,
  legalActions: game.legalActions,
  forcedAction,
  apply: game.apply,
  resign: game.resign,
  view,
  outcome,
  seatLabel: seatName,
  describe,
  actionView,
  chanceView,
  exportRecord,
  importRecord,
  recordContentType,
  onTimeout,
  autoAction,
  roundOf,
};

export { ChickenFootCodes, isBlocked, rankWinners, FIRST_DEALER_LABEL, SHUFFLE_LABEL } from './game.js';
export type { ChickenFootAction, ChickenFootState, Decider, FinishedRound, RoundEnd, RoundInPlay } from './game.js';
export { dealValues, pendingDeal, type OrganizerDeal } from './deal.js';
export { RECORD_FORMAT } from './record.js';
export { CLASSIC_HAND_SIZES, parseRuleset, rulesetWarnings, yardAfterDeal } from './ruleset.js';
export type { ChickenFootRuleset, Preset, TieBreak, GameEnd, OnTimeout } from './ruleset.js';
export { boardPhase, HUB, targets, type BoardPhase, type TableNode, type TreeView } from './table.js';
export { buildSet, checkSet, handValue, setPips, setSize, tileValue, type TileId } from './tiles.js';
export type { ChickenFootView, FinishedRoundView, RoundView } from './views.js';
