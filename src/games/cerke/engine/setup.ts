/** Builds a game state from an arbitrary position (puzzles, analysis, tests). */
import { type Cell, type Colour, type Kind, type Side, TAM2, parseSquare, seatOf } from './board.js';
import type { CerkeRuleset } from './ruleset.js';
import { type CerkeState, INITIAL_POINTS, init } from './state.js';
import { fail, ok, type Result } from '../../../engines/kit/index.js';

export interface PositionSetup {
  /** Every piece on the board; all other squares are empty. */
  pieces: { square: string; kind: Kind; colour: Colour; side: Side }[];
  /** Tam2's square; null for a board without Tam2. */
  tam2: string | null;
  toMove: Side;
  stake?: number;
  /** Points of IA and A (default 20 each; they must sum to 40). */
  points?: { IA: number; A: number };
  capturedPiles?: { IA: { kind: Kind; colour: Colour }[]; A: { kind: Kind; colour: Colour }[] };
  /** Whether the turn just played moved Tam2. */
  previousTurnMovedTam2?: boolean;
}

/** A state in the middle of the first season with `setup` on the board and `toMove` to act. */
export function stateFromPosition(ruleset: CerkeRuleset, setup: PositionSetup): Result<CerkeState> {
  const board: Cell[] = new Array<Cell>(81).fill(null);
  const place = (name: string, cell: Cell): string | null => {
    const square = parseSquare(name);
    if (square < 0) return `${name} is not a square`;
    if (board[square] !== null) return `${name} is given twice`;
    board[square] = cell;
    return null;
  };
  for (const piece of setup.pieces) {
    const problem = place(piece.square, { kind: piece.kind, colour: piece.colour, side: piece.side });
    if (problem) return fail('INVALID_INPUT', problem);
  }
  if (setup.tam2 !== null) {
    const problem = place(setup.tam2, TAM2);
    if (problem) return fail('INVALID_INPUT', problem);
  }
  const points = setup.points ?? { IA: INITIAL_POINTS, A: INITIAL_POINTS };
  if (points.IA + points.A !== 2 * INITIAL_POINTS) return fail('INVALID_INPUT', 'points must sum to 40');
  return ok({
    ...init(ruleset),
    board,
    points: [points.IA, points.A],
    stake: setup.stake ?? 1,
    capturedPiles: [setup.capturedPiles?.IA ?? [], setup.capturedPiles?.A ?? []],
    toMove: seatOf(setup.toMove),
    firstMover: setup.toMove,
    previousTurnMovedTam2: setup.previousTurnMovedTam2 ?? false,
    phase: { name: 'move' },
  });
}
