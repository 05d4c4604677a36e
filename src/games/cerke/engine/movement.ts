/**
 * How pieces move (docs/rules/cerke.md §7-§9): movement tables inside and outside Tam2's field, targets of a
 * leg, move intents (direct, stepping with a fixed or a stick-limited second leg), Tam2's
 * moves, and General protection. Everything works on square indices (board.ts).
 */
import { type Cell, type Kind, type Side, IS_FIXED_HUE, IS_WATER, NEIGHBOURS, TAM2, areNeighbours, columnOf, distance, forwardOf, isPiece, rowOf, squareAt } from './board.js';

/** The rule switches movement depends on (a subset of the ruleset). */
export interface MovementRules {
  /** [online] a piece stepping on Tam2 continues from a square in Tam2's field. */
  tamItselfIsTamHue: boolean;
  /** docs/rules/cerke.md §15.3: false forbids using Tam2's square as the via square. */
  allowKut2Tam2: boolean;
}

/** A board as movement sees it: the cells and where Tam2 stands (-1 on test boards without Tam2). */
export interface Position {
  board: readonly Cell[];
  tam2: number;
}

/** A fixed move; `throughEmpty` is the offset of a square that must be empty (Pawn and Vessel double steps). */
interface FixedMove {
  dr: number;
  dc: number;
  throughEmpty?: [number, number];
}
/** line: up to the first occupied square; horse: from distance 2, ignoring the adjacent square; shaman: may jump one piece. */
type RangingStyle = 'line' | 'horse' | 'shaman';
interface Movement {
  fixed: FixedMove[];
  ranging: [number, number][];
  style: RangingStyle;
}

const ORTHOGONAL: [number, number][] = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];
const DIAGONAL: [number, number][] = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];
const ALL_DIRECTIONS = [...ORTHOGONAL, ...DIAGONAL];
const steps = (offsets: [number, number][], scale = 1): FixedMove[] => offsets.map(([dr, dc]) => ({ dr: dr * scale, dc: dc * scale }));

function movementOf(kind: Kind, f: number, inHue: boolean): Movement {
  const none: Movement = { fixed: [], ranging: [], style: 'line' };
  if (!inHue) {
    switch (kind) {
      case 'King':
        return { ...none, fixed: steps(ALL_DIRECTIONS) };
      case 'General':
        return { ...none, fixed: steps(ALL_DIRECTIONS.filter(([dr, dc]) => !(dr === -f && dc === 0))) };
      case 'Pawn':
        return { ...none, fixed: [{ dr: f, dc: 0 }] };
      case 'Vessel':
        return { ...none, ranging: [[f, 0]] };
      case 'Archer':
        return { ...none, ranging: ORTHOGONAL };
      case 'Chariot':
        return { ...none, fixed: steps(ORTHOGONAL, 2) };
      case 'Tiger':
        return { ...none, fixed: steps(DIAGONAL) };
      case 'Horse':
        return { ...none, fixed: steps(DIAGONAL, 2) };
      case 'Officer':
        return {
          fixed: steps([
            [0, 1],
            [0, -1],
          ]),
          ranging: [
            [f, 0],
            [-f, 0],
          ],
          style: 'line',
        };
      case 'Shaman':
        return {
          fixed: steps([
            [f, 0],
            [-f, 0],
          ]),
          ranging: [
            [0, 1],
            [0, -1],
          ],
          style: 'line',
        };
    }
  }
  switch (kind) {
    case 'King':
    case 'General':
      return { ...none, fixed: steps(ALL_DIRECTIONS) };
    case 'Pawn':
      return { ...none, fixed: [...steps(ORTHOGONAL), { dr: 2 * f, dc: 0, throughEmpty: [f, 0] }] };
    case 'Vessel':
      return {
        fixed: [
          ...steps([
            [0, 1],
            [0, -1],
          ]),
          { dr: 0, dc: 2, throughEmpty: [0, 1] },
          { dr: 0, dc: -2, throughEmpty: [0, -1] },
        ],
        ranging: [
          [1, 0],
          [-1, 0],
        ],
        style: 'line',
      };
    case 'Archer':
    case 'Tiger':
      return { ...none, ranging: DIAGONAL };
    case 'Chariot':
      return { ...none, fixed: steps(DIAGONAL, 2) };
    case 'Horse':
      return { fixed: [], ranging: DIAGONAL, style: 'horse' };
    case 'Officer':
      return { ...none, ranging: ORTHOGONAL };
    case 'Shaman':
      return { fixed: [], ranging: ALL_DIRECTIONS, style: 'shaman' };
  }
}

const MOVEMENTS = new Map<string, Movement>();
function movement(kind: Kind, side: Side, inHue: boolean): Movement {
  const key = `${kind}${side}${inHue}`;
  let found = MOVEMENTS.get(key);
  if (!found) MOVEMENTS.set(key, (found = movementOf(kind, forwardOf(side), inHue)));
  return found;
}

/** docs/rules/cerke.md §2.5: fixed hue squares, Tam2's neighbours and, with tamItselfIsTamHue, Tam2's own square. */
export function isInHue(square: number, tam2: number, tamItselfIsTamHue: boolean): boolean {
  if (IS_FIXED_HUE[square]) return true;
  if (tam2 < 0) return false;
  return areNeighbours(square, tam2) || (tamItselfIsTamHue && square === tam2);
}

/**
 * Visits every target of one leg from `from` (docs/rules/cerke.md §7.1): squares reachable by a fixed or a
 * ranging move, empty or occupied. `lifted` is a square treated as empty (the mover's origin
 * on the second leg). Stops and returns true as soon as `visit` returns true.
 */
export function forEachTarget(position: Position, from: number, kind: Kind, side: Side, inHue: boolean, lifted: number, visit: (to: number, ranging: boolean) => boolean | void): boolean {
  const { board } = position;
  const isEmpty = (square: number) => square === lifted || board[square] === null;
  const row = rowOf(from);
  const column = columnOf(from);
  const m = movement(kind, side, inHue);
  for (const move of m.fixed) {
    const to = squareAt(row + move.dr, column + move.dc);
    if (to < 0) continue;
    if (move.throughEmpty && !isEmpty(squareAt(row + move.throughEmpty[0], column + move.throughEmpty[1]))) continue;
    if (visit(to, false)) return true;
  }
  for (const [dr, dc] of m.ranging) {
    let occupiedPassed = 0;
    for (let d = m.style === 'horse' ? 2 : 1; ; d++) {
      const to = squareAt(row + d * dr, column + d * dc);
      if (to < 0) break;
      if (visit(to, true)) return true;
      if (!isEmpty(to)) {
        occupiedPassed++;
        if (m.style !== 'shaman' || occupiedPassed === 2) break;
      }
    }
  }
  return false;
}

/** docs/rules/cerke.md §8.6: an opponent's piece that no General of its side, standing in Tam2's field next to it, protects. */
export function isCapturable(position: Position, square: number, moverSide: Side): boolean {
  const cell = position.board[square];
  if (!isPiece(cell) || cell.side === moverSide) return false;
  for (const n of NEIGHBOURS[square]) {
    const guard = position.board[n];
    if (isPiece(guard) && guard.kind === 'General' && guard.side === cell.side && isInHue(n, position.tam2, false)) return false;
  }
  return true;
}

/** One way to move a piece: `via` is -1 for a direct move; `ranging` marks a stick-limited second leg. */
export interface MoveIntent {
  from: number;
  via: number;
  to: number;
  ranging: boolean;
}

/** docs/rules/cerke.md §8.4: the final square is water, the mover is not a Vessel and did not start on water. */
export const needsWaterTest = (kind: Kind, from: number, to: number): boolean => IS_WATER[to] && kind !== 'Vessel' && !IS_WATER[from];

/**
 * Visits every move intent of the piece on `from` (docs/rules/cerke.md §8.1-§8.2). Stepping moves whose second
 * leg is ranging are visited once, with the planned final square. Returns true when stopped.
 */
export function forEachPieceIntent(position: Position, rules: MovementRules, from: number, visit: (intent: MoveIntent) => boolean | void): boolean {
  const piece = position.board[from];
  if (!isPiece(piece)) return false;
  const { kind, side } = piece;
  return forEachTarget(position, from, kind, side, isInHue(from, position.tam2, false), -1, (via) => {
    const cell = position.board[via];
    if (cell === null) return visit({ from, via: -1, to: via, ranging: false });
    if (isCapturable(position, via, side) && visit({ from, via: -1, to: via, ranging: false })) return true;
    if (cell === TAM2 && !rules.allowKut2Tam2) return false;
    const viaInHue = isInHue(via, position.tam2, rules.tamItselfIsTamHue);
    return forEachTarget(position, via, kind, side, viaInHue, from, (to, ranging) => {
      if (to !== from && position.board[to] !== null && !isCapturable(position, to, side)) return false;
      return visit({ from, via, to, ranging });
    });
  });
}

/** Every move intent of `side`'s pieces; returns true when stopped. */
export function forEachIntent(position: Position, rules: MovementRules, side: Side, visit: (intent: MoveIntent) => boolean | void): boolean {
  for (let square = 0; square < 81; square++) {
    const cell = position.board[square];
    if (isPiece(cell) && cell.side === side && forEachPieceIntent(position, rules, square, visit)) return true;
  }
  return false;
}

/**
 * Final squares a stick-limited second leg may end on after a cast of `cast` (docs/rules/cerke.md §8.3): legal
 * ranging targets from `via` within the cast, either exactly `planned` (exact destination) or
 * in its direction from `via` (direction).
 */
export function stepCompletions(position: Position, rules: MovementRules, from: number, via: number, planned: number, cast: number, exactDestination: boolean): number[] {
  const piece = position.board[from];
  if (!isPiece(piece)) return [];
  const direction = (square: number) => [Math.sign(rowOf(square) - rowOf(via)), Math.sign(columnOf(square) - columnOf(via))].join();
  const plannedDirection = direction(planned);
  const out: number[] = [];
  forEachTarget(position, via, piece.kind, piece.side, isInHue(via, position.tam2, rules.tamItselfIsTamHue), from, (to, ranging) => {
    if (!ranging || distance(via, to) > cast) return;
    if (exactDestination ? to !== planned : direction(to) !== plannedDirection) return;
    if (to === from || position.board[to] === null || isCapturable(position, to, piece.side)) out.push(to);
  });
  return out;
}

/** A Tam2 move (docs/rules/cerke.md §9.1): two King steps, with at most one via square during the first or the second half. */
export interface Tam2Intent {
  firstSquare: number;
  to: number;
  via: number;
  stepDuring: 'firstHalf' | 'secondHalf' | null;
}

/** Visits every Tam2 move; Tam2's origin counts as empty. Returns true when stopped. */
export function forEachTam2Intent(position: Position, visit: (intent: Tam2Intent) => boolean | void): boolean {
  const { board, tam2 } = position;
  if (tam2 < 0) return false;
  const isEmpty = (square: number) => square === tam2 || board[square] === null;
  for (const first of NEIGHBOURS[tam2]) {
    if (isEmpty(first)) {
      for (const to of NEIGHBOURS[first]) if (isEmpty(to) && visit({ firstSquare: first, to, via: -1, stepDuring: null })) return true;
      for (const via of NEIGHBOURS[first]) {
        if (isEmpty(via)) continue;
        for (const to of NEIGHBOURS[via]) if (isEmpty(to) && visit({ firstSquare: first, to, via, stepDuring: 'secondHalf' })) return true;
      }
    } else {
      const via = first;
      for (const afterVia of NEIGHBOURS[via]) {
        if (!isEmpty(afterVia)) continue;
        for (const to of NEIGHBOURS[afterVia]) if (isEmpty(to) && visit({ firstSquare: afterVia, to, via, stepDuring: 'firstHalf' })) return true;
      }
    }
  }
  return false;
}
