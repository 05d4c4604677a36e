/** Legal plays as integrations want them: checker moves and the resulting gnubg Position ID. */
import { fail, ok, type Result } from '../../../engines/kit/index.js';
import { CHECKERS_PER_SIDE, OFF, generatePlays, playNotation, type LegalPlay, type PlayedMove } from './board.js';
import { currentPlays } from './game.js';
import { decodePositionId, encodePositionId } from './ids.js';
import type { BackgammonState } from './types.js';

export interface PlayOption {
  /** Checker moves in the mover's numbering, in an order they can be played. */
  moves: PlayedMove[];
  /** gnubg notation, e.g. `bar/22* 13/9`. */
  notation: string;
  /** The position after the play, oriented to the opponent who is now on roll. */
  resultingPositionId: string;
}

function option(play: LegalPlay): PlayOption {
  return { moves: play.moves, notation: playNotation(play.moves), resultingPositionId: encodePositionId([play.mover, play.opponent]) };
}

/** Every distinct legal play (by final position) of the player on roll; empty unless dice await a play. */
export function legalPlays(state: BackgammonState): PlayOption[] {
  return currentPlays(state).map(option);
}

/**
 * Every legal play for the side on roll in a gnubg Position ID with the given dice (no game needed).
 * An empty list means the roll cannot be played.
 */
export function playsForPosition(positionId: string, dice: number[]): Result<PlayOption[]> {
  const decoded = decodePositionId(positionId);
  if (!decoded.ok) return decoded;
  if (!Array.isArray(dice) || dice.length !== 2 || !dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6)) {
    return fail('INVALID_INPUT', `dice must be two whole numbers from 1 to 6, got ${JSON.stringify(dice) ?? 'nothing'}`);
  }
  const [notOnRoll, onRoll] = decoded.value.map((side) => side.concat(CHECKERS_PER_SIDE - side.reduce((a, b) => a + b, 0)));
  if (onRoll[OFF] === CHECKERS_PER_SIDE || notOnRoll[OFF] === CHECKERS_PER_SIDE) return ok([]);
  return ok(generatePlays(onRoll, notOnRoll, dice[0], dice[1]).map(option));
}
