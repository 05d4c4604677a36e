/** Cerke's typed answers on the generic API (Game.state, Game.legalMoves, outcomes and event details). */
import type { CerkeAction } from '../../engines/cerke/index.js';
import { type TypedGame, typedAs } from '../typed-game.js';
import { toCerkeOutcome, toCerkeState } from './cerke.mapping.js';
import { CerkeLegalAction, CerkeLegalActions } from './dto/actions.js';
import { CerkeOutcome, CerkeStateModel } from './dto/state.model.js';

// Cerke hides nothing and serves actions as sent, so an action taken has the shape of a legal one.
const toAction = (action: CerkeAction): CerkeLegalAction => typedAs(CerkeLegalAction, action as CerkeLegalAction);

export const cerkeTyped: TypedGame<CerkeStateModel, CerkeLegalActions, CerkeOutcome, CerkeLegalAction> = {
  state: (game, answer) => typedAs(CerkeStateModel, toCerkeState(game, answer)),
  legalMoves: (_game, answer) => typedAs(CerkeLegalActions, { seat: answer.seat, actions: (answer.legalActions as CerkeAction[]).map(toAction) }),
  outcomeDetail: (outcome) => {
    const detail = toCerkeOutcome(outcome);
    return detail && typedAs(CerkeOutcome, detail);
  },
  action: (served) => toAction(served as CerkeAction),
};
