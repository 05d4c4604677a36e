/** What players and spectators see (backgammon has no hidden information) and the gnubg IDs of a state. */
import type { Seat } from '../../../engines/kit/index.js';
import { BAR, OFF, pipCount, playNotation, type Checkers, type PlayedMove } from './board.js';
import { cubeLimit, finalScore, mayDouble, toAct } from './game.js';
import { encodeMatchId, encodePositionId, type GnubgGameState, type MatchIdFields } from './ids.js';
import type { BackgammonState, GameResult, PendingDouble } from './types.js';

export interface SideView {
  /** points[i] = checkers on this player's own point i + 1. */
  points: number[];
  bar: number;
  off: number;
  pipCount: number;
}

export interface BackgammonView {
  matchLength: number;
  /** Score before the current game; `finalScore` once the match is over. */
  score: [number, number];
  gameNumber: number;
  crawfordGame: boolean;
  postCrawford: boolean;
  phase: BackgammonState['phase'];
  playerOnRoll: Seat;
  toAct: Seat[];
  dice: [number, number] | null;
  cube: { value: number; owner: Seat | null; max: number; mayDouble: boolean };
  pendingDouble: PendingDouble | null;
  resignation: BackgammonState['resignation'];
  board: {
    /** Per seat, in that seat's own numbering (it moves from 24 to 1). */
    sides: [SideView, SideView];
    /** White's numbering: > 0 White checkers on that point, < 0 Black checkers. */
    absolute: number[];
  };
  positionId: string;
  matchId: string;
  /** `PositionID:MatchID`, as gnubg prints it. */
  gnubgId: string;
  lastTurn: { seat: Seat; dice: [number, number] | null; moves: PlayedMove[]; notation: string; passed: boolean } | null;
  games: GameResult[];
  matchWinner: Seat | null;
}

function sideView(side: Checkers): SideView {
  return { points: side.slice(0, 24), bar: side[BAR], off: side[OFF], pipCount: pipCount(side) };
}

/** The Position ID oriented to the player on roll (docs/rules/backgammon.md §2.2). */
export function statePositionId(s: BackgammonState): string {
  return encodePositionId([s.board[1 - s.turn], s.board[s.turn]]);
}

const END_STATE: Record<GameResult['endedBy'], GnubgGameState> = {
  'bear-off': 'over',
  resignation: 'resigned',
  forfeit: 'resigned',
  'dropped-double': 'dropped',
};

export function matchIdFields(s: BackgammonState): MatchIdFields {
  const last = s.games[s.games.length - 1];
  const answerer = s.resignation ? 1 - s.resignation.by : s.pendingDouble ? 1 - s.pendingDouble.by : s.turn;
  return {
    cubeValue: s.cube.value,
    cubeOwner: s.cube.owner,
    playerOnRoll: s.turn,
    crawford: s.crawfordGame,
    gameState: s.phase === 'match-over' ? END_STATE[last.endedBy] : 'playing',
    turn: answerer,
    doubleOffered: s.phase === 'double-offered',
    resignationOffered: s.resignation?.level ?? null,
    dice: s.dice && s.phase === 'awaiting-play' ? [Math.max(...s.dice), Math.min(...s.dice)] : null,
    matchLength: s.ruleset.matchLength,
    score: s.score,
    jacoby: s.ruleset.matchLength === 0 && s.ruleset.jacoby,
  };
}

export function viewState(s: BackgammonState): BackgammonView {
  const positionId = statePositionId(s);
  const matchId = encodeMatchId(matchIdFields(s));
  const absolute = new Array<number>(24).fill(0);
  for (let i = 0; i < 24; i++) absolute[i] = s.board[0][i] - s.board[1][23 - i];
  return {
    matchLength: s.ruleset.matchLength,
    score: finalScore(s),
    gameNumber: s.gameNumber,
    crawfordGame: s.crawfordGame,
    postCrawford: s.crawfordDone && !s.crawfordGame,
    phase: s.phase,
    playerOnRoll: s.turn,
    toAct: toAct(s),
    dice: s.dice,
    cube: { value: s.cube.value, owner: s.cube.owner, max: cubeLimit(s.ruleset), mayDouble: mayDouble(s, s.turn) },
    pendingDouble: s.pendingDouble,
    resignation: s.resignation,
    board: { sides: [sideView(s.board[0]), sideView(s.board[1])], absolute },
    positionId,
    matchId,
    gnubgId: `${positionId}:${matchId}`,
    lastTurn: s.lastTurn && { ...s.lastTurn, notation: playNotation(s.lastTurn.moves) },
    games: s.games,
    matchWinner: s.matchWinner,
  };
}
