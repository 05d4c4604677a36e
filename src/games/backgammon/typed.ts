/** Backgammon's typed answers on the generic API (Game.state, Game.legalMoves, outcomes and event details). */
import { type BackgammonAction, type BackgammonState, type GameResult, legalPlays } from './engine/index.js';
import type { TypedAnswers } from '../typed-game.js';
import { BackgammonActionTaken, BackgammonLegalActions, BackgammonOutcome } from './dto/answers.js';
import { BackgammonPosition } from './dto/position.js';
import { toActionTaken, toLegalActions, toPosition } from './mapping.js';

export const backgammonTyped: TypedAnswers<BackgammonPosition, BackgammonLegalActions, BackgammonOutcome, BackgammonActionTaken> = {
  classes: { state: BackgammonPosition, legalMoves: BackgammonLegalActions, outcome: BackgammonOutcome, action: BackgammonActionTaken },
  state: toPosition,
  legalMoves: (game, answer) => toLegalActions(answer.seat, answer.legalActions as BackgammonAction[], () => legalPlays(game.state as BackgammonState)),
  outcomeDetail: ({ details }) => {
    const d = details as { matchLength: number; finalScore: number[]; games: GameResult[] } | undefined;
    return d ? { matchLength: d.matchLength, finalScore: d.finalScore, games: d.games } : null;
  },
  action: (served) => toActionTaken(served as BackgammonAction),
  // The referee draws each die as 0-5 (a uniform value below 6); the game's die shows that plus one.
  chanceValues: (values) => values.map((v) => v + 1),
};
