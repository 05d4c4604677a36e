/**
 * What each viewer may see (docs/rules/chicken-foot.md §14). While a round goes on, a seat sees only its own hand and
 * everyone's tile counts; the yard order and the shuffle stay hidden. Once a round is over, its
 * shuffle values, the order they produced, the hands as dealt and as left are public, so any
 * player can recompute the committed shuffle and check that no tile moved.
 */
import type { Outcome, Seat, Viewer } from '../../../engines/kit/index.js';
import { FIRST_DEALER_LABEL, legalActions, rankWinners, roundTargets, SHUFFLE_LABEL, type ChickenFootAction, type ChickenFootState, type FinishedRound, type RoundInPlay } from './game.js';
import { boardPhase, openFoot, targetName, treeView, type TreeView } from './table.js';
import { isDouble, type TileId } from './tiles.js';

export interface RoundView {
  number: number;
  dealer: Seat;
  startDouble: TileId;
  /** The seat that found (classic) or placed (malta-cross) the hub. */
  starter: Seat;
  searchDraws: number[];
  phase: 'OPENING' | 'OPEN' | 'FOOT_OPEN';
  hub: { tile: TileId; arms: number; requiredArms: number; capacity: number };
  /** The foot waiting for toes, and how many it has. */
  openFoot: { tile: TileId; toes: number; needed: number } | null;
  table: TreeView;
  /** Names usable as play targets now: "hub" or a table tile. */
  targets: string[];
  yardSize: number;
  /** Tiles that may still be drawn (yard size above the reserve). */
  drawable: number;
  handSizes: number[];
  turn: Seat;
  drawsThisTurn: number;
  /** Only for a seat viewer: its own hand. */
  hand?: TileId[];
  /** Only for the seat to act: what it may do now. */
  legalActions?: ChickenFootAction[];
}

export interface FinishedRoundView {
  number: number;
  dealer: Seat;
  startDouble: TileId;
  starter: Seat;
  searchDraws: number[];
  end: FinishedRound['end'];
  wentOut: Seat | null;
  scores: number[] | null;
  roundWinners: Seat[];
  /** The hidden chance values of the round and the order of the set they produced. */
  shuffle: number[];
  order: TileId[];
  dealtHands: TileId[][];
  handsLeft: TileId[][];
  yardLeft: TileId[];
  table: TreeView;
}

export interface ChickenFootView {
  status: 'dealing' | 'playing' | 'finished';
  viewer: Viewer;
  players: number;
  preset: string;
  firstDealer: Seat | null;
  /** The round in play, or the next one to be dealt. */
  roundNumber: number;
  round: RoundView | null;
  totals: number[];
  rounds: FinishedRoundView[];
  toAct: Seat[];
  outcome: Outcome | null;
}

function roundView(state: ChickenFootState, round: RoundInPlay, viewer: Viewer): RoundView {
  const r = state.ruleset;
  const open = roundTargets(r, round);
  const foot = openFoot(round.table, r);
  const view: RoundView = {
    number: round.number,
    dealer: round.dealer,
    startDouble: round.table[0].tile,
    starter: round.starter,
    searchDraws: round.searchDraws,
    phase: boardPhase(round.table, r),
    hub: { tile: round.table[0].tile, arms: round.table[0].children.length, requiredArms: r.hubRequiredArms, capacity: r.hubCapacity },
    openFoot: foot >= 0 ? { tile: round.table[foot].tile, toes: round.table[foot].children.length, needed: r.toesPerFoot } : null,
    table: treeView(round.table, open),
    targets: open.map((at) => targetName(round.table, at)),
    yardSize: round.yard.length,
    drawable: Math.max(0, round.yard.length - r.yardReserve),
    handSizes: round.hands.map((h) => h.length),
    turn: round.turn,
    drawsThisTurn: round.drawsThisTurn,
  };
  if (viewer !== 'spectator' && round.hands[viewer]) view.hand = round.hands[viewer];
  if (viewer === round.turn) view.legalActions = legalActions(state, viewer);
  return view;
}

function finishedRoundView(round: FinishedRound): FinishedRoundView {
  return {
    number: round.number,
    dealer: round.dealer,
    startDouble: round.table[0].tile,
    starter: round.starter,
    searchDraws: round.searchDraws,
    end: round.end,
    wentOut: round.wentOut,
    scores: round.scores,
    roundWinners: round.roundWinners,
    shuffle: round.shuffle,
    order: round.order,
    dealtHands: round.dealt,
    handsLeft: round.hands,
    yardLeft: round.yard,
    table: treeView(round.table, []),
  };
}

export function view(state: ChickenFootState, viewer: Viewer): ChickenFootView {
  return {
    status: state.end ? 'finished' : state.round ? 'playing' : 'dealing',
    viewer,
    players: state.ruleset.players,
    preset: state.ruleset.preset,
    firstDealer: state.firstDealer,
    roundNumber: state.round ? state.round.number : state.rounds.length + 1,
    round: state.round ? roundView(state, state.round, viewer) : null,
    totals: state.totals,
    rounds: state.rounds.map(finishedRoundView),
    toAct: state.round && !state.end ? [state.round.turn] : [],
    outcome: outcome(state),
  };
}

export const seatName = (seat: Seat) => `seat ${seat}`;

export function outcome(state: ChickenFootState): Outcome | null {
  if (!state.end) return null;
  const r = state.ruleset;
  const sheet = state.rounds.flatMap((round) => (round.scores ? [round.scores] : []));
  const resigned = state.end.resigned;
  const eligible = state.totals.map((_, seat) => seat).filter((seat) => seat !== resigned);
  const { winners, decidedBy } = rankWinners(state.totals, sheet, r.tieBreak, eligible);
  const ended: Outcome = {
    winners,
    points: state.totals.slice(),
    summary: '',
    details: { reason: state.end.reason, resigned, decidedBy, roundsPlayed: sheet.length, roundScores: sheet, totals: state.totals.slice() },
  };
  return { ...ended, summary: describe(ended, seatName) };
}

/** The final score (docs/rules/chicken-foot.md §11, §15): the fewest pips win, a tie broken or shared. */
export function describe(o: Outcome, who: (seat: Seat) => string): string {
  const { resigned, decidedBy } = o.details as { resigned: Seat | null; decidedBy: string };
  const names = o.winners.map(who).join(' and ');
  const how = decidedBy === 'total' ? '' : decidedBy === 'shared' ? ' (tied, sharing the win)' : ` (tie broken by ${decidedBy})`;
  const lead = resigned !== null ? `${who(resigned)} resigned; ` : '';
  return `${lead}${names} ${o.winners.length > 1 ? 'win' : 'wins'} with ${o.points[o.winners[0]]} points${how}`;
}

/** Hands of the round the state is in, or of the round that just ended (then public). */
function latestHands(state: ChickenFootState): TileId[][] {
  return state.round ? state.round.hands : (state.rounds[state.rounds.length - 1]?.hands ?? []);
}

/** What a viewer sees of a deal: its own hand and everyone's counts; never the order or values. */
export function chanceView(before: ChickenFootState, after: ChickenFootState, _values: number[], viewer: Viewer): unknown {
  const round = after.round ?? after.rounds[after.rounds.length - 1];
  if (before.awaiting !== 'shuffle' || !round) return { label: FIRST_DEALER_LABEL, firstDealer: after.firstDealer };
  const seen = {
    label: SHUFFLE_LABEL,
    round: round.number,
    dealer: round.dealer,
    startDouble: round.table[0].tile,
    starter: round.starter,
    searchDraws: round.searchDraws,
    handSizes: round.hands.map((h) => h.length),
    yardSize: round.yard.length,
  };
  return viewer === 'spectator' ? seen : { ...seen, hand: latestHands(after)[viewer] ?? [] };
}

/** A draw shows the drawer its tile and everyone else only that a tile was drawn. */
export function actionView(before: ChickenFootState, after: ChickenFootState, seat: Seat, action: ChickenFootAction, viewer: Viewer): unknown {
  const previous = latestHands(before)[seat] ?? [];
  const gained = (latestHands(after)[seat] ?? []).filter((t) => !previous.includes(t));
  const ended = after.rounds.length > before.rounds.length ? after.rounds[after.rounds.length - 1] : null;
  const roundEnded = ended ? { number: ended.number, end: ended.end, wentOut: ended.wentOut, scores: ended.scores } : undefined;
  const own = viewer === seat;
  const base =
    action.type === 'draw'
      ? own
        ? { seat, type: 'draw', tile: gained[0] }
        : { seat, type: 'draw' }
      : action.type === 'pass'
        ? { seat, type: 'pass' }
        : {
            seat,
            type: 'play',
            tile: action.tile,
            target: action.target,
            // The "chicken foot" announcement the referee makes for the player (docs/rules/chicken-foot.md §12.2).
            chickenFoot: isDouble(action.tile),
            ...(gained.length > 0 ? (own || ended ? { penaltyTiles: gained } : { penaltyDraws: gained.length }) : {}),
          };
  return roundEnded ? { ...base, roundEnded } : base;
}
