/** Engine values to the typed GraphQL objects: checker locations become numbers (bar 25, off 0). */
import { locationNumber } from '../../engines/backgammon/board.js';
import type { BackgammonView, PlayedMove, PlayOption } from '../../engines/backgammon/index.js';
import type { BackgammonCheckerMove, BackgammonPlay } from './dto/play.js';
import type { BackgammonPosition } from './dto/position.js';

const toCheckerMove = (m: PlayedMove): BackgammonCheckerMove => ({ from: locationNumber(m.from), to: locationNumber(m.to), hit: m.hit });

export const toPlay = (p: PlayOption): BackgammonPlay => ({ ...p, moves: p.moves.map(toCheckerMove) });

export function toPosition(gameId: string, version: number, view: BackgammonView): BackgammonPosition {
  return { ...view, gameId, version, lastTurn: view.lastTurn && { ...view.lastTurn, moves: view.lastTurn.moves.map(toCheckerMove) } };
}
