import type { Seat } from '../../../engines/kit/index.js';
import type { CheckerMove, Checkers, PlayedMove } from './board.js';
import type { ResignationLevel } from './ids.js';

/** Ruleset (docs/rules/backgammon.md §13), all fields filled by parseRuleset. */
export interface BackgammonRuleset {
  /** 0 = one money game; N ≥ 1 = a match to N points. */
  matchLength: number;
  crawford: boolean;
  holland: boolean;
  cubeEnabled: boolean;
  /** Largest cube value (a power of two); null = no limit beyond the Match ID's 2^15. */
  maxCube: number | null;
  jacoby: boolean;
  /** Beavers allowed per game (money only). */
  beavers: number;
  raccoons: boolean;
  /** Cube turns on tied opening throws (money only). */
  automaticDoubles: number;
  openingRoll: 'use-opening-dice' | 'reroll-both-dice';
  /** Roll for a player automatically when he may not double. */
  autoRoll: boolean;
  skipRollWhenClosedOut: boolean;
  backgammonIncludesBar: boolean;
  resignWhen: 'own-turn' | 'any-time';
  forbidRepeatLowerResignation: boolean;
  jacobyAppliesToResignations: boolean;
  /** The referee plays a play that is the only legal final position (docs/rules/backgammon.md §13). Written only when on, so rulesets stored before the option keep their form and hash. */
  autoPlayForced?: true;
}

export type BackgammonAction =
  | { type: 'roll' }
  | { type: 'play'; moves: CheckerMove[] }
  | { type: 'double' }
  | { type: 'take' }
  | { type: 'drop' }
  | { type: 'beaver' }
  | { type: 'raccoon' }
  | { type: 'resign'; level: ResignationLevel }
  | { type: 'acceptResignation' }
  | { type: 'rejectResignation' };

export type Phase = 'opening-roll' | 'awaiting-roll' | 'rolling' | 'double-offered' | 'awaiting-play' | 'match-over';

/** A double (or beaver, raccoon) awaiting an answer. */
export interface PendingDouble {
  /** Who turned the cube last in this exchange; the other seat answers. */
  by: Seat;
  /** Stake if accepted; a drop gives `by` half of it. */
  value: number;
  /** Who owns the cube if accepted (the taker, or the beaverer/raccooner who keeps it). */
  owner: Seat;
  stage: 'double' | 'beaver' | 'raccoon';
}

export type GameEnd = 'bear-off' | 'dropped-double' | 'resignation' | 'forfeit';

export interface GameResult {
  game: number;
  winner: Seat;
  /** Points scored: cube × level, Jacoby applied; a dropped double scores the cube before it. */
  points: number;
  level: ResignationLevel;
  endedBy: GameEnd;
  cube: number;
  crawford: boolean;
  scoreAfter: [number, number];
}

/** What the last turn did, kept for views and records. */
export interface TurnRecord {
  seat: Seat;
  dice: [number, number] | null;
  moves: PlayedMove[];
  /** No checker could move (or the roll was skipped against a closed board). */
  passed: boolean;
}

export interface BackgammonState {
  ruleset: BackgammonRuleset;
  /** Score before the current game (match or money points). */
  score: [number, number];
  games: GameResult[];
  gameNumber: number;
  crawfordGame: boolean;
  /** The Crawford game has been played (every later game is post-Crawford). */
  crawfordDone: boolean;
  /** Per seat, own numbering (see Checkers). */
  board: [Checkers, Checkers];
  phase: Phase;
  /** The player on roll (seat 0 until the opening roll decides). */
  turn: Seat;
  /** Dice of the current turn, as thrown (the opening roll: the starter's die first). */
  dice: [number, number] | null;
  cube: { value: number; owner: Seat | null };
  /** The cube was turned this turn, so the player on roll must now roll. */
  cubeTurned: boolean;
  pendingDouble: PendingDouble | null;
  resignation: { by: Seat; level: ResignationLevel } | null;
  /** The last offer rejected during the current turn (docs/rules/backgammon.md §10, forbidRepeatLowerResignation). */
  rejectedResignation: { by: Seat; level: ResignationLevel } | null;
  beaversUsed: number;
  automaticDoublesUsed: number;
  /** Rolls each seat has played this game (Holland rule). */
  rolls: [number, number];
  lastTurn: TurnRecord | null;
  matchWinner: Seat | null;
}
