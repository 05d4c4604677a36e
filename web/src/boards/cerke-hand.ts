/**
 * Moving a Cerke piece by hand: click a piece (or Tam2), then a highlighted square it may reach;
 * while a stepping move waits to be finished, its possible last squares are clickable at once.
 * When several legal actions end on the square clicked (another square stepped over, Tam2's
 * first square), the board asks which with one button each. A piece in the hand is picked up the
 * same way (`hand <colour> <kind>`, where a drop starts), then dropped on a highlighted empty
 * square. Declarations stay buttons.
 */
import type { CerkeAction } from '../../../src/games/cerke/engine/index.js';
import type { Picked } from './board.js';
import type { CerkeView } from './cerke-notation.js';

type Indexed = { action: CerkeAction; index: number };

/** Where a drop picks its piece up: the hand, by colour and kind (a `data-pick` token and a start like a square). */
export const handStart = (colour: string, kind: string): string => `hand ${colour} ${kind}`;

/** The square (or hand) an action picks up a piece from, when it moves or drops one (finishing a step needs none). */
function startOf(action: CerkeAction, view: CerkeView): string | null {
  if (action.type === 'move') return action.from;
  if (action.type === 'moveTam2') return view.tam2;
  return action.type === 'drop' ? handStart(action.colour, action.kind) : null;
}
const endOf = (action: CerkeAction): string | null => (action.type === 'move' || action.type === 'moveTam2' || action.type === 'completeStep' || action.type === 'drop' ? action.to : null);

const indexed = (actions: readonly unknown[]): Indexed[] => actions.map((action, index) => ({ action: action as CerkeAction, index }));

/** What can be clicked now: squares to pick a piece up from, and squares that end an action at once (finishing a step). */
export function startSquares(actions: readonly unknown[], view: CerkeView): { starts: Set<string>; finishes: Map<string, number[]> } {
  const starts = new Set<string>();
  const finishes = new Map<string, number[]>();
  for (const { action, index } of indexed(actions)) {
    const start = startOf(action, view);
    if (start) starts.add(start);
    if (action.type === 'completeStep') finishes.set(action.to, [...(finishes.get(action.to) ?? []), index]);
  }
  return { starts, finishes };
}

/** Where the piece on `from` may go, each square with the legal actions that take it there. */
export function targetsFrom(actions: readonly unknown[], view: CerkeView, from: string): Map<string, number[]> {
  const targets = new Map<string, number[]>();
  for (const { action, index } of indexed(actions)) {
    const end = endOf(action);
    if (end && startOf(action, view) === from) targets.set(end, [...(targets.get(end) ?? []), index]);
  }
  return targets;
}

/** The picks as read back: the piece picked up, and the square chosen when several actions end there. */
export function cerkeHand(picks: readonly string[]): { from: string | null; to: string | null } {
  const value = (prefix: string) => picks.find((p) => p.startsWith(prefix))?.slice(prefix.length) ?? null;
  return { from: value('from '), to: value('to ') };
}

/** A square reached by exactly one action sends it; by several, they are asked for. */
const reach = (from: string | null, to: string, indices: number[]): Picked => (indices.length === 1 ? { action: indices[0] } : from ? [`from ${from}`, `to ${to}`] : [`to ${to}`]);

/**
 * What a click on a square (`sq <name>`) does, or on "put back". A piece may step over another
 * and come back to its own square: its square is then a destination, and "put back" the way to
 * drop it.
 */
export function pickSquare(actions: readonly unknown[], view: CerkeView, picks: readonly string[], token: string): Picked {
  if (token === 'put back') return [];
  const square = token.startsWith('sq ') ? token.slice(3) : token.startsWith('hand ') ? token : null;
  if (square === null) return picks;
  const { from } = cerkeHand(picks);
  const { starts, finishes } = startSquares(actions, view);
  const target = from !== null ? targetsFrom(actions, view, from).get(square) : undefined;
  if (target) return reach(from, square, target);
  if (from !== null && square === from) return [];
  const finish = finishes.get(square);
  if (finish) return reach(null, square, finish);
  return starts.has(square) ? [`from ${square}`] : picks.length ? [] : picks;
}

/** The actions a player is asked to choose between (several end on the square chosen), by index. */
export function choices(actions: readonly unknown[], view: CerkeView, picks: readonly string[]): number[] {
  const { from, to } = cerkeHand(picks);
  if (to === null) return [];
  if (from === null) return startSquares(actions, view).finishes.get(to) ?? [];
  return targetsFrom(actions, view, from).get(to) ?? [];
}
