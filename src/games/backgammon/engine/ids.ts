/**
 * GNU Backgammon's Position ID (14 characters, checkers only) and Match ID (12 characters,
 * everything else), docs/rules/backgammon.md §2.2–§2.3. Both are bit strings packed least-significant-bit first into
 * bytes and written in standard Base64 without padding.
 */
import { fail, ok, type Result } from '../../../engines/kit/index.js';
import type { Seat } from '../../../engines/kit/index.js';
import { BAR, CHECKERS_PER_SIDE, homeBoardClosed } from './board.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function toBase64(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** Decodes unpadded Base64 into `count` bytes; null when a character is outside the alphabet. */
function fromBase64(text: string, count: number): number[] | null {
  let bits = 0;
  let acc = 0;
  const bytes: number[] = [];
  for (const ch of text) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  return bytes.slice(0, count);
}

/**
 * The checkers of a Position ID as gnubg's TanBoard: [player not on roll, player on roll], each
 * 25 counts in that player's own numbering (points 1..24, then the bar). Borne-off checkers are
 * 15 minus the rest.
 */
export type TanBoard = [number[], number[]];

/** Encodes [not on roll, on roll]; longer per-side arrays (with a borne-off slot) are accepted. */
export function encodePositionId(board: readonly (readonly number[])[]): string {
  const bytes = new Array<number>(10).fill(0);
  let bit = 0;
  for (const side of board) {
    for (let slot = 0; slot <= BAR; slot++) {
      for (let c = 0; c < side[slot]; c++, bit++) bytes[bit >> 3] |= 1 << (bit & 7);
      bit++;
    }
  }
  return toBase64(bytes);
}

/** Decodes a Position ID strictly (docs/rules/backgammon.md §2.2), refusing anything gnubg could not show. */
export function decodePositionId(id: unknown): Result<TanBoard> {
  if (typeof id !== 'string') return fail('INVALID_INPUT', 'a Position ID must be a string of 14 characters');
  if (id.length !== 14) return fail('INVALID_INPUT', `a Position ID has 14 characters, "${id}" has ${id.length}`);
  const bytes = fromBase64(id, 10);
  if (!bytes) return fail('INVALID_INPUT', `Position ID "${id}" contains a character outside the Base64 alphabet`);
  if (!'AQgw'.includes(id[13])) return fail('INVALID_INPUT', `Position ID "${id}" ends in "${id[13]}": its last character must be A, Q, g or w (the padding bits are zero)`);
  const board: TanBoard = [new Array<number>(25).fill(0), new Array<number>(25).fill(0)];
  let slot = 0;
  for (let bit = 0; bit < 80; bit++) {
    const one = (bytes[bit >> 3] >> (bit & 7)) & 1;
    if (slot === 50) {
      if (one) return fail('INVALID_INPUT', `Position ID "${id}" has checkers beyond the 50 slots of the two sides`);
      continue;
    }
    if (one) board[slot < 25 ? 0 : 1][slot % 25]++;
    else slot++;
  }
  const names = ['the player not on roll', 'the player on roll'];
  for (let s = 0; s < 2; s++) {
    const total = board[s].reduce((a, b) => a + b, 0);
    if (total > CHECKERS_PER_SIDE) return fail('INVALID_INPUT', `Position ID "${id}" gives ${names[s]} ${total} checkers (at most 15)`);
  }
  for (let i = 0; i < 24; i++) {
    if (board[1][i] > 0 && board[0][23 - i] > 0) {
      return fail('INVALID_INPUT', `Position ID "${id}" puts checkers of both players on one point (point ${i + 1} of the player on roll)`);
    }
  }
  if (board[0][BAR] > 0 && board[1][BAR] > 0 && homeBoardClosed(board[0]) && homeBoardClosed(board[1])) {
    return fail('INVALID_INPUT', `Position ID "${id}" is a dead position: both players are on the bar against closed boards`);
  }
  return ok(board);
}

/** The same checkers seen from the other player (decode, then swap the halves). */
export function swapSides(board: TanBoard): TanBoard {
  return [board[1].slice(), board[0].slice()];
}

export type GnubgGameState = 'none' | 'playing' | 'over' | 'resigned' | 'dropped';
export type ResignationLevel = 'single' | 'gammon' | 'backgammon';
const GAME_STATES: GnubgGameState[] = ['none', 'playing', 'over', 'resigned', 'dropped'];
const RESIGN_LEVELS: (ResignationLevel | null)[] = [null, 'single', 'gammon', 'backgammon'];

/** The fields of a Match ID (docs/rules/backgammon.md §2.3), players numbered as gnubg numbers them (0 and 1). */
export interface MatchIdFields {
  cubeValue: number;
  cubeOwner: Seat | null;
  /** The player on roll (gnubg's "dice owner"). */
  playerOnRoll: Seat;
  crawford: boolean;
  gameState: GnubgGameState;
  /** The player who must act now (the answerer while a double or resignation is pending). */
  turn: Seat;
  doubleOffered: boolean;
  resignationOffered: ResignationLevel | null;
  /** Null before the roll; gnubg writes the larger die first. */
  dice: [number, number] | null;
  /** 0 = money game. */
  matchLength: number;
  score: [number, number];
  jacoby: boolean;
}

const FIELDS: [keyof MatchIdFields | 'die1' | 'die2' | 'score0' | 'score1', number][] = [
  ['cubeValue', 4],
  ['cubeOwner', 2],
  ['playerOnRoll', 1],
  ['crawford', 1],
  ['gameState', 3],
  ['turn', 1],
  ['doubleOffered', 1],
  ['resignationOffered', 2],
  ['die1', 3],
  ['die2', 3],
  ['matchLength', 15],
  ['score0', 15],
  ['score1', 15],
  ['jacoby', 1],
];

export function encodeMatchId(f: MatchIdFields): string {
  const values: Record<string, number> = {
    cubeValue: Math.round(Math.log2(f.cubeValue)),
    cubeOwner: f.cubeOwner === null ? 3 : f.cubeOwner,
    playerOnRoll: f.playerOnRoll,
    crawford: f.crawford ? 1 : 0,
    gameState: GAME_STATES.indexOf(f.gameState),
    turn: f.turn,
    doubleOffered: f.doubleOffered ? 1 : 0,
    resignationOffered: RESIGN_LEVELS.indexOf(f.resignationOffered),
    die1: f.dice ? f.dice[0] : 0,
    die2: f.dice ? f.dice[1] : 0,
    matchLength: f.matchLength,
    score0: f.score[0],
    score1: f.score[1],
    jacoby: f.jacoby ? 0 : 1,
  };
  const bytes = new Array<number>(9).fill(0);
  let bit = 0;
  for (const [name, width] of FIELDS) {
    for (let b = 0; b < width; b++, bit++) if ((values[name] >> b) & 1) bytes[bit >> 3] |= 1 << (bit & 7);
  }
  return toBase64(bytes);
}

/** Decodes a Match ID, refusing what gnubg refuses (docs/rules/backgammon.md §2.3). */
export function decodeMatchId(id: unknown): Result<MatchIdFields> {
  if (typeof id !== 'string') return fail('INVALID_INPUT', 'a Match ID must be a string of 12 characters');
  if (id.length !== 12) return fail('INVALID_INPUT', `a Match ID has 12 characters, "${id}" has ${id.length}`);
  const bytes = fromBase64(id, 9);
  if (!bytes) return fail('INVALID_INPUT', `Match ID "${id}" contains a character outside the Base64 alphabet`);
  const v: Record<string, number> = {};
  let bit = 0;
  for (const [name, width] of FIELDS) {
    let n = 0;
    for (let b = 0; b < width; b++, bit++) n |= ((bytes[bit >> 3] >> (bit & 7)) & 1) << b;
    v[name] = n;
  }
  const bad = (why: string) => fail<MatchIdFields>('INVALID_INPUT', `Match ID "${id}" ${why}`);
  if (v.cubeOwner === 2) return bad('has cube owner 2 (0, 1 or 3 = centred)');
  if (v.gameState > 4) return bad(`has game state ${v.gameState} (0..4)`);
  if (v.die1 > 6 || v.die2 > 6) return bad('has a die above 6');
  if ((v.die1 === 0) !== (v.die2 === 0)) return bad('has one die rolled and the other not');
  if (v.matchLength > 0 && (v.score0 > v.matchLength || v.score1 > v.matchLength)) return bad('has a score above the match length');
  if (v.matchLength === 0 && v.crawford) return bad('marks a Crawford game in money play');
  return ok({
    cubeValue: 2 ** v.cubeValue,
    cubeOwner: v.cubeOwner === 3 ? null : v.cubeOwner,
    playerOnRoll: v.playerOnRoll,
    crawford: v.crawford === 1,
    gameState: GAME_STATES[v.gameState],
    turn: v.turn,
    doubleOffered: v.doubleOffered === 1,
    resignationOffered: RESIGN_LEVELS[v.resignationOffered],
    dice: v.die1 ? [v.die1, v.die2] : null,
    matchLength: v.matchLength,
    score: [v.score0, v.score1],
    jacoby: v.jacoby === 0,
  });
}
