/**
 * The selection a player builds by clicking checkers: what the page keeps between clicks (its
 * "picks", strings the page does not read), and what a click on a place makes of them. A pick is
 * either a move made with one click ("13/8/5 8/7/1": from/to/die per step) or the checker picked
 * up ("at 13"); undo takes back the last pick.
 */
import type { BackgammonView } from '../../../src/games/backgammon/engine/index.js';
import { type Step, type Turn, completedPlay, destinations, sources } from './backgammon-steps.js';

/** A place on the board as the page's `data-pick` names it: a point in the mover's numbering, "bar" or "off". */
export type Place = number | 'bar' | 'off';

export interface Hand {
  taken: Step[];
  /** The checker picked up, waiting for its destination. */
  selected: number | 'bar' | null;
}

const place = (text: string): Place => (text === 'bar' || text === 'off' ? text : Number(text));

export function handOf(picks: readonly string[]): Hand {
  const taken: Step[] = [];
  let selected: Hand['selected'] = null;
  for (const pick of picks) {
    if (pick.startsWith('at ')) selected = place(pick.slice(3)) as Hand['selected'];
    else
      for (const step of pick.split(' ')) {
        const [from, to, die] = step.split('/');
        taken.push({ from: place(from) as Step['from'], to: place(to) as Step['to'], die: Number(die) });
      }
  }
  return { taken, selected };
}

const written = (steps: readonly Step[]): string => steps.map((s) => `${s.from}/${s.to}/${s.die}`).join(' ');

/** What a click does: the picks after it, or the index of the legal play it completes (to send). */
export function pickPlace(turn: Turn, picks: readonly string[], token: string): string[] | { action: number } {
  const settled = picks.filter((p) => !p.startsWith('at '));
  if (token === 'undo') return picks.length === settled.length ? settled.slice(0, -1) : settled;
  const { taken, selected } = handOf(picks);
  const where = place(token);
  if (selected !== null && where !== selected) {
    const path = destinations(turn, taken, selected).get(where as number | 'off');
    if (path) {
      const done = completedPlay(turn, [...taken, ...path]);
      return done === null ? [...settled, written(path)] : { action: done };
    }
  }
  // Picking up a checker (or another one), or putting the picked one back.
  if (where !== 'off' && where !== selected && sources(turn, taken).includes(where)) return [...settled, `at ${where}`];
  return settled;
}

/** What the board marks: where a checker can be picked up, the one picked up, and where it can go. */
export function handMarks(turn: Turn, hand: Hand): { sources: (number | 'bar')[]; targets: (number | 'off')[] } {
  return {
    sources: sources(turn, hand.taken),
    targets: hand.selected === null ? [] : [...destinations(turn, hand.taken, hand.selected).keys()],
  };
}

/** The seat may move checkers by hand now: its dice are on the table and its plays are among its legal actions. */
export const playing = (view: BackgammonView, viewer: number | null): viewer is number => viewer !== null && view.phase === 'awaiting-play' && view.playerOnRoll === viewer && !view.resignation;
