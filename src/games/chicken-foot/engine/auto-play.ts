/**
 * The turns the referee plays for a seat. With ruleset `autoPlayForced`, a seat's only legal
 * action (a draw it must make, a pass, a single play) is played for it at once.
 *
 * A seat that runs out of time in a game with a clock: by default (ruleset
 * `onTimeout: "autoPlay"`) the referee plays its turns until the round ends, by one fixed rule
 * anyone can check: draw when it must draw, pass when it must pass, otherwise play the tile with
 * the lowest pip total (on a tie, the first such play in `legalActions` order). With
 * `onTimeout: "forfeit"` the seat concedes the whole game.
 */
import type { Seat } from '../../../engines/kit/index.js';
import { type ChickenFootAction, type ChickenFootState, legalActions } from './game.js';
import type { ChickenFootRuleset } from './ruleset.js';
import { pips } from './tiles.js';

export const onTimeout = (ruleset: ChickenFootRuleset): 'concede' | 'autoPlay' => (ruleset.onTimeout === 'forfeit' ? 'concede' : 'autoPlay');

const pipTotal = (tile: string): number => pips(tile)[0] + pips(tile)[1];

/** The auto-played seat's action now, or null when it is not to act. */
export function autoAction(state: ChickenFootState, seat: Seat): ChickenFootAction | null {
  const actions = legalActions(state, seat);
  let best: Extract<ChickenFootAction, { type: 'play' }> | null = null;
  for (const a of actions) if (a.type === 'play' && (best === null || pipTotal(a.tile) < pipTotal(best.tile))) best = a;
  // With no play, the only legal action is the draw it must make or the pass it must make.
  return best ?? actions.find((a) => a.type === 'draw') ?? actions.find((a) => a.type === 'pass') ?? null;
}

/** The seat to act's only legal action, when the ruleset has forced moves played for it. */
export function forcedAction(state: ChickenFootState): { seat: Seat; action: ChickenFootAction } | null {
  const round = state.round;
  if (!state.ruleset.autoPlayForced || state.end || !round) return null;
  const actions = legalActions(state, round.turn);
  return actions.length === 1 ? { seat: round.turn, action: actions[0] } : null;
}

/** The round in play, or the one to be dealt next: it changes as soon as a round ends. */
export const roundOf = (state: ChickenFootState): number => state.rounds.length + 1;
