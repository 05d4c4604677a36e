/**
 * The game as a state machine (docs/rules/chicken-foot.md §7): rounds are dealt from one hidden shuffle each,
 * turns run START -> AFTER_DRAW -> next seat, and a round ends on a domino or a block, is scored
 * and starts the next round on the next lower double until the game ends.
 */
import { applyShuffle, checkValues, Codes, fail, ok, shuffleRanges, type ChanceRequest, type Result, type Seat } from '../../../engines/kit/index.js';
import type { ChickenFootRuleset, TieBreak } from './ruleset.js';
import { attach, boardPhase, findNode, hasPlay, HUB, newTable, openFoot, targetName, targets, type TableNode } from './table.js';
import { buildSet, compareTiles, contains, doubleId, handValue, isDouble, normalizeTile, setSize, type TileId } from './tiles.js';

/** Game-specific error codes (docs/rules/chicken-foot.md §7.3; NOT_YOUR_TURN and GAME_OVER come from the kit). */
export const ChickenFootCodes = {
  ROUND_OVER: 'ROUND_OVER',
  TILE_NOT_IN_HAND: 'TILE_NOT_IN_HAND',
  TARGET_NOT_OPEN: 'TARGET_NOT_OPEN',
  NO_MATCH: 'NO_MATCH',
  MUST_PLAY: 'MUST_PLAY',
  MUST_DRAW: 'MUST_DRAW',
  CANNOT_DRAW: 'CANNOT_DRAW',
  MUST_PLAY_DRAWN: 'MUST_PLAY_DRAWN',
} as const;

export type ChickenFootAction = { type: 'play'; tile: TileId; target: string; announce?: true } | { type: 'draw' } | { type: 'pass' };

/** A round being played. Hands, yard, shuffle values and order are hidden until the round ends. */
export interface RoundInPlay {
  number: number;
  dealer: Seat;
  /** First seat of the search for a missing starting double: next(dealer). */
  searchStart: Seat;
  /** The double actually used as the hub (differs from the schedule only under "burn"). */
  startDouble: number;
  /** The seat that found (setAside) or placed (fromHand) the hub. */
  starter: Seat;
  /** Tiles each seat drew into its hand while searching for the starting double (fromHand only). */
  searchDraws: number[];
  /** The round's chance values and the order of the whole set they produced. */
  shuffle: number[];
  order: TileId[];
  /** Hands as dealt, before the starting double was placed or searched for. */
  dealt: TileId[][];
  /** Hands now, each sorted. */
  hands: TileId[][];
  /** Undrawn tiles, top (next to be drawn) first. */
  yard: TileId[];
  table: TableNode[];
  turn: Seat;
  drawsThisTurn: number;
  /** Consecutive passes with no play or draw between them (for blockedDetection "passCycle"). */
  passesInRow: number;
}

export type RoundEnd = 'domino' | 'blocked' | 'abandoned';

/** A round that is over: everything about it is public. */
export interface FinishedRound extends Omit<RoundInPlay, 'turn' | 'drawsThisTurn' | 'passesInRow'> {
  end: RoundEnd;
  wentOut: Seat | null;
  /** Points per seat; null for a round abandoned by a resignation (not scored). */
  scores: number[] | null;
  /** Seats with the lowest round score (informational). */
  roundWinners: Seat[];
}

export interface ChickenFootState {
  ruleset: ChickenFootRuleset;
  /** Null until drawn (firstDealer "random"). */
  firstDealer: Seat | null;
  /** The chance the game waits for, if any. */
  awaiting: 'firstDealer' | 'shuffle' | null;
  /** The double the next round to be dealt is scheduled to start with. */
  scheduledDouble: number;
  round: RoundInPlay | null;
  rounds: FinishedRound[];
  totals: number[];
  end: null | { reason: 'completed' | 'resigned'; resigned: Seat | null };
}

const next = (r: ChickenFootRuleset, seat: Seat): Seat => (seat + 1) % r.players;

const setCache = new Map<number, TileId[]>();
function fullSet(n: number): TileId[] {
  let set = setCache.get(n);
  if (!set) setCache.set(n, (set = buildSet(n)));
  return set;
}

export function init(ruleset: ChickenFootRuleset): ChickenFootState {
  const random = ruleset.firstDealer === 'random';
  return {
    ruleset,
    firstDealer: random ? null : (ruleset.firstDealer as Seat),
    awaiting: random ? 'firstDealer' : 'shuffle',
    scheduledDouble: ruleset.setMax,
    round: null,
    rounds: [],
    totals: new Array<number>(ruleset.players).fill(0),
    end: null,
  };
}

export const FIRST_DEALER_LABEL = 'FirstDealerDrawn';
export const SHUFFLE_LABEL = 'TilesShuffled';

export function pendingChance(state: ChickenFootState): ChanceRequest | null {
  if (state.end) return null;
  if (state.awaiting === 'firstDealer') return { label: FIRST_DEALER_LABEL, ranges: [state.ruleset.players] };
  if (state.awaiting === 'shuffle') return { label: SHUFFLE_LABEL, ranges: shuffleRanges(setSize(state.ruleset.setMax)), hidden: true };
  return null;
}

export function resolveChance(state: ChickenFootState, values: number[]): Result<ChickenFootState> {
  const pending = pendingChance(state);
  if (!pending) return fail(Codes.INVALID_INPUT, state.end ? 'the game is over: no random values are expected' : 'no random values are expected now');
  const bad = checkValues(pending.ranges, values);
  if (bad) return fail(Codes.INVALID_INPUT, `${pending.label}: ${bad}`);
  if (state.awaiting === 'firstDealer') return ok({ ...state, firstDealer: values[0], awaiting: 'shuffle' });
  return ok(dealRound(state, values));
}

const sortedHand = (tiles: readonly TileId[]): TileId[] => tiles.slice().sort(compareTiles);

/** docs/rules/chicken-foot.md §4: deal from the shuffled order, find or place the starting double, set the first turn. */
function dealRound(state: ChickenFootState, shuffle: number[]): ChickenFootState {
  const r = state.ruleset;
  const number = state.rounds.length + 1;
  const dealer = ((state.firstDealer ?? 0) + number - 1) % r.players;
  const searchStart = next(r, dealer);
  const order = applyShuffle(fullSet(r.setMax), shuffle);
  const scheduled = doubleId(state.scheduledDouble);
  const searchDraws = new Array<number>(r.players).fill(0);
  const deal = (from: readonly TileId[]) => Array.from({ length: r.players }, (_, seat) => from.slice(seat * r.handSize, (seat + 1) * r.handSize));
  let startDouble = state.scheduledDouble;
  let starter: Seat;
  let dealt: TileId[][];
  let hands: TileId[][];
  let yard: TileId[];

  if (r.startDoubleSource === 'setAside') {
    // Searching seat by seat from searchStart finds the double at stack index k, so the finder is
    // (searchStart + k) mod P; the other tiles, in the same relative order, are the re-shuffled stack.
    const k = order.indexOf(scheduled);
    starter = (searchStart + k) % r.players;
    const rest = order.filter((t) => t !== scheduled);
    dealt = deal(rest);
    hands = dealt.map(sortedHand);
    yard = rest.slice(r.players * r.handSize);
  } else {
    dealt = deal(order);
    hands = dealt.map((hand) => hand.slice());
    yard = order.slice(r.players * r.handSize);
    // "burn" tries the scheduled double and each lower one; the first one held is used.
    const candidates = r.missingStartDouble === 'burn' ? Array.from({ length: state.scheduledDouble + 1 }, (_, i) => state.scheduledDouble - i) : [state.scheduledDouble];
    let holder = -1;
    for (const v of candidates) {
      holder = hands.findIndex((hand) => hand.includes(doubleId(v)));
      if (holder >= 0) {
        startDouble = v;
        break;
      }
    }
    if (holder < 0) {
      // Nobody holds it: seats draw in turn into their hands until it appears. The search may reach
      // into the reserve, since the double must be found to start the round at all.
      for (let seat = searchStart; ; seat = next(r, seat)) {
        const tile = yard[0];
        yard = yard.slice(1);
        hands[seat].push(tile);
        searchDraws[seat]++;
        if (tile === scheduled) {
          holder = seat;
          break;
        }
      }
    }
    starter = holder;
    const hub = doubleId(startDouble);
    hands[starter] = hands[starter].filter((t) => t !== hub);
    hands = hands.map(sortedHand);
  }

  const round: RoundInPlay = {
    number,
    dealer,
    searchStart,
    startDouble,
    starter,
    searchDraws,
    shuffle: shuffle.slice(),
    order,
    dealt,
    hands,
    yard,
    table: newTable(startDouble),
    turn: r.firstToAct === 'nextAfterPlacer' ? next(r, starter) : starter,
    drawsThisTurn: 0,
    passesInRow: 0,
  };
  const dealtState: ChickenFootState = { ...state, awaiting: null, round };
  return r.blockedDetection === 'immediate' && isBlocked(r, round) ? endRound(dealtState, round, 'blocked', null) : dealtState;
}

/** The open targets of the round's table under the ruleset. */
export const roundTargets = (r: ChickenFootRuleset, round: RoundInPlay): number[] => targets(round.table, r);

const drawable = (r: ChickenFootRuleset, round: RoundInPlay): boolean => round.yard.length > r.yardReserve;

/** Blocked (docs/rules/chicken-foot.md §9.2): the yard is exhausted and no seat has a legal play. */
export function isBlocked(r: ChickenFootRuleset, round: RoundInPlay): boolean {
  if (drawable(r, round)) return false;
  const open = roundTargets(r, round);
  return round.hands.every((hand) => !hasPlay(round.table, open, hand));
}

/** Whether the seat to act must send a play, may draw, or may pass (docs/rules/chicken-foot.md §7.2). */
function turnOptions(r: ChickenFootRuleset, round: RoundInPlay, open: readonly number[]) {
  const canPlay = hasPlay(round.table, open, round.hands[round.turn]);
  const mayDraw = !canPlay && drawable(r, round) && (round.drawsThisTurn === 0 || r.drawPolicy === 'untilPlayable');
  const mayPass = canPlay ? round.drawsThisTurn > 0 && !r.mustPlayDrawn : !mayDraw;
  return { canPlay, mayDraw, mayPass };
}

export function toAct(state: ChickenFootState): Seat[] {
  return state.end || !state.round ? [] : [state.round.turn];
}

/** Every legal action of the seat now: its plays (tile, target), or draw, or pass. */
export function legalActions(state: ChickenFootState, seat: Seat): ChickenFootAction[] {
  const round = state.round;
  if (state.end || !round || seat !== round.turn) return [];
  const r = state.ruleset;
  const open = roundTargets(r, round);
  const { canPlay, mayDraw, mayPass } = turnOptions(r, round, open);
  const actions: ChickenFootAction[] = [];
  if (canPlay) {
    const hand = round.hands[seat];
    const announce = r.lastTileCall.enabled && hand.length === 2;
    for (const tile of hand) {
      for (const at of open) {
        if (!contains(tile, round.table[at].value)) continue;
        const target = targetName(round.table, at);
        actions.push(announce ? { type: 'play', tile, target, announce: true } : { type: 'play', tile, target });
      }
    }
  }
  if (mayDraw) actions.push({ type: 'draw' });
  if (mayPass) actions.push({ type: 'pass' });
  return actions;
}

export function apply(state: ChickenFootState, seat: Seat, action: ChickenFootAction): Result<ChickenFootState> {
  if (state.end) return fail(Codes.GAME_OVER, 'the game is over');
  const round = state.round;
  if (!round) return fail(ChickenFootCodes.ROUND_OVER, `no round is in play: round ${state.rounds.length + 1} has not been dealt yet`);
  if (seat !== round.turn) return fail(Codes.NOT_YOUR_TURN, `it is seat ${round.turn}'s turn, not seat ${seat}'s`);
  const r = state.ruleset;
  const open = roundTargets(r, round);
  if (action.type === 'play') return play(state, round, open, action);
  const options = turnOptions(r, round, open);
  if (action.type === 'draw') {
    if (options.canPlay) return fail(ChickenFootCodes.MUST_PLAY, 'you have a legal play, so you must play instead of drawing');
    if (!drawable(r, round)) {
      return fail(ChickenFootCodes.CANNOT_DRAW, `the yard cannot be drawn from: it holds ${round.yard.length} tile(s) and ${r.yardReserve} must stay there`);
    }
    if (!options.mayDraw) return fail(ChickenFootCodes.CANNOT_DRAW, 'you have already drawn this turn; with one draw per turn you must now pass');
    const [tile, ...yard] = round.yard;
    const hands = round.hands.slice();
    hands[seat] = sortedHand([...hands[seat], tile]);
    return ok({ ...state, round: { ...round, hands, yard, drawsThisTurn: round.drawsThisTurn + 1, passesInRow: 0 } });
  }
  if (!options.mayPass) {
    if (options.canPlay && round.drawsThisTurn === 0) return fail(ChickenFootCodes.MUST_PLAY, 'you have a legal play, so you may not pass');
    if (options.canPlay) return fail(ChickenFootCodes.MUST_PLAY_DRAWN, 'the tile you drew fits an open end, so you must play it');
    return fail(ChickenFootCodes.MUST_DRAW, 'you have no legal play and the yard can still be drawn from, so you must draw');
  }
  const passed: RoundInPlay = { ...round, passesInRow: round.passesInRow + 1 };
  const yardExhausted = !drawable(r, round);
  if (
    (r.emptyYardEndsRound && yardExhausted && !options.canPlay) ||
    (r.blockedDetection === 'passCycle' && passed.passesInRow >= r.players) ||
    (r.blockedDetection === 'immediate' && isBlocked(r, passed))
  ) {
    return ok(endRound(state, passed, 'blocked', null));
  }
  return ok({ ...state, round: { ...passed, turn: next(r, seat), drawsThisTurn: 0 } });
}

function play(state: ChickenFootState, round: RoundInPlay, open: readonly number[], action: Extract<ChickenFootAction, { type: 'play' }>): Result<ChickenFootState> {
  const r = state.ruleset;
  const seat = round.turn;
  const hand = round.hands[seat];
  if (!hand.includes(action.tile)) return fail(ChickenFootCodes.TILE_NOT_IN_HAND, `you do not hold ${action.tile}`);
  const at = findNode(round.table, action.target);
  if (at < 0) return fail(ChickenFootCodes.TARGET_NOT_OPEN, `${action.target} is not on the table`);
  if (!open.includes(at)) return fail(ChickenFootCodes.TARGET_NOT_OPEN, targetClosedReason(r, round, at));
  const value = round.table[at].value;
  if (!contains(action.tile, value)) return fail(ChickenFootCodes.NO_MATCH, `${action.tile} has no ${value} to match ${action.target}, which is open on ${value}`);

  const hands = round.hands.slice();
  hands[seat] = hand.filter((t) => t !== action.tile);
  let yard = round.yard;
  if (r.lastTileCall.enabled && hands[seat].length === 1 && !action.announce) {
    // Not calling the last tile: draw the penalty at the end of the turn, while the yard allows.
    const penalty = Math.min(r.lastTileCall.penaltyDraws, Math.max(0, yard.length - r.yardReserve));
    hands[seat] = sortedHand([...hands[seat], ...yard.slice(0, penalty)]);
    yard = yard.slice(penalty);
  }
  const played: RoundInPlay = { ...round, hands, yard, table: attach(round.table, at, action.tile), passesInRow: 0 };
  if (hands[seat].length === 0) return ok(endRound(state, played, 'domino', seat));
  if (r.blockedDetection === 'immediate' && isBlocked(r, played)) return ok(endRound(state, played, 'blocked', null));
  return ok({ ...state, round: { ...played, turn: next(r, seat), drawsThisTurn: 0 } });
}

/** Why an existing node is not a target now, in the rules' words. */
function targetClosedReason(r: ChickenFootRuleset, round: RoundInPlay, at: number): string {
  const name = targetName(round.table, at);
  const foot = openFoot(round.table, r);
  if (foot >= 0 && at !== foot) return `the chicken foot on ${round.table[foot].tile} needs ${r.toesPerFoot} toes before anything else may be played, so ${name} is closed`;
  const node = round.table[at];
  if (boardPhase(round.table, r) === 'OPENING') return `the hub needs ${r.hubRequiredArms} arms before any arm is extended, so ${name} is closed`;
  if (at === 0) return `the hub is full (${r.hubCapacity} arms)`;
  if (node.kind === 'foot') return `the chicken foot on ${name} already has its ${r.toesPerFoot} toes`;
  return `${name} already has a tile attached`;
}

/** docs/rules/chicken-foot.md §10, §11: score the round, add to the totals, and schedule the next round or end the game. */
function endRound(state: ChickenFootState, round: RoundInPlay, end: RoundEnd, wentOut: Seat | null): ChickenFootState {
  const r = state.ruleset;
  const scores = round.hands.map((hand) => handValue(hand, r));
  if (wentOut !== null && isDouble(round.table[round.table.length - 1].tile)) scores[wentOut] += r.lastTileDoublePenalty;
  const totals = state.totals.map((t, seat) => t + scores[seat]);
  const rounds = [...state.rounds, finish(round, end, wentOut, scores)];
  const completed = r.gameEnd === 'allDoubles' ? round.startDouble === 0 : totals.some((t) => t >= (r.gameEnd as { targetScore: number }).targetScore);
  // A target-score game keeps going past 0-0 by starting again from the top double.
  const scheduledDouble = round.startDouble > 0 ? round.startDouble - 1 : r.setMax;
  return { ...state, round: null, rounds, totals, scheduledDouble, awaiting: completed ? null : 'shuffle', end: completed ? { reason: 'completed', resigned: null } : null };
}

function finish(round: RoundInPlay, end: RoundEnd, wentOut: Seat | null, scores: number[] | null): FinishedRound {
  const { turn: _turn, drawsThisTurn: _draws, passesInRow: _passes, ...kept } = round;
  const low = scores ? Math.min(...scores) : 0;
  return { ...kept, end, wentOut, scores, roundWinners: scores ? lowestSeats(scores, low) : [] };
}

const lowestSeats = (scores: readonly number[], low: number): Seat[] => scores.flatMap((s, seat) => (s === low ? [seat] : []));

/** The seat concedes the whole game; a round in play is abandoned unscored and revealed. */
export function resign(state: ChickenFootState, seat: Seat): Result<ChickenFootState> {
  if (state.end) return fail(Codes.GAME_OVER, 'the game is over');
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.ruleset.players) return fail(Codes.INVALID_INPUT, `there is no seat ${seat}`);
  const rounds = state.round ? [...state.rounds, finish(state.round, 'abandoned', null, null)] : state.rounds;
  return ok({ ...state, round: null, rounds, awaiting: null, end: { reason: 'resigned', resigned: seat } });
}

export type Decider = 'total' | TieBreak | 'shared';

/**
 * docs/rules/chicken-foot.md §11: the lowest total wins among the eligible seats; ties go through the tie-break
 * steps in order, and whoever is still tied shares the win. `sheet[round][seat]` are round scores.
 */
export function rankWinners(totals: readonly number[], sheet: readonly (readonly number[])[], tieBreak: readonly TieBreak[], eligible: readonly Seat[]): { winners: Seat[]; decidedBy: Decider } {
  const total = (seat: Seat) => totals[seat];
  const keys: Record<TieBreak, (seat: Seat) => number> = {
    // Smaller key is better: the most zero rounds, then the lowest round score above zero.
    zeroRounds: (seat) => -sheet.filter((row) => row[seat] === 0).length,
    lowestPositiveRound: (seat) => Math.min(Infinity, ...sheet.map((row) => row[seat]).filter((s) => s > 0)),
  };
  const best = (seats: readonly Seat[], key: (seat: Seat) => number) => {
    const low = Math.min(...seats.map(key));
    return seats.filter((seat) => key(seat) === low);
  };
  let tied = best(eligible, total);
  if (tied.length === 1) return { winners: tied, decidedBy: 'total' };
  for (const step of tieBreak) {
    tied = best(tied, keys[step]);
    if (tied.length === 1) return { winners: tied, decidedBy: step };
  }
  return { winners: tied, decidedBy: 'shared' };
}

/** Parses the JSON of an action (its shape, not its legality). */
export function parseAction(input: unknown): Result<ChickenFootAction> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail(Codes.INVALID_INPUT, 'an action must be a JSON object: { "type": "play", "tile": "5-8", "target": "hub" }, { "type": "draw" } or { "type": "pass" }');
  }
  const o = input as Record<string, unknown>;
  const allowed = o.type === 'play' ? ['type', 'tile', 'target', 'announce'] : ['type'];
  if (o.type !== 'play' && o.type !== 'draw' && o.type !== 'pass') return fail(Codes.INVALID_INPUT, `action type must be "play", "draw" or "pass", got ${JSON.stringify(o.type)}`);
  const extra = Object.keys(o).find((k) => !allowed.includes(k));
  if (extra) return fail(Codes.INVALID_INPUT, `a ${o.type} action has no "${extra}" field (fields: ${allowed.join(', ')})`);
  if (o.type !== 'play') return ok({ type: o.type });
  const tile = typeof o.tile === 'string' ? normalizeTile(o.tile) : null;
  if (!tile) return fail(Codes.INVALID_INPUT, `play.tile must be a tile such as "5-8" (pips 0 to 18), got ${JSON.stringify(o.tile)}`);
  const target = o.target === HUB ? HUB : typeof o.target === 'string' ? normalizeTile(o.target) : null;
  if (!target) return fail(Codes.INVALID_INPUT, `play.target must be "hub" or the tile on the table to attach to (e.g. "5-5"), got ${JSON.stringify(o.target)}`);
  if (o.announce !== undefined && typeof o.announce !== 'boolean') return fail(Codes.INVALID_INPUT, `play.announce must be true or false, got ${JSON.stringify(o.announce)}`);
  return ok(o.announce === true ? { type: 'play', tile, target, announce: true } : { type: 'play', tile, target });
}
