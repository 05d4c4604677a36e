import {
  type CerkeAction,
  type CerkeRuleset,
  type CerkeState,
  type Colour,
  type Kind,
  type Side,
  cerkeEngine,
  castValues,
  parseSquare,
  squareName,
  stateFromPosition,
} from '../../../src/games/cerke/engine/index.js';
import { forEachPieceIntent, forEachTarget, isInHue } from '../../../src/games/cerke/engine/movement.js';
import { positionOf } from '../../../src/games/cerke/engine/state.js';
import { replay } from '../../../src/engines/kit/index.js';

export const engine = cerkeEngine;

export function rules(input: Record<string, unknown> = {}): CerkeRuleset {
  const parsed = cerkeEngine.parseRuleset(input);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}
export const online = rules({ profile: 'online' });
export const strict = rules({ profile: 'strict' });

const KINDS: Record<string, Kind> = {
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

/** `bA@MAU` = black Archer on MAU. */
function pieces(tokens: string | undefined, side: Side) {
  return (tokens ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((token) => {
      const [code, square] = token.split('@');
      return { square, kind: KINDS[code[1]], colour: (code[0] === 'r' ? 'red' : 'black') as Colour, side };
    });
}

/** A sparse position in the test vectors' notation. */
export function position(
  setup: { IA?: string; A?: string; tam2: string | null; toMove: Side; stake?: number; points?: { IA: number; A: number }; previousTurnMovedTam2?: boolean },
  ruleset: CerkeRuleset = online,
): CerkeState {
  const state = stateFromPosition(ruleset, {
    pieces: [...pieces(setup.IA, 'IA'), ...pieces(setup.A, 'A')],
    tam2: setup.tam2,
    toMove: setup.toMove,
    stake: setup.stake,
    points: setup.points,
    previousTurnMovedTam2: setup.previousTurnMovedTam2,
  });
  if (!state.ok) throw new Error(state.error.message);
  return state.value;
}

/** The initial layout with `first` to move. */
export function initial(first: Side, ruleset: CerkeRuleset = online): CerkeState {
  const cast = first === 'IA' ? [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] : [0, 0, 0, 0, 0, 1, 0, 0, 0, 0];
  return resolve(cerkeEngine.init(ruleset), cast);
}

export function play(state: CerkeState, action: CerkeAction): CerkeState {
  const next = cerkeEngine.apply(state, state.toMove, action);
  if (!next.ok) throw new Error(`${JSON.stringify(action)}: ${next.error.code} ${next.error.message}`);
  return next.value;
}

export function resolve(state: CerkeState, values: number[]): CerkeState {
  const next = cerkeEngine.resolveChance(state, values);
  if (!next.ok) throw new Error(next.error.message);
  return next.value;
}

export const cast = (state: CerkeState, value: number) => resolve(state, castValues(value));

export function rejection(state: CerkeState, action: CerkeAction, seat = state.toMove) {
  const next = cerkeEngine.apply(state, seat, action);
  if (next.ok) throw new Error(`${JSON.stringify(action)} was accepted`);
  return next.error;
}

export const move = (from: string, to: string, via?: string): CerkeAction => (via ? { type: 'move', from, via, to } : { type: 'move', from, to });

/** Squares the piece's movement table reaches from `from` (docs/rules/cerke.md §7), occupied ones included. */
export function targets(state: CerkeState, from: string): string[] {
  const pos = positionOf(state);
  const square = parseSquare(from);
  const cell = state.board[square];
  if (!cell || cell === 'Tam2') throw new Error(`no piece on ${from}`);
  const out: string[] = [];
  forEachTarget(pos, square, cell.kind, cell.side, isInHue(square, pos.tam2, false), -1, (to) => {
    out.push(squareName(to));
  });
  return out.sort();
}

/** Move intents of the piece on `from`, written `FROM>TO` or `FROM>VIA>TO` (with `*` for a stick-limited leg). */
export function intents(state: CerkeState, from: string): string[] {
  const out: string[] = [];
  forEachPieceIntent(positionOf(state), state.ruleset, parseSquare(from), (i) => {
    out.push([i.from, ...(i.via >= 0 ? [i.via] : []), i.to].map(squareName).join('>') + (i.ranging ? '*' : ''));
  });
  return out.sort();
}

export const pieceOn = (state: CerkeState, square: string) => state.board[parseSquare(square)];

/** The state reached by a record's moves (imported online), replayed under `ruleset`. */
export function afterRecord(text: string, ruleset: CerkeRuleset = online): CerkeState {
  const record = cerkeEngine.importRecord!(text);
  if (!record.ok) throw new Error(record.error.message);
  const result = replay(cerkeEngine, ruleset, record.value.entries);
  if (!result.ok) throw new Error(`${record.value.labels?.[result.failure.index]}: ${result.failure.error.message}`);
  return result.state;
}

export const sorted = (xs: string[]) => [...xs].sort();
