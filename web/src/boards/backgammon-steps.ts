/**
 * Moving checkers by hand: which single-die steps the player may take after the steps taken so
 * far, and which legal play a finished selection is. The legal plays come from the game's
 * `legalActions` (one per final position, docs/rules/backgammon.md §5); a step is offered only
 * when some way of finishing the turn from it ends in the position of one of them, with as many
 * steps as they use. The play sent is the listed one, so the service always gets a legal action.
 */
import { stepProblem, workBoard } from '../../../src/games/backgammon/engine/board.js';
import type { BackgammonView, CheckerMove } from '../../../src/games/backgammon/engine/index.js';

/** One checker moved by one die, in the mover's numbering (25 stands for the bar, 0 for off). */
export interface Step {
  from: number | 'bar';
  to: number | 'off';
  die: number;
}

/** The mover's checkers (index p − 1 for his point p), his bar, and the opponent's checkers on the mover's points. */
interface Position {
  mine: readonly number[];
  bar: number;
  theirs: readonly number[];
}

export interface Turn {
  start: Position;
  /** The dice to use: two, or four of a double. */
  dice: readonly number[];
  /** The legal plays: their index in `legalActions` and the key of the position each ends in. */
  plays: readonly { index: number; key: string }[];
  /** Steps in every legal play (the most dice that can be used, §5.3). */
  length: number;
}

const rank = (where: number | 'bar' | 'off'): number => (where === 'bar' ? 25 : where === 'off' ? 0 : where);

/** The position after moving one checker from `from` to `to` (a hit sends the blot to the bar; only the mover's side is kept). */
function moved(pos: Position, from: number | 'bar', to: number | 'off'): Position {
  const mine = [...pos.mine];
  const theirs = [...pos.theirs];
  let bar = pos.bar;
  if (from === 'bar') bar--;
  else mine[from - 1]--;
  if (to !== 'off') {
    mine[to - 1]++;
    if (theirs[to - 1] === 1) theirs[to - 1] = 0;
  }
  return { mine, bar, theirs };
}

const keyOf = (pos: Position): string => `${pos.mine.join(',')}|${pos.bar}|${pos.theirs.join(',')}`;

/** Where one die takes a checker from `from`, or null when the engine's rules forbid it (§4: blocked points, entering first, bearing off). */
function landing(pos: Position, from: number | 'bar', die: number): number | 'off' | null {
  // The engine's working board: the mover's checkers then the opponent's, each in its own numbering.
  const work = workBoard([...pos.mine, pos.bar, 0], [...pos.theirs].reverse().concat(0, 0));
  if (stepProblem(work, rank(from), die) !== null) return null;
  const to = rank(from) - die;
  return to >= 1 ? to : 'off';
}

/** Every single step the dice allow from a position, one per die value. */
function steps(pos: Position, dice: readonly number[]): Step[] {
  const found: Step[] = [];
  for (const die of new Set(dice)) {
    for (const from of ['bar' as const, ...pos.mine.map((_, i) => i + 1)]) {
      const to = landing(pos, from, die);
      if (to !== null) found.push({ from, to, die });
    }
  }
  return found;
}

const without = (dice: readonly number[], die: number): number[] => {
  const rest = [...dice];
  rest.splice(rest.indexOf(die), 1);
  return rest;
};

/** The turn to play from the view and the seat's legal actions, or null when no play is among them. */
export function turnOf(view: BackgammonView, mover: number, legalActions: readonly unknown[]): Turn | null {
  if (!view.dice) return null;
  const side = view.board.sides[mover];
  const opponent = view.board.sides[1 - mover].points;
  const start: Position = { mine: side.points, bar: side.bar, theirs: side.points.map((_, i) => opponent[23 - i]) };
  const plays: { index: number; key: string; length: number }[] = [];
  legalActions.forEach((action, index) => {
    const a = action as { type?: string; moves?: CheckerMove[] };
    if (a?.type !== 'play' || !Array.isArray(a.moves)) return;
    const end = a.moves.reduce((pos, m) => moved(pos, m.from, m.to), start);
    plays.push({ index, key: keyOf(end), length: a.moves.length });
  });
  if (plays.length === 0) return null;
  const [d1, d2] = view.dice;
  return { start, dice: d1 === d2 ? [d1, d1, d1, d1] : [d1, d2], plays, length: plays[0].length };
}

/** Where the steps taken lead, and the dice left; null when they do not follow the dice. */
function after(turn: Turn, taken: readonly Step[]): { pos: Position; dice: number[] } | null {
  let pos = turn.start;
  let dice = [...turn.dice];
  for (const step of taken) {
    if (!dice.includes(step.die) || landing(pos, step.from, step.die) !== step.to) return null;
    pos = moved(pos, step.from, step.to);
    dice = without(dice, step.die);
  }
  return { pos, dice };
}

/** The steps that can still end in a legal play's position after the steps taken. */
export function nextSteps(turn: Turn, taken: readonly Step[]): Step[] {
  const now = after(turn, taken);
  if (!now || taken.length >= turn.length) return [];
  const keys = new Set(turn.plays.map((p) => p.key));
  const known = new Map<string, boolean>();
  const finishes = (pos: Position, dice: readonly number[], left: number): boolean => {
    if (left === 0) return keys.has(keyOf(pos));
    const key = `${keyOf(pos)}/${[...dice].sort().join('')}`;
    let answer = known.get(key);
    if (answer === undefined) {
      answer = steps(pos, dice).some((s) => finishes(moved(pos, s.from, s.to), without(dice, s.die), left - 1));
      known.set(key, answer);
    }
    return answer;
  };
  return steps(now.pos, now.dice).filter((s) => finishes(moved(now.pos, s.from, s.to), without(now.dice, s.die), turn.length - taken.length - 1));
}

/** The index in `legalActions` of the play the steps taken complete, or null while the turn is not finished. */
export function completedPlay(turn: Turn, taken: readonly Step[]): number | null {
  const now = after(turn, taken);
  if (!now || taken.length !== turn.length) return null;
  const key = keyOf(now.pos);
  return turn.plays.find((p) => p.key === key)?.index ?? null;
}

/**
 * Where the checker on `from` can go next, each with the steps that take it there: one die, or
 * several dice in a row by the same checker (as players drag 13 to 7 with a 5-1), fewest first.
 */
export function destinations(turn: Turn, taken: readonly Step[], from: number | 'bar'): Map<number | 'off', Step[]> {
  const found = new Map<number | 'off', Step[]>();
  let paths: Step[][] = [[]];
  while (paths.length) {
    const longer: Step[][] = [];
    for (const path of paths) {
      const at = path.length ? path[path.length - 1].to : from;
      if (at === 'off') continue;
      for (const step of nextSteps(turn, [...taken, ...path]).filter((s) => s.from === at)) {
        if (found.has(step.to)) continue;
        found.set(step.to, [...path, step]);
        longer.push([...path, step]);
      }
    }
    paths = longer;
  }
  return found;
}

/** The places a checker can be picked up from now. */
export const sources = (turn: Turn, taken: readonly Step[]): (number | 'bar')[] => [...new Set(nextSteps(turn, taken).map((s) => s.from))];

/** The view as it stands after the steps taken (checkers moved, blots hit sent to the bar), to draw while the turn is built. */
export function viewAfter(view: BackgammonView, mover: number, turn: Turn, taken: readonly Step[]): BackgammonView {
  const now = after(turn, taken);
  if (!now || taken.length === 0) return view;
  const { mine, bar, theirs } = now.pos;
  const hits = turn.start.theirs.reduce((a, b) => a + b, 0) - theirs.reduce((a, b) => a + b, 0);
  const pips = (points: readonly number[], onBar: number) => points.reduce((sum, n, i) => sum + n * (i + 1), onBar * 25);
  const was = view.board.sides;
  const moverSide = { points: [...mine], bar, off: was[mover].off + taken.filter((s) => s.to === 'off').length, pipCount: pips(mine, bar) };
  const other = theirs.map((_, i) => theirs[23 - i]);
  const otherSide = { points: other, bar: was[1 - mover].bar + hits, off: was[1 - mover].off, pipCount: pips(other, was[1 - mover].bar + hits) };
  const sides = (mover === 0 ? [moverSide, otherSide] : [otherSide, moverSide]) as BackgammonView['board']['sides'];
  return { ...view, board: { ...view.board, sides } };
}

/** The dice not used yet by the steps taken. */
export const diceLeft = (turn: Turn, taken: readonly Step[]): number[] => after(turn, taken)?.dice ?? [];
