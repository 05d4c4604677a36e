/**
 * Checkers, single steps and the legal-play generator (docs/rules/backgammon.md §5–§7). Everything here works in the
 * mover's own numbering: points 1..24 (he moves from 24 towards 1), the bar is 25 and off is 0.
 */

/**
 * One player's checkers in his own numbering (docs/rules/backgammon.md §1.4: gnubg's layout plus the borne-off count):
 * index 0..23 = points 1..24, index 24 = bar, index 25 = borne off.
 */
export type Checkers = number[];

export const BAR = 24;
export const OFF = 25;
export const CHECKERS_PER_SIDE = 15;

/** A single checker step in the mover's numbering, as players write it: `13/8`, `bar/22`, `6/off`. */
export interface CheckerMove {
  from: number | 'bar';
  to: number | 'off';
}

/** A step as played, remembering whether it hit a blot (gnubg writes `*` after the landing point). */
export interface PlayedMove extends CheckerMove {
  hit: boolean;
}

/** A legal play: its steps in a playable order and the position it leaves (mover, opponent). */
export interface LegalPlay {
  moves: PlayedMove[];
  mover: Checkers;
  opponent: Checkers;
  key: string;
}

/** 2 on the 24-point, 5 on the 13-point, 3 on the 8-point, 5 on the 6-point. */
export function startingCheckers(): Checkers {
  const side = new Array<number>(26).fill(0);
  side[23] = 2;
  side[12] = 5;
  side[7] = 3;
  side[5] = 5;
  return side;
}

/** Race length: Σ point × checkers, a checker on the bar counting 25. */
export function pipCount(side: Checkers): number {
  let pips = 0;
  for (let i = 0; i < 24; i++) pips += (i + 1) * side[i];
  return pips + 25 * side[BAR];
}

/** Whether every one of the six home points is held by two or more of the side's checkers. */
export function homeBoardClosed(side: Checkers): boolean {
  for (let i = 0; i < 6; i++) if (side[i] < 2) return false;
  return true;
}

/** Notation of a location (docs/rules/backgammon.md §2.1): 'bar' and 'off' as words, points as numbers. */
export const fromLocation = (n: number): number | 'bar' => (n === 25 ? 'bar' : n);
export const toLocation = (n: number): number | 'off' => (n <= 0 ? 'off' : n);
export const locationNumber = (p: number | 'bar' | 'off'): number => (p === 'bar' ? 25 : p === 'off' ? 0 : p);

/** `13/8*` style notation of a play (`bar/22* 13/9`, `6/off 5/off`); "" for a pass. */
export function playNotation(moves: readonly PlayedMove[]): string {
  return moves.map((m) => `${m.from}/${m.to}${m.hit ? '*' : ''}`).join(' ');
}

/**
 * The working board of the generator: 52 counts, [0..25] the mover and [26..51] the opponent,
 * both in their own numbering. The opponent's checkers on the mover's point p sit at 50 − p.
 */
type Work = number[];
const OPP = 26;
const OPP_BAR = OPP + BAR;

export function workBoard(mover: Checkers, opponent: Checkers): Work {
  return mover.concat(opponent);
}

/** Why a single step with die `d` from `from` (25 = bar) is illegal, or null when it is legal. */
export function stepProblem(w: Work, from: number, d: number): string | null {
  if (from < 1 || from > 25) return `there is no point ${from}`;
  if (w[BAR] > 0 && from !== 25) return 'a checker on the bar must enter before any other checker moves';
  if (w[from - 1] === 0) return from === 25 ? 'you have no checker on the bar' : `you have no checker on point ${from}`;
  const to = from - d;
  if (to >= 1) {
    return w[50 - to] >= 2 ? `point ${to} is held by the opponent (two or more checkers)` : null;
  }
  for (let i = 6; i <= BAR; i++) {
    if (w[i] > 0) return 'you may bear off only when all your checkers are in your home board';
  }
  if (to < 0) {
    for (let i = from; i < 6; i++) {
      if (w[i] > 0) return `a ${d} bears off from point ${from} only when no checker is on a higher point (one is on point ${i + 1})`;
    }
  }
  return null;
}

/** Plays a legal step in place; returns whether it hit a blot. */
function doStep(w: Work, from: number, d: number): boolean {
  w[from - 1]--;
  const to = from - d;
  if (to < 1) {
    w[OFF]++;
    return false;
  }
  w[to - 1]++;
  if (w[50 - to] === 1) {
    w[50 - to] = 0;
    w[OPP_BAR]++;
    return true;
  }
  return false;
}

function undoStep(w: Work, from: number, d: number, hit: boolean): void {
  w[from - 1]++;
  const to = from - d;
  if (to < 1) {
    w[OFF]--;
    return;
  }
  w[to - 1]--;
  if (hit) {
    w[50 - to] = 1;
    w[OPP_BAR]--;
  }
}

/** Identity of a position for "same final position" comparisons. */
function positionKey(w: Work): string {
  return String.fromCharCode.apply(null, w);
}

/**
 * Every legal play for the mover with dice d1, d2, one per distinct final position (docs/rules/backgammon.md §5.6):
 * only plays using the most dice (§5.3), and with one die usable of two, the larger (§5.4). An
 * empty list is a forced pass.
 */
export function generatePlays(mover: Checkers, opponent: Checkers, d1: number, d2: number): LegalPlay[] {
  const w = workBoard(mover, opponent);
  const isDouble = d1 === d2;
  const dice = isDouble ? [d1, d1, d1, d1] : [d1, d2];
  const larger = Math.max(d1, d2);
  const found = new Map<string, LegalPlay>();
  let most = 0;
  let largerOnly = false;
  const path: PlayedMove[] = [];
  const dieOfStep: number[] = [];

  const leaf = (): void => {
    const used = path.length;
    if (used < most) return;
    // With a single die playable of two, plays of the larger die beat plays of the smaller.
    const usesLarger = !isDouble && used === 1 && dieOfStep[0] === larger;
    if (used > most) {
      most = used;
      found.clear();
      largerOnly = usesLarger;
    } else if (used === 1 && !isDouble) {
      if (largerOnly && !usesLarger) return;
      if (usesLarger && !largerOnly) {
        found.clear();
        largerOnly = true;
      }
    }
    const key = positionKey(w);
    if (!found.has(key)) {
      found.set(key, { moves: path.slice(), mover: w.slice(0, OPP), opponent: w.slice(OPP), key });
    }
  };

  // Doubles take their steps with non-increasing sources: any other order reaches nothing new.
  const walk = (left: number, highest: number): void => {
    let moved = false;
    for (let k = 0; k < dice.length; k++) {
      const d = dice[k];
      if (d === 0) continue;
      if (isDouble && k > 0) break;
      for (let from = isDouble ? highest : 25; from >= 1; from--) {
        if (w[from - 1] === 0 || stepProblem(w, from, d) !== null) continue;
        moved = true;
        const hit = doStep(w, from, d);
        path.push({ from: fromLocation(from), to: toLocation(from - d), hit });
        dieOfStep.push(d);
        if (isDouble) {
          if (left > 1) walk(left - 1, from);
          else leaf();
        } else {
          dice[k] = 0;
          if (left > 1) walk(left - 1, 25);
          else leaf();
          dice[k] = d;
        }
        path.pop();
        dieOfStep.pop();
        undoStep(w, from, d, hit);
      }
    }
    if (!moved) leaf();
  };
  walk(dice.length, 25);
  return most === 0 ? [] : [...found.values()];
}

/**
 * Follows submitted steps with the dice, trying every order of the steps (and, for a bear-off, every
 * die that could carry it). Returns the resulting position and the steps in a playable order, or the
 * problem with the steps in the order given.
 */
export function followDice(
  mover: Checkers,
  opponent: Checkers,
  dice: readonly number[],
  moves: readonly CheckerMove[],
): { ok: true; key: string; moves: PlayedMove[]; mover: Checkers; opponent: Checkers } | { ok: false; problem: string } {
  const w = workBoard(mover, opponent);
  const left = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
  if (moves.length > left.length) return { ok: false, problem: `a roll of ${dice[0]}-${dice[1]} gives only ${left.length} checker moves, ${moves.length} were given` };
  const used = new Array<boolean>(moves.length).fill(false);
  const order: PlayedMove[] = [];

  const search = (depth: number): boolean => {
    if (depth === moves.length) return true;
    for (let i = 0; i < moves.length; i++) {
      if (used[i]) continue;
      const from = locationNumber(moves[i].from);
      const to = locationNumber(moves[i].to);
      for (let k = 0; k < left.length; k++) {
        const d = left[k];
        if (d === 0 || !carries(from, to, d) || stepProblem(w, from, d) !== null) continue;
        const hit = doStep(w, from, d);
        used[i] = true;
        left[k] = 0;
        order.push({ from: fromLocation(from), to: toLocation(to), hit });
        if (search(depth + 1)) return true;
        order.pop();
        left[k] = d;
        used[i] = false;
        undoStep(w, from, d, hit);
      }
    }
    return false;
  };
  if (!search(0)) return { ok: false, problem: firstProblem(mover, opponent, left, moves) };
  return { ok: true, key: positionKey(w), moves: order, mover: w.slice(0, OPP), opponent: w.slice(OPP) };
}

/** Whether the mover can play any step at all with these dice: a roll that cannot is passed (docs/rules/backgammon.md §5.5). */
export function anyStep(mover: Checkers, opponent: Checkers, d1: number, d2: number): boolean {
  const w = workBoard(mover, opponent);
  for (let from = 25; from >= 1; from--) {
    if (w[from - 1] > 0 && (stepProblem(w, from, d1) === null || stepProblem(w, from, d2) === null)) return true;
  }
  return false;
}

/** Whether die d takes a checker from `from` exactly to `to` (0 = off, where a larger die may overshoot). */
function carries(from: number, to: number, d: number): boolean {
  return to >= 1 ? from - d === to : from - d <= 0;
}

/** Explains the first step that cannot be played when the steps are taken in the order given. */
function firstProblem(mover: Checkers, opponent: Checkers, dice: readonly number[], moves: readonly CheckerMove[]): string {
  const w = workBoard(mover, opponent);
  const left = dice.slice();
  for (const move of moves) {
    const from = locationNumber(move.from);
    const to = locationNumber(move.to);
    const name = `${move.from}/${move.to}`;
    if (to >= from) return `${name}: checkers move from higher to lower points`;
    const fitting = left.filter((d) => d > 0 && carries(from, to, d)).sort((a, b) => a - b);
    if (fitting.length === 0) {
      const rest = left.filter((d) => d > 0);
      return `${name}: no die left for it (${rest.length ? `dice left: ${rest.join(', ')}` : 'all dice are used'})`;
    }
    const playable = fitting.find((d) => stepProblem(w, from, d) === null);
    if (playable === undefined) return `${name}: ${stepProblem(w, from, fitting[0])}`;
    doStep(w, from, playable);
    left[left.indexOf(playable)] = 0;
  }
  return 'the moves cannot be played in any order with these dice';
}
