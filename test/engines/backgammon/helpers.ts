import { backgammonEngine, type BackgammonAction, type BackgammonRuleset, type BackgammonState } from '../../../src/games/backgammon/engine/index.js';
import type { Seat } from '../../../src/engines/kit/index.js';

/** Checkers of one side in its own numbering: { 6: 5, 8: 3, bar: 1 }; the rest are borne off. */
export type Layout = Partial<Record<number | 'bar', number>>;

export function checkers(layout: Layout): number[] {
  const side = new Array<number>(26).fill(0);
  for (const [where, n] of Object.entries(layout)) side[where === 'bar' ? 24 : Number(where) - 1] = n!;
  side[25] = 15 - side.reduce((a, b) => a + b, 0);
  return side;
}

export function ruleset(input: Record<string, unknown> = {}): BackgammonRuleset {
  const r = backgammonEngine.parseRuleset(input);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A game in progress with `turn` to roll (or to play `dice`, when given). */
export function position(white: Layout, black: Layout, turn: Seat, dice?: [number, number], rules: Record<string, unknown> = {}): BackgammonState {
  const start = backgammonEngine.init(ruleset(rules));
  const s: BackgammonState = { ...start, board: [checkers(white), checkers(black)], turn, phase: 'awaiting-roll', rolls: [3, 3] };
  return dice ? roll(s, dice) : s;
}

export function ok<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

export function act(s: BackgammonState, seat: Seat, action: BackgammonAction): BackgammonState {
  return ok(backgammonEngine.apply(s, seat, ok(backgammonEngine.parseAction(action))));
}

/** The player on roll rolls these dice. */
export function roll(s: BackgammonState, dice: [number, number]): BackgammonState {
  const rolling = s.phase === 'rolling' ? s : act(s, s.turn, { type: 'roll' });
  return ok(backgammonEngine.resolveChance(rolling, [dice[0] - 1, dice[1] - 1]));
}

/** Plays written like "13/8 bar/22" (mover's numbering). */
export function moves(text: string): { from: number | 'bar'; to: number | 'off' }[] {
  return text.split(' ').map((m) => {
    const [f, t] = m.split('/');
    return { from: f === 'bar' ? 'bar' : Number(f), to: t === 'off' ? 'off' : Number(t) };
  });
}

export function playText(s: BackgammonState, seat: Seat, text: string) {
  return backgammonEngine.apply(s, seat, { type: 'play', moves: moves(text) });
}
