/**
 * The contract every game engine implements. Engines are pure: no I/O, no clock, no
 * random number generator, no crypto. The referee core owns randomness and the event log; an engine only
 * says what it needs (a ChanceRequest) and folds in what the referee drew.
 *
 * States must be plain JSON-serialisable data and are treated as immutable: `apply` and
 * `resolveChance` return a new state and never mutate their input (the referee keeps the
 * previous state to answer rejections and races).
 */
import type { Result } from './result.js';

/** A seat is its 0-based index in the game's seat list. */
export type Seat = number;
/** Who is looking: a seat, or a spectator (public information only). */
export type Viewer = Seat | 'spectator';

/**
 * A request for random values. Each entry of `ranges` asks for one integer drawn uniformly from
 * [0, n). The referee answers with exactly `ranges.length` values, in order.
 *   dice:        { label: 'DiceRolled', ranges: [6, 6] }          (value + 1 = pips)
 *   shuffle:     { label: 'TilesShuffled', ranges: [28, 27, ..., 2] } (Fisher-Yates, see shuffle.ts)
 *   stick cast:  { label: 'SticksCast', ranges: [2, 2, 2, 2, 2] }
 * `hidden: true` marks an outcome that seats must not see as drawn (a shuffled boneyard); the
 * referee then serves the event to each viewer through `Engine.chanceView`.
 */
export interface ChanceRequest {
  label: string;
  ranges: number[];
  hidden?: boolean;
}

/** How a finished game ended. `points` are the game's own scores (match points, round totals...). */
export interface Outcome {
  /** Seats that won (several on a tie; empty when nobody won, e.g. an abandoned game). */
  winners: Seat[];
  /** Final score per seat, in the game's own unit. */
  points: number[];
  /** One line a person can read: "White wins a gammon (2 points)". */
  summary: string;
  /** Game-specific detail (rankings, per-season results...), JSON. */
  details?: unknown;
}

/**
 * One step of a replay: a seat's action, the values drawn for a chance request, or a seat conceding
 * the whole game. For records only (replay ignores them): `auto` marks an action the referee played
 * for a seat after its timeout, `timedOut` a concession that was a timeout.
 */
export type ReplayEntry<A = unknown> = { kind: 'action'; seat: Seat; action: A; auto?: true } | { kind: 'chance'; values: number[] } | { kind: 'resign'; seat: Seat; timedOut?: true };

/** A game record in the game's community format, parsed into something the referee can replay. */
export interface ImportedRecord<R = unknown, A = unknown> {
  /** Ruleset input (passed through `parseRuleset`). */
  ruleset: unknown;
  /** Seat names as the record gives them, if any. */
  seatNames?: string[];
  /** Every action and chance outcome in order; `parsedRuleset` unused by the referee. */
  entries: ReplayEntry<A>[];
  /** Labels for entries, used to name the first illegal one ("game 2, move 14"). Same length as entries. */
  labels?: string[];
  /** Unused by the referee; lets an importer hand a parsed ruleset to its own tests. */
  parsedRuleset?: R;
}

/** Reading input: rulesets and actions as JSON, validated. */
export interface EngineParsing<R = unknown, A = unknown> {
  /** Validate ruleset input and fill defaults. Errors use code INVALID_INPUT and name the broken limit. */
  parseRuleset(input: unknown): Result<R>;
  /** Number of seats this ruleset needs. */
  seatCount(ruleset: R): number;
  /** Validate the JSON shape of an action (not its legality). Errors use code INVALID_INPUT. */
  parseAction(input: unknown): Result<A>;
}

/** What a replay step needs: chance and moves, with no view of the game. */
export interface EngineReplay<S = unknown, A = unknown> {
  /** What randomness the state waits for, if any. While one is pending no seat may act. */
  pendingChance(state: S): ChanceRequest | null;
  /** Fold in drawn values (each within its range). Errors use INVALID_INPUT (imported values out of range). */
  resolveChance(state: S, values: number[]): Result<S>;
  /**
   * Apply a seat's action (legality is checked here: one fused step, no separate validate). Errors:
   * NOT_YOUR_TURN, ILLEGAL_MOVE, GAME_OVER, NO_PENDING_DECISION, or another stable upper-case code
   * with a message that explains the rule; the message must not reveal hidden information.
   */
  apply(state: S, seat: Seat, action: A): Result<S>;
  /** The seat concedes the whole game (match, all rounds). */
  resign(state: S, seat: Seat): Result<S>;
}

/** The rules: the start, whose turn it is, what is legal, and how it ends. */
export interface EngineRules<R = unknown, S = unknown, A = unknown> extends EngineReplay<S, A> {
  /** The state before anything happened; it usually has a pending chance (deal, opening roll). */
  init(ruleset: R): S;
  /** Seats that may act now (empty while a chance is pending or the game is over). */
  toAct(state: S): Seat[];
  /** Every legal action for the seat now (empty when it may not act). */
  legalActions(state: S, seat: Seat): A[];
  /** Null while the game goes on. */
  outcome(state: S): Outcome | null;
  /**
   * The rule an outcome breaks when these rules cannot reach it (a draw where the game has none,
   * points that do not add up), citing the game's rules; null when they can. Outcomes entered by
   * hand, as a tournament's over-the-board results are, are checked by it. Default: any.
   */
  unreachable?(ruleset: R, outcome: Pick<Outcome, 'winners' | 'points'>): string | null;
  /**
   * The one action the rules leave the seat to act (resigning aside), when its ruleset has the
   * referee play forced moves (`autoPlayForced`); null otherwise. The referee plays it at once, as its own event.
   */
  forcedAction?(state: S): { seat: Seat; action: A } | null;
}

/** What each viewer may see: public information for spectators, a seat's own secrets for it. */
export interface EngineViews<S = unknown, A = unknown> {
  /** What the viewer may see, as JSON. Spectators see public information only. */
  view(state: S, viewer: Viewer): unknown;
  /**
   * What a viewer may see of an action event (default: the action itself). `after` is the
   * state the action produced, so e.g. a draw can show the drawer the tile drawn.
   */
  actionView?(before: S, after: S, seat: Seat, action: A, viewer: Viewer): unknown;
  /**
   * What a viewer may see of a hidden chance outcome (only called for `hidden` requests; the
   * referee adds the outcome's commitment). E.g. the deal shows a seat its own hand.
   */
  chanceView?(before: S, after: S, values: number[], viewer: Viewer): unknown;
}

/** The game's community record format, if it has one. */
export interface EngineRecords<R = unknown, A = unknown> {
  /**
   * Export a game as its community record format (backgammon .mat, Cerke text, Chicken Foot JSON).
   * `ending`: how the game ended in words ("Bob wins on time"), written where the format has a place for it.
   */
  exportRecord?(ruleset: R, entries: ReplayEntry<A>[], seatNames: string[], ending?: string): string;
  /** Parse a community record. Errors use INVALID_INPUT and say where the text is wrong. */
  importRecord?(text: string): Result<ImportedRecord<R, A>>;
  /** MIME type of exported records. */
  readonly recordContentType?: string;
}

/**
 * How the referee's clocks meet the game; all optional. By default every seat in `toAct` is
 * waited for, and a seat that runs out of time concedes the whole game (as `resign`).
 */
export interface EngineClock<R = unknown, S = unknown, A = unknown> {
  /** Seats whose decision the game waits for (their clocks run): not a seat that may act but need not (a bystander who may offer to resign). */
  awaited?(state: S): Seat[];
  /** What a seat that runs out of time gets under this ruleset: concede the game, or auto-play until the round ends (needs `autoAction` and `roundOf`). */
  onTimeout?(ruleset: R): 'concede' | 'autoPlay';
  /** The action the referee plays for an auto-played seat that is to act, by the game's fixed rule; null if it has none. */
  autoAction?(state: S, seat: Seat): A | null;
  /** The round in play, or the one to be dealt next: auto-play ends when it changes. */
  roundOf?(state: S): number;
}

/**
 * The game's own words for its seats and for the endings its rules reach, so an outcome can be
 * told with the players' names in place of the seats' (the referee's outcome-words.ts).
 */
export interface EngineWords {
  /** A seat as the game calls it: "White", "IA", "seat 2". Default: "seat N". */
  seatLabel?(seat: Seat): string;
  /**
   * An outcome the rules reached, each seat called `who(seat)`. With `who = seatLabel` it is the
   * outcome's own `summary`, word for word (the summary is in the game's log: it never changes).
   */
  describe?(outcome: Outcome, who: (seat: Seat) => string): string;
}

/** A game engine: its facets under one stable kind. */
export interface Engine<R = unknown, S = unknown, A = unknown> extends EngineParsing<R, A>, EngineRules<R, S, A>, EngineViews<S, A>, EngineRecords<R, A>, EngineClock<R, S, A>, EngineWords {
  /** Stable identifier used in URLs and the database: 'backgammon', 'chicken-foot', 'cerke'. */
  readonly kind: string;
  /** Whether an outcome's `points` are better when higher (the default: points won) or lower (Chicken Foot's pips); tournaments rank game points by it. */
  readonly pointsOrder?: 'higher' | 'lower';
}
