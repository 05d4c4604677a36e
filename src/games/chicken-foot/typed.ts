/** Chicken Foot's typed answers on the generic API (Game.state, Game.legalMoves, outcomes and event details). */
import type { ChickenFootAction } from '../../engines/chicken-foot/index.js';
import { type TypedGame, typedAs } from '../typed-game.js';
import { ChickenFootActionTaken, ChickenFootLegalActions, ChickenFootOutcome } from './dto/answers.js';
import { ChickenFootTable } from './dto/table.js';
import { toActionTaken, toLegalActions, toTable } from './mapping.js';

export const chickenFootTyped: TypedGame<ChickenFootTable, ChickenFootLegalActions, ChickenFootOutcome, ChickenFootActionTaken> = {
  state: (game, answer) => typedAs(ChickenFootTable, toTable(game, answer)),
  legalMoves: (_game, answer) => typedAs(ChickenFootLegalActions, toLegalActions(answer.seat, answer.legalActions as ChickenFootAction[])),
  outcomeDetail: ({ details }) => {
    const d = details as Omit<ChickenFootOutcome, 'resigned'> & { resigned?: number | null };
    return d ? typedAs(ChickenFootOutcome, { ...d, resigned: d.resigned ?? null }) : null;
  },
  action: (served) => typedAs(ChickenFootActionTaken, toActionTaken(served as Parameters<typeof toActionTaken>[0])),
};
