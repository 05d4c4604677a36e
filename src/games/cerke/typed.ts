/** Cerke's typed answers on the generic API (Game.state, Game.legalMoves, outcomes and event details). */
import type { CerkeAction } from './engine/index.js';
import type { TypedAnswers } from '../typed-game.js';
import { toCerkeOutcome, toCerkeState } from './cerke.mapping.js';
import { CerkeLegalAction, CerkeLegalActions } from './dto/actions.js';
import { CerkeOutcome, CerkeStateModel } from './dto/state.model.js';

// Cerke hides nothing and serves actions as sent, so an action taken has the shape of a legal one.
const toAction = (action: CerkeAction): CerkeLegalAction => action as CerkeLegalAction;

export const cerkeTyped: TypedAnswers<CerkeStateModel, CerkeLegalActions, CerkeOutcome, CerkeLegalAction> = {
  classes: { state: CerkeStateModel, legalMoves: CerkeLegalActions, outcome: CerkeOutcome, action: CerkeLegalAction },
  state: toCerkeState,
  legalMoves: (_game, answer) => ({ seat: answer.seat, actions: (answer.legalActions as CerkeAction[]).map(toAction) }),
  outcomeDetail: toCerkeOutcome,
  action: (served) => toAction(served as CerkeAction),
};
