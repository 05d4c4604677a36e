/**
 * The state of a Cerke game and its transitions: turns, stick casts, declarations, season
 * settlement and the end of the game (docs/rules/cerke.md §5, §8-§13). States are plain JSON and every
 * transition returns a new state.
 */
import { type CapturedPiece, type Cell, type Colour, type Kind, type Piece, type Side, TAM2, initialBoard, isPiece, parseSquare, seatOf, sideOf, squareName } from './board.js';
import { type Hand, formsNewHand, handsOf } from './hands.js';
import {
  type MoveIntent,
  type Position,
  type Tam2Intent,
  forEachIntent,
  forEachPieceIntent,
  forEachTam2Intent,
  forEachTarget,
  isCapturable,
  isInHue,
  needsWaterTest,
  stepCompletions,
} from './movement.js';
import type { CerkeRuleset } from './ruleset.js';
import type { CerkeAction } from './actions.js';
import { Codes, checkValues, fail, ok, type Result } from '../../../engines/kit/index.js';

export type NegativeHandName = 'Stepping' | 'FutileMove';
/** [strict] events of a turn that count as hands (docs/rules/cerke.md §11.5). */
export interface NegativeHand {
  name: NegativeHandName;
  value: number;
}

/** A piece move under way: `to` is the planned square until the stick-limited leg is completed. */
export interface MoveUnderWay {
  from: string;
  via: string | null;
  to: string;
  steppedOnTam2: boolean;
  negativeHands: NegativeHand[];
}

export type Phase =
  | { name: 'firstMoverCast' }
  | { name: 'move' }
  | { name: 'steppingCast'; move: MoveUnderWay }
  | { name: 'stepCompletion'; move: MoveUnderWay; cast: number; completions: string[] }
  | { name: 'waterCast'; move: MoveUnderWay }
  | { name: 'declaration'; hands: Hand[]; negativeHands: NegativeHand[]; newPositiveHand: boolean }
  | { name: 'gameOver' };

/** The last stick cast, as the referee drew it (each stick 0 or 1; the value is the count of ones). */
export type StickCast =
  | { purpose: 'firstMover'; sticks: { IA: number[]; A: number[] }; values: { IA: number; A: number } }
  | { purpose: 'stepping' | 'waterEntry'; side: Side; sticks: number[]; value: number };

export type SeasonEnd = { how: 'endSeason'; side: Side } | { how: 'steppingOnTam2'; side: Side } | { how: 'resignation'; side: Side } | { how: 'noLegalAction'; side: Side };

export interface SeasonResult {
  /** 1-based. */
  season: number;
  name: string;
  firstMover: Side | null;
  endedBy: SeasonEnd;
  /** Hands scored by the declarer who ended the season (negative hands included). */
  hands: (Hand | NegativeHand)[];
  handValue: number;
  stake: number;
  /** handValue × stake, signed, for the declarer (before clamping). */
  pointsDeclared: number;
  /** Points that actually moved to the declarer (negative: the declarer paid), after clamping. */
  pointsMoved: number;
  /** [online] 5 × stake payments for stepping on Tam2, as actually paid. */
  steppingOnTam2: { side: Side; points: number }[];
  pointsAfter: { IA: number; A: number };
}

export interface GameResult {
  winners: number[];
  reason: 'pointsRanOut' | 'lastSeason' | 'resignation' | 'noLegalAction';
  resignedBy?: Side;
}

export interface CerkeState {
  ruleset: CerkeRuleset;
  /** 0-based index of the current season. */
  season: number;
  /** Points per seat (seat 0 = IA, seat 1 = A); always sum to 40. */
  points: number[];
  /** Rate: ×1 … ×64, shared by both sides, reset each season. */
  stake: number;
  /** 81 cells, index row * 9 + column (rows A…IA, columns K…P). */
  board: Cell[];
  /** Captured pieces per seat (hop1zuo1). */
  capturedPiles: CapturedPiece[][];
  /** Seat whose turn it is (or who must decide). */
  toMove: number;
  previousTurnMovedTam2: boolean;
  phase: Phase;
  lastCast: StickCast | null;
  firstMover: Side | null;
  steppingOnTam2: { side: Side; points: number }[];
  seasonResults: SeasonResult[];
  result: GameResult | null;
}

export const INITIAL_POINTS = 20;
const TOTAL_POINTS = 40;
const MAX_STAKE = 64;
const STEPPING_ON_TAM2 = 5;
const FUTILE_MOVE = 3;
const WATER_ENTRY_NEEDS = 3;

const SEASON_NAMES: Record<number, string[]> = { 1: ['Spring'], 2: ['Spring', 'Summer'], 4: ['Spring', 'Summer', 'Autumn', 'Winter'] };
export const seasonName = (ruleset: CerkeRuleset, season: number): string => SEASON_NAMES[ruleset.seasons][season];

export const positionOf = (state: CerkeState): Position => ({ board: state.board, tam2: state.board.indexOf(TAM2) });

export function init(ruleset: CerkeRuleset): CerkeState {
  return {
    ruleset,
    season: 0,
    points: [INITIAL_POINTS, INITIAL_POINTS],
    stake: 1,
    board: initialBoard(),
    capturedPiles: [[], []],
    toMove: 0,
    previousTurnMovedTam2: false,
    phase: { name: 'firstMoverCast' },
    lastCast: null,
    firstMover: null,
    steppingOnTam2: [],
    seasonResults: [],
    result: null,
  };
}

const STICKS = [2, 2, 2, 2, 2];

export function pendingChance(state: CerkeState) {
  switch (state.phase.name) {
    // Each side casts five sticks: values 0-4 are IA's sticks, 5-9 are A's.
    case 'firstMoverCast':
      return { label: 'FirstMoverCast', ranges: [...STICKS, ...STICKS] };
    case 'steppingCast':
    case 'waterCast':
      return { label: 'SticksCast', ranges: STICKS };
    default:
      return null;
  }
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

export function resolveChance(state: CerkeState, values: number[]): Result<CerkeState> {
  const pending = pendingChance(state);
  if (!pending) return fail(Codes.INVALID_INPUT, 'no stick cast is pending');
  const bad = checkValues(pending.ranges, values);
  if (bad) return fail(Codes.INVALID_INPUT, `${pending.label}: ${bad}`);
  const phase = state.phase;
  const side = sideOf(state.toMove);
  if (phase.name === 'firstMoverCast') {
    const sticks = { IA: values.slice(0, 5), A: values.slice(5) };
    const cast = { IA: sum(sticks.IA), A: sum(sticks.A) };
    const lastCast: StickCast = { purpose: 'firstMover', sticks, values: cast };
    // Equal values: both cast again (docs/rules/cerke.md §5.3).
    if (cast.IA === cast.A) return ok({ ...state, lastCast });
    const first: Side = cast.IA > cast.A ? 'IA' : 'A';
    return ok(startTurn({ ...state, lastCast, firstMover: first, toMove: seatOf(first) }));
  }
  const value = sum(values);
  if (phase.name === 'steppingCast') {
    const next: CerkeState = { ...state, lastCast: { purpose: 'stepping', side, sticks: values, value } };
    const { move } = phase;
    const completions = stepCompletions(
      positionOf(state),
      state.ruleset,
      parseSquare(move.from),
      parseSquare(move.via!),
      parseSquare(move.to),
      value,
      state.ruleset.whatToSayBeforeCastingSticks === 'exactDestination',
    ).map(squareName);
    if (completions.length === 0) return ok(failMove(next, move));
    return ok({ ...next, phase: { name: 'stepCompletion', move, cast: value, completions } });
  }
  if (phase.name === 'waterCast') {
    const next: CerkeState = { ...state, lastCast: { purpose: 'waterEntry', side, sticks: values, value } };
    return ok(value >= WATER_ENTRY_NEEDS ? completeMove(next, phase.move) : failMove(next, phase.move));
  }
  return fail(Codes.INVALID_INPUT, 'no stick cast is pending');
}

export function toAct(state: CerkeState): number[] {
  const name = state.phase.name;
  return name === 'move' || name === 'stepCompletion' || name === 'declaration' ? [state.toMove] : [];
}

// ---------------------------------------------------------------------------------------------
// Points and the end of seasons and of the game

/** Moves `amount` points (signed) from the other seat to `seat`, clamped to 0-40; returns what moved. */
function transfer(points: readonly number[], seat: number, amount: number): { points: number[]; moved: number } {
  const mine = Math.min(TOTAL_POINTS, Math.max(0, points[seat] + amount));
  const moved = mine - points[seat];
  const out = points.slice();
  out[seat] = mine;
  out[1 - seat] -= moved;
  return { points: out, moved };
}

const pointsBySide = (points: readonly number[]) => ({ IA: points[0], A: points[1] });
const someoneRanOut = (points: readonly number[]) => points.some((p) => p <= 0 || p >= TOTAL_POINTS);

function winnersByPoints(points: readonly number[]): number[] {
  if (points[0] === points[1]) return [0, 1];
  return [points[0] > points[1] ? 0 : 1];
}

function finish(state: CerkeState, result: GameResult): CerkeState {
  return { ...state, phase: { name: 'gameOver' }, result };
}

function closeSeason(state: CerkeState, partial: Omit<SeasonResult, 'season' | 'name' | 'firstMover' | 'steppingOnTam2' | 'pointsAfter' | 'stake'>): CerkeState {
  const result: SeasonResult = {
    season: state.season + 1,
    name: seasonName(state.ruleset, state.season),
    firstMover: state.firstMover,
    stake: state.stake,
    steppingOnTam2: state.steppingOnTam2,
    pointsAfter: pointsBySide(state.points),
    ...partial,
  };
  return { ...state, seasonResults: [...state.seasonResults, result] };
}

function startSeason(state: CerkeState): CerkeState {
  return {
    ...state,
    season: state.season + 1,
    stake: 1,
    board: initialBoard(),
    capturedPiles: [[], []],
    previousTurnMovedTam2: false,
    phase: { name: 'firstMoverCast' },
    firstMover: null,
    steppingOnTam2: [],
  };
}

/** What ending the season now would score: the pile's hands and this turn's negative hands (docs/rules/cerke.md §12.3). */
export function declaredHands(state: CerkeState, phase: Extract<Phase, { name: 'declaration' }>): { hands: (Hand | NegativeHand)[]; handValue: number } {
  // With only negative hands formed this turn the Rust reference scores just those.
  const withPile = phase.newPositiveHand || phase.negativeHands.length === 0 || state.ruleset.scorePileWithNegativeHand;
  const hands = [...(withPile ? phase.hands : []), ...phase.negativeHands];
  return { hands, handValue: sum(hands.map((h) => h.value)) };
}

/** The declarer ends the season (ta xot1, docs/rules/cerke.md §12.3). */
function endSeason(state: CerkeState, seat: number, phase: Extract<Phase, { name: 'declaration' }>): CerkeState {
  const { hands, handValue } = declaredHands(state, phase);
  const { points, moved } = transfer(state.points, seat, handValue * state.stake);
  const side = sideOf(seat);
  const closed = closeSeason(
    { ...state, points },
    {
      endedBy: { how: 'endSeason', side },
      hands,
      handValue,
      pointsDeclared: handValue * state.stake,
      pointsMoved: moved,
    },
  );
  if (someoneRanOut(points)) return finish(closed, { winners: winnersByPoints(points), reason: 'pointsRanOut' });
  if (state.season + 1 >= state.ruleset.seasons) return finish(closed, { winners: winnersByPoints(points), reason: 'lastSeason' });
  return startSeason(closed);
}

const noScore = { hands: [], handValue: 0, pointsDeclared: 0, pointsMoved: 0 };

/** The seat to move starts a turn; a seat with no legal action at all ends the game (docs/rules/cerke.md §13, as the Rust reference does). */
function startTurn(state: CerkeState): CerkeState {
  const next: CerkeState = { ...state, phase: { name: 'move' } };
  if (hasLegalAction(next, next.toMove)) return next;
  const closed = closeSeason(next, { endedBy: { how: 'noLegalAction', side: sideOf(next.toMove) }, ...noScore });
  return finish(closed, { winners: winnersByPoints(next.points), reason: 'noLegalAction' });
}

const passTurn = (state: CerkeState): CerkeState => startTurn({ ...state, toMove: 1 - state.toMove });

/** After the action: a new hand (or a [strict] negative hand) calls for a declaration (docs/rules/cerke.md §12.1). */
function endTurn(state: CerkeState, capture: CapturedPiece | null, negativeHands: NegativeHand[]): CerkeState {
  let newPositiveHand = false;
  const pile = state.capturedPiles[state.toMove];
  if (capture) newPositiveHand = formsNewHand(handsOf(pile.slice(0, -1)), handsOf(pile));
  if (!newPositiveHand && negativeHands.length === 0) return passTurn(state);
  return { ...state, phase: { name: 'declaration', hands: handsOf(pile), negativeHands, newPositiveHand } };
}

/** Stepping on Tam2 (docs/rules/cerke.md §9.4): [online] 5 × stake at once, [strict] the hand The Stepping. */
function stepOnTam2(state: CerkeState, move: MoveUnderWay): { state: CerkeState; move: MoveUnderWay } {
  if (state.ruleset.stepTamIsAHand) {
    return { state, move: { ...move, negativeHands: [...move.negativeHands, { name: 'Stepping', value: -STEPPING_ON_TAM2 }] } };
  }
  const seat = state.toMove;
  const { points, moved } = transfer(state.points, 1 - seat, STEPPING_ON_TAM2 * state.stake);
  let next: CerkeState = { ...state, points, steppingOnTam2: [...state.steppingOnTam2, { side: sideOf(seat), points: moved }] };
  if (someoneRanOut(points)) {
    next = closeSeason(next, { endedBy: { how: 'steppingOnTam2', side: sideOf(seat) }, ...noScore });
    next = finish(next, { winners: winnersByPoints(points), reason: 'pointsRanOut' });
  }
  return { state: next, move };
}

const exemptUntilComplete = (state: CerkeState) => state.ruleset.failureToCompleteTheMoveMeansExemptFromKut2Tam2;

/** The piece reaches its final square, capturing what stands there. */
function completeMove(state: CerkeState, planned: MoveUnderWay): CerkeState {
  let move = planned;
  if (move.steppedOnTam2 && exemptUntilComplete(state)) {
    ({ state, move } = stepOnTam2(state, move));
    if (state.result) return state;
  }
  const from = parseSquare(move.from);
  const to = parseSquare(move.to);
  const board = state.board.slice();
  const target = board[to];
  const piece = board[from] as Piece;
  board[from] = null;
  board[to] = piece;
  let capture: CapturedPiece | null = null;
  let capturedPiles = state.capturedPiles;
  if (to !== from && isPiece(target)) {
    capture = { kind: target.kind, colour: target.colour };
    capturedPiles = capturedPiles.slice();
    capturedPiles[state.toMove] = [...capturedPiles[state.toMove], capture];
  }
  return endTurn({ ...state, board, capturedPiles }, capture, move.negativeHands);
}

/** Abandoned or failed: the piece stays on its origin; only a [strict] negative hand remains. */
const failMove = (state: CerkeState, move: MoveUnderWay): CerkeState => endTurn(state, null, move.negativeHands);

// ---------------------------------------------------------------------------------------------
// Legal actions

function tam2MayMove(state: CerkeState): boolean {
  return !(state.previousTurnMovedTam2 && state.ruleset.movingTamImmediatelyAfterTamHasMoved === 'forbidden');
}

export function hasLegalAction(state: CerkeState, seat: number): boolean {
  // A drop is always possible with a non-empty pile: at most 49 of the 81 squares are occupied.
  if (state.capturedPiles[seat].length > 0) return true;
  const position = positionOf(state);
  if (forEachIntent(position, state.ruleset, sideOf(seat), () => true)) return true;
  return tam2MayMove(state) && forEachTam2Intent(position, () => true);
}

const moveAction = (intent: MoveIntent): CerkeAction =>
  intent.via < 0 ? { type: 'move', from: squareName(intent.from), to: squareName(intent.to) } : { type: 'move', from: squareName(intent.from), via: squareName(intent.via), to: squareName(intent.to) };

export const tam2Action = (intent: Tam2Intent): CerkeAction =>
  intent.via < 0
    ? { type: 'moveTam2', firstSquare: squareName(intent.firstSquare), to: squareName(intent.to) }
    : { type: 'moveTam2', firstSquare: squareName(intent.firstSquare), to: squareName(intent.to), via: squareName(intent.via), stepDuring: intent.stepDuring! };

export function legalActions(state: CerkeState, seat: number): CerkeAction[] {
  if (state.result || !toAct(state).includes(seat)) return [];
  const phase = state.phase;
  if (phase.name === 'declaration') return [{ type: 'continue' }, { type: 'endSeason' }];
  if (phase.name === 'stepCompletion') return [...phase.completions.map((to): CerkeAction => ({ type: 'completeStep', to })), { type: 'abandonStep' }];
  const position = positionOf(state);
  const actions: CerkeAction[] = [];
  forEachIntent(position, state.ruleset, sideOf(seat), (intent) => {
    actions.push(moveAction(intent));
  });
  const seen = new Set<string>();
  for (const { kind, colour } of state.capturedPiles[seat]) {
    if (seen.has(colour + kind)) continue;
    seen.add(colour + kind);
    for (let square = 0; square < 81; square++) if (state.board[square] === null) actions.push({ type: 'drop', colour, kind, to: squareName(square) });
  }
  if (tam2MayMove(state))
    forEachTam2Intent(position, (intent) => {
      actions.push(tam2Action(intent));
    });
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Applying actions

const illegal = (message: string) => fail<CerkeState>(Codes.ILLEGAL_MOVE, message);
const article = (kind: Kind) => `the ${kind}`;

export function apply(state: CerkeState, seat: number, action: CerkeAction): Result<CerkeState> {
  if (state.result) return fail(Codes.GAME_OVER, 'the game is over');
  if (seat !== 0 && seat !== 1) return fail(Codes.INVALID_INPUT, `Cerke has seats 0 (IA) and 1 (A), not ${seat}`);
  const pending = pendingChance(state);
  if (pending) return fail(Codes.NOT_YOUR_TURN, pending.label === 'FirstMoverCast' ? 'the sticks are being cast to decide who moves first' : 'the sticks are being cast for the move under way');
  if (seat !== state.toMove) return fail(Codes.NOT_YOUR_TURN, `it is the ${sideOf(state.toMove)} side's turn`);
  const phase = state.phase;
  switch (action.type) {
    case 'continue':
    case 'endSeason':
      if (phase.name !== 'declaration') return fail(Codes.NO_PENDING_DECISION, 'you made no new hand this turn, so there is nothing to declare');
      return ok(action.type === 'continue' ? passTurn({ ...state, stake: Math.min(MAX_STAKE, state.stake * 2) }) : endSeason(state, seat, phase));
    case 'completeStep':
    case 'abandonStep': {
      if (phase.name !== 'stepCompletion') return fail(Codes.NO_PENDING_DECISION, 'no stepping move is waiting for completion');
      if (action.type === 'abandonStep') return ok(failMove(state, phase.move));
      if (!phase.completions.includes(action.to)) {
        const rule = state.ruleset.whatToSayBeforeCastingSticks === 'exactDestination' ? `the planned square ${phase.move.to}` : `a square in the planned direction (towards ${phase.move.to})`;
        return illegal(`after a cast of ${phase.cast} the move from ${phase.move.via} may only end on ${rule} at most ${phase.cast} squares away: ${phase.completions.join(', ')}`);
      }
      const move = { ...phase.move, to: action.to };
      return ok(afterFinalSquareIsFixed(state, move));
    }
    default:
      break;
  }
  if (phase.name === 'declaration') return illegal('you made a new hand: declare continue or endSeason first');
  if (phase.name === 'stepCompletion') return illegal('finish your stepping move first: completeStep or abandonStep');
  if (action.type === 'drop') return applyDrop(state, seat, action);
  if (action.type === 'moveTam2') return applyTam2Move(state, action);
  if (action.type === 'move') return applyPieceMove(state, seat, action);
  return fail(Codes.INVALID_INPUT, `unknown action type ${JSON.stringify((action as { type?: unknown }).type)}`);
}

function afterFinalSquareIsFixed(state: CerkeState, move: MoveUnderWay): CerkeState {
  const kind = (state.board[parseSquare(move.from)] as Piece).kind;
  if (needsWaterTest(kind, parseSquare(move.from), parseSquare(move.to))) return { ...state, phase: { name: 'waterCast', move } };
  return completeMove(state, move);
}

function applyPieceMove(state: CerkeState, seat: number, action: Extract<CerkeAction, { type: 'move' }>): Result<CerkeState> {
  const position = positionOf(state);
  const from = parseSquare(action.from);
  const via = action.via === undefined ? -1 : parseSquare(action.via);
  const to = parseSquare(action.to);
  const piece = state.board[from];
  if (piece === null) return illegal(`there is no piece on ${action.from}`);
  if (piece === TAM2) return illegal('Tam2 moves with a moveTam2 action');
  if (piece.side !== sideOf(seat)) return illegal(`the piece on ${action.from} belongs to the ${piece.side} side`);
  let found: MoveIntent | null = null;
  forEachPieceIntent(position, state.ruleset, from, (intent) => {
    if (intent.via === via && intent.to === to) found = intent;
    return found !== null;
  });
  if (!found) return illegal(explainIllegalMove(state, position, from, via, to, piece));
  const intent: MoveIntent = found;
  let move: MoveUnderWay = { from: action.from, via: action.via ?? null, to: action.to, steppedOnTam2: via >= 0 && via === position.tam2, negativeHands: [] };
  let next: CerkeState = { ...state, previousTurnMovedTam2: false };
  if (move.steppedOnTam2 && !exemptUntilComplete(state)) {
    ({ state: next, move } = stepOnTam2(next, move));
    if (next.result) return ok(next);
  }
  if (intent.ranging) return ok({ ...next, phase: { name: 'steppingCast', move } });
  return ok(afterFinalSquareIsFixed(next, move));
}

/** Why a move is not among the piece's intents, in the rules' words. */
function explainIllegalMove(state: CerkeState, position: Position, from: number, via: number, to: number, piece: Piece): string {
  const reaches = (origin: number, target: number, lifted: number, tamItself: boolean) =>
    forEachTarget(position, origin, piece.kind, piece.side, isInHue(origin, position.tam2, tamItself), lifted, (t) => t === target);
  const where = (square: number, tamItself: boolean) => (isInHue(square, position.tam2, tamItself) ? `inside Tam2's field` : `outside Tam2's field`);
  const name = article(piece.kind);
  const finalProblem = (square: number): string | null => {
    const cell = state.board[square];
    if (square === from || cell === null) return null;
    if (cell === TAM2) return 'Tam2 can never be captured; a piece may only step on it';
    if (cell.side === piece.side) return `${squareName(square)} holds your own piece; you may only step on it`;
    if (!isCapturable(position, square, piece.side)) return `the ${cell.kind} on ${squareName(square)} is protected by a General of its side standing next to it in Tam2's field`;
    return null;
  };
  if (via < 0) {
    if (!reaches(from, to, -1, false)) return `${name} on ${squareName(from)} (${where(from, false)}) cannot reach ${squareName(to)}`;
    return finalProblem(to) ?? `${name} on ${squareName(from)} cannot move to ${squareName(to)}`;
  }
  if (!reaches(from, via, -1, false)) return `${name} on ${squareName(from)} (${where(from, false)}) cannot reach ${squareName(via)} to step on it`;
  if (state.board[via] === null) return `${squareName(via)} is empty: a piece can only step on an occupied square`;
  if (via === position.tam2 && !state.ruleset.allowKut2Tam2) return 'this ruleset does not allow stepping on Tam2';
  if (to === via) return `a stepping move cannot end on the square it stepped on; capture ${squareName(via)} with a direct move instead`;
  const tamItself = state.ruleset.tamItselfIsTamHue;
  if (!reaches(via, to, from, tamItself)) return `after stepping on ${squareName(via)} (${where(via, tamItself)}), ${name} cannot reach ${squareName(to)}`;
  return finalProblem(to) ?? `${name} cannot move from ${squareName(from)} via ${squareName(via)} to ${squareName(to)}`;
}

function applyDrop(state: CerkeState, seat: number, action: Extract<CerkeAction, { type: 'drop' }>): Result<CerkeState> {
  const pile = state.capturedPiles[seat];
  const index = pile.findIndex((p) => p.kind === action.kind && p.colour === action.colour);
  if (index < 0) return illegal(`your captured pile holds no ${action.colour} ${action.kind}`);
  const to = parseSquare(action.to);
  if (state.board[to] !== null) return illegal(`a captured piece may only be dropped on an empty square; ${action.to} is occupied`);
  const board = state.board.slice();
  board[to] = { kind: action.kind, colour: action.colour as Colour, side: sideOf(seat) };
  const capturedPiles = state.capturedPiles.slice();
  capturedPiles[seat] = [...pile.slice(0, index), ...pile.slice(index + 1)];
  return ok(endTurn({ ...state, board, capturedPiles, previousTurnMovedTam2: false }, null, []));
}

function applyTam2Move(state: CerkeState, action: Extract<CerkeAction, { type: 'moveTam2' }>): Result<CerkeState> {
  const position = positionOf(state);
  if (position.tam2 < 0) return illegal('there is no Tam2 on this board');
  const first = parseSquare(action.firstSquare);
  const to = parseSquare(action.to);
  const via = action.via === undefined ? -1 : parseSquare(action.via);
  const stepDuring = action.stepDuring ?? null;
  let found = false;
  forEachTam2Intent(position, (intent) => (found = intent.firstSquare === first && intent.to === to && intent.via === via && intent.stepDuring === stepDuring));
  if (!found) {
    const path = [squareName(position.tam2), ...(stepDuring === 'firstHalf' ? [`(${action.via})`] : []), action.firstSquare, ...(stepDuring === 'secondHalf' ? [`(${action.via})`] : []), action.to];
    return illegal(`Tam2 cannot move ${path.join(' → ')}: it makes two King steps onto empty squares, stepping on at most one occupied square on the way`);
  }
  const negativeHands: NegativeHand[] = [];
  if (state.previousTurnMovedTam2) {
    if (state.ruleset.movingTamImmediatelyAfterTamHasMoved === 'forbidden') return illegal('the other side moved Tam2 on the last turn, so Tam2 may not move again right away');
    negativeHands.push({ name: 'FutileMove', value: -FUTILE_MOVE });
  }
  if (to === position.tam2 && state.ruleset.tamMunMok === 'penalized') negativeHands.push({ name: 'FutileMove', value: -FUTILE_MOVE });
  const board = state.board.slice();
  board[position.tam2] = null;
  board[to] = TAM2;
  return ok(endTurn({ ...state, board, previousTurnMovedTam2: true }, null, negativeHands));
}

export function resign(state: CerkeState, seat: number): Result<CerkeState> {
  if (state.result) return fail(Codes.GAME_OVER, 'the game is over');
  if (seat !== 0 && seat !== 1) return fail(Codes.INVALID_INPUT, `Cerke has seats 0 (IA) and 1 (A), not ${seat}`);
  const closed = closeSeason(state, { endedBy: { how: 'resignation', side: sideOf(seat) }, ...noScore });
  return ok(finish(closed, { winners: [1 - seat], reason: 'resignation', resignedBy: sideOf(seat) }));
}
