/**
 * The Cerke board: square names, sides, piece kinds, the fixed special squares and the
 * initial layout (docs/rules/cerke.md §2-§3). Squares are indexed row * 9 + column, row 0 = A (the A side's
 * home edge), column 0 = K.
 */

/** IA plays from rows AI/AU/IA towards row A (black King); A plays from rows A/E/I (red King). */
export type Side = 'IA' | 'A';
export type Colour = 'red' | 'black';
export type Kind = 'Vessel' | 'Pawn' | 'Archer' | 'Chariot' | 'Tiger' | 'Horse' | 'Officer' | 'Shaman' | 'General' | 'King';

export const KINDS: readonly Kind[] = ['Vessel', 'Pawn', 'Archer', 'Chariot', 'Tiger', 'Horse', 'Officer', 'Shaman', 'General', 'King'];
export const COLOURS: readonly Colour[] = ['red', 'black'];
/** Seat 0 is the IA side, seat 1 the A side, for the whole game. */
export const SIDES: readonly Side[] = ['IA', 'A'];

/** A piece on the board: its kind and colour never change; its side is its current owner. */
export interface Piece {
  kind: Kind;
  colour: Colour;
  side: Side;
}
/** A piece in a captured pile (hop1zuo1): owned by the pile's side. */
export interface CapturedPiece {
  kind: Kind;
  colour: Colour;
}
export const TAM2 = 'Tam2';
export type Cell = Piece | typeof TAM2 | null;

export const COLUMNS = ['K', 'L', 'N', 'T', 'Z', 'X', 'C', 'M', 'P'] as const;
export const ROWS = ['A', 'E', 'I', 'U', 'O', 'Y', 'AI', 'AU', 'IA'] as const;

export const seatOf = (side: Side): number => (side === 'IA' ? 0 : 1);
export const sideOf = (seat: number): Side => SIDES[seat];
export const opponentOf = (side: Side): Side => (side === 'IA' ? 'A' : 'IA');
/** Row step of "forward": IA moves towards row A (index decreasing). */
export const forwardOf = (side: Side): number => (side === 'IA' ? -1 : 1);

export const rowOf = (square: number): number => Math.floor(square / 9);
export const columnOf = (square: number): number => square % 9;
export const squareAt = (row: number, column: number): number => (row >= 0 && row < 9 && column >= 0 && column < 9 ? row * 9 + column : -1);

export function squareName(square: number): string {
  return COLUMNS[columnOf(square)] + ROWS[rowOf(square)];
}

/** Parses `ZAI` (column Z, row AI); -1 when the text is not exactly one square. */
export function parseSquare(text: string): number {
  const column = (COLUMNS as readonly string[]).indexOf(text.charAt(0));
  const row = (ROWS as readonly string[]).indexOf(text.slice(1));
  return column < 0 || row < 0 ? -1 : row * 9 + column;
}

const indexSet = (names: string[]): boolean[] => {
  const flags = new Array<boolean>(81).fill(false);
  for (const name of names) flags[parseSquare(name)] = true;
  return flags;
};
/** Tam2 water: entering it needs the water test (docs/rules/cerke.md §8.4). */
export const IS_WATER = indexSet(['NO', 'TO', 'ZO', 'XO', 'CO', 'ZI', 'ZU', 'ZY', 'ZAI']);
/** The fixed squares of Tam2's field (hue). */
export const IS_FIXED_HUE = indexSet(['NI', 'CI', 'TU', 'XU', 'ZO', 'TY', 'XY', 'NAI', 'CAI']);

export const NEIGHBOURS: readonly (readonly number[])[] = Array.from({ length: 81 }, (_, square) => {
  const out: number[] = [];
  for (let dr = -1; dr <= 1; dr++)
    for (let dc = -1; dc <= 1; dc++) {
      const n = squareAt(rowOf(square) + dr, columnOf(square) + dc);
      if ((dr !== 0 || dc !== 0) && n >= 0) out.push(n);
    }
  return out;
});

export const areNeighbours = (a: number, b: number): boolean => a !== b && Math.abs(rowOf(a) - rowOf(b)) <= 1 && Math.abs(columnOf(a) - columnOf(b)) <= 1;

/** Chebyshev distance (docs/rules/cerke.md §2.3). */
export const distance = (a: number, b: number): number => Math.max(Math.abs(rowOf(a) - rowOf(b)), Math.abs(columnOf(a) - columnOf(b)));

const KIND_CODES: Record<string, Kind> = {
  V: 'Vessel',
  P: 'Pawn',
  A: 'Archer',
  C: 'Chariot',
  T: 'Tiger',
  H: 'Horse',
  O: 'Officer',
  S: 'Shaman',
  G: 'General',
  K: 'King',
};

/** The layout of docs/rules/cerke.md §3.3, rows A to IA; `rKa` = red King of the A side, `T2` = Tam2. */
const INITIAL_LAYOUT = [
  'bOa bHa bCa bGa rKa rGa rCa rHa rOa',
  'rSa rAa ... rTa ... bTa ... bAa bSa',
  'bPa rPa bPa rPa rVa rPa bPa rPa bPa',
  '... ... ... ... ... ... ... ... ...',
  '... ... ... ... T2 ... ... ... ...',
  '... ... ... ... ... ... ... ... ...',
  'bPi rPi bPi rPi bVi rPi bPi rPi bPi',
  'bSi bAi ... bTi ... rTi ... rAi rSi',
  'rOi rHi rCi rGi bKi bGi bCi bHi bOi',
];

function cellFromCode(code: string): Cell {
  if (code === 'T2') return TAM2;
  if (code === '...') return null;
  return { kind: KIND_CODES[code[1]], colour: code[0] === 'r' ? 'red' : 'black', side: code[2] === 'i' ? 'IA' : 'A' };
}

const INITIAL_BOARD: readonly Cell[] = INITIAL_LAYOUT.flatMap((line) => line.split(' ').map(cellFromCode));

/** A fresh copy of the layout every season starts from. */
export const initialBoard = (): Cell[] => INITIAL_BOARD.slice();

export const isPiece = (cell: Cell): cell is Piece => cell !== null && cell !== TAM2;
