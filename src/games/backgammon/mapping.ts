/** Engine values to the typed GraphQL objects: checker locations become numbers (bar 25, off 0). */
import { locationNumber } from './engine/board.js';
import type { BackgammonAction, BackgammonView, CheckerMove, PlayedMove, PlayOption } from './engine/index.js';
import { type GameAnswer, type GameSnapshot } from '../../referee/index.js';
import { shownIn } from '../typed-game.js';
import type { BackgammonActionTaken, BackgammonLegalActions } from './dto/answers.js';
import type { BackgammonCheckerMove, BackgammonPlay } from './dto/play.js';
import type { BackgammonPosition } from './dto/position.js';

const toCheckerMove = (m: PlayedMove): BackgammonCheckerMove => ({ from: locationNumber(m.from), to: locationNumber(m.to), hit: m.hit });

export const toPlay = (p: PlayOption): BackgammonPlay => ({ ...p, moves: p.moves.map(toCheckerMove) });

/** The position as the game's answer shows it; `toAct` as the generic Game answers it (nobody acts while seats are open). */
export function toPosition(game: GameSnapshot, answer: GameAnswer): BackgammonPosition {
  const view = answer.view as BackgammonView;
  return {
    ...view,
    ...shownIn(answer),
    gameId: game.gameId,
    version: game.version,
    toAct: answer.toAct,
    lastTurn: view.lastTurn && { ...view.lastTurn, moves: view.lastTurn.moves.map(toCheckerMove) },
  };
}

/** The caller's legal actions grouped: the kinds of action open, the plays of the dice (`plays`, with notation) and the resignation levels. */
export function toLegalActions(seat: number | null, actions: BackgammonAction[], plays: () => PlayOption[]): BackgammonLegalActions {
  const types = [...new Set(actions.map((a) => a.type))];
  return {
    seat,
    types,
    plays: types.includes('play') ? plays().map(toPlay) : [],
    resignLevels: actions.flatMap((a) => (a.type === 'resign' ? [a.level] : [])),
  };
}

/** An action as stored (the engine parsed it: "bar" and "off" for 25 and 0). */
export function toActionTaken(action: BackgammonAction): BackgammonActionTaken {
  const numbered = (m: CheckerMove) => ({ from: locationNumber(m.from), to: locationNumber(m.to) });
  return { type: action.type, moves: action.type === 'play' ? action.moves.map(numbered) : null, level: action.type === 'resign' ? action.level : null };
}
