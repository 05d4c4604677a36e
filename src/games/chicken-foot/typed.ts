/** Chicken Foot's typed answers on the generic API (Game.state, Game.legalMoves, outcomes and event details). */
import type { ChickenFootAction } from './engine/index.js';
import type { TypedAnswers } from '../typed-game.js';
import { ChickenFootActionTaken, ChickenFootLegalActions, ChickenFootOutcome } from './dto/answers.js';
import { ChickenFootTable } from './dto/table.js';
import { toActionTaken, toLegalActions, toTable } from './mapping.js';

export const chickenFootTyped: TypedAnswers<ChickenFootTable, ChickenFootLegalActions, ChickenFootOutcome, ChickenFootActionTaken> = {
  classes: { state: ChickenFootTable, legalMoves: ChickenFootLegalActions, outcome: ChickenFootOutcome, action: ChickenFootActionTaken },
  state: toTable,
  legalMoves: (_game, answer) => toLegalActions(answer.seat, answer.legalActions as ChickenFootAction[]),
  outcomeDetail: ({ details }) => {
    const d = details as Omit<ChickenFootOutcome, 'resigned'> & { resigned?: number | null };
    return d ? { ...d, resigned: d.resigned ?? null } : null;
  },
  action: (served) => toActionTaken(served as Parameters<typeof toActionTaken>[0]),
};
