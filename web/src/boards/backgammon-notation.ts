/**
 * Backgammon's notation and the shapes the board reads. Checker moves are written in the mover's
 * own numbering (he moves from his 24-point towards his 1-point), as the engine takes them:
 * "24/18 13/11", "bar/22*", "6/off", repeated moves counted ("8/5(2) 6/5(2)").
 */
import type { BackgammonAction, BackgammonView, CheckerMove, ResignationLevel } from '../../../src/games/backgammon/engine/index.js';

/** The engine's seat names: seat 0 plays White, seat 1 Black. */
export const SEAT_COLOURS = ['White', 'Black'] as const;

/** A checker move, marked when it hits a blot. */
export type Step = CheckerMove & { hit?: boolean };

/** `game.view` when it has the backgammon view's shape, else null (the page passes what the API answered). */
export function asView(view: unknown): BackgammonView | null {
  const sides = (view as Partial<BackgammonView> | null)?.board?.sides;
  return Array.isArray(sides) && sides.length === 2 ? (view as BackgammonView) : null;
}

/** A legal action or an event's payload when it looks like a backgammon action, else null. */
export function asAction(action: unknown): BackgammonAction | null {
  return typeof (action as { type?: unknown } | null)?.type === 'string' ? (action as BackgammonAction) : null;
}

/** Bar above every point, off below: the order moves are written in. */
const rank = (where: number | 'bar' | 'off'): number => (where === 'bar' ? 25 : where === 'off' ? 0 : where);

/** Moves as players list them: from the highest point down, the longer of two from one point first ("13/7 13/10"). */
const moveOrder = (a: CheckerMove, b: CheckerMove): number => rank(b.from) - rank(a.from) || rank(a.to) - rank(b.to);

export const sortMoves = <T extends CheckerMove>(moves: readonly T[]): T[] => [...moves].sort(moveOrder);

/** Orders plays as a move list reads best: by their moves, highest first. */
export function comparePlays(a: readonly CheckerMove[], b: readonly CheckerMove[]): number {
  const [x, y] = [sortMoves(a), sortMoves(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const order = moveOrder(x[i], y[i]);
    if (order) return order;
  }
  return x.length - y.length;
}

/** "13/8 8/5*", highest point first, with a move played several times written once and counted: "6/4(2)". */
export function movesNotation(moves: readonly Step[]): string {
  const written: { text: string; times: number }[] = [];
  for (const m of sortMoves(moves)) {
    const text = `${m.from}/${m.to}${m.hit ? '*' : ''}`;
    const last = written[written.length - 1];
    if (last?.text === text) last.times++;
    else written.push({ text, times: 1 });
  }
  return written.map(({ text, times }) => (times > 1 ? `${text}(${times})` : text)).join(' ');
}

/**
 * Marks the moves that hit: played in the order given (a playable order), a move hits when it
 * lands on a point where the opponent has exactly one checker, which then leaves for the bar.
 */
export function withHits(moves: readonly CheckerMove[], mover: number, view: BackgammonView): Step[] {
  const opponent = [...view.board.sides[1 - mover].points];
  return moves.map(({ from, to }) => {
    // The mover's point p is the opponent's point 25 − p, at index 24 − p.
    const index = to === 'off' ? -1 : 24 - to;
    const hit = index >= 0 && opponent[index] === 1;
    if (hit) opponent[index] = 0;
    return { from, to, hit };
  });
}

const RESIGN_LEVEL: Record<ResignationLevel, string> = { single: 'a single game', gammon: 'a gammon', backgammon: 'a backgammon' };

/** Resigning at a level, in words: "resign a gammon". */
export const resignText = (level: ResignationLevel): string => `resign ${RESIGN_LEVEL[level]}`;

/** One action in standard notation; hits are marked when the view and the mover are known. */
export function notation(action: unknown, ctx: { seat: number | null; view?: unknown }): string {
  const a = asAction(action);
  if (!a) return JSON.stringify(action);
  switch (a.type) {
    case 'play': {
      const view = asView(ctx.view);
      return movesNotation(view && ctx.seat !== null ? withHits(a.moves, ctx.seat, view) : a.moves);
    }
    case 'resign':
      return `Resign ${RESIGN_LEVEL[a.level]}`;
    case 'acceptResignation':
      return 'Accept resignation';
    case 'rejectResignation':
      return 'Reject resignation';
    default:
      // roll, double, take, drop, beaver, raccoon: the word itself.
      return a.type.charAt(0).toUpperCase() + a.type.slice(1);
  }
}
