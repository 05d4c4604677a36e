import type { ChickenFootAction, ChickenFootView, RoundEnd } from './engine/index.js';
import { type GameAnswer, type GameSnapshot } from '../../referee/index.js';
import { shownIn } from '../typed-game.js';
import type { ChickenFootActionTaken, ChickenFootLegalActions } from './dto/answers.js';
import type { ChickenFootTable } from './dto/table.js';

/** The engine's view as the typed table (the view already holds only what this viewer may see). */
export function toTable(game: GameSnapshot, answer: GameAnswer): ChickenFootTable {
  const view = answer.view as ChickenFootView;
  const round = view.round;
  return {
    ...shownIn(answer),
    gameId: game.gameId,
    version: game.version,
    status: view.status,
    seat: view.viewer === 'spectator' ? null : view.viewer,
    hand: round?.hand ?? null,
    players: view.players,
    preset: view.preset as ChickenFootTable['preset'],
    firstDealer: view.firstDealer,
    roundNumber: view.roundNumber,
    turn: view.toAct[0] ?? null,
    toAct: answer.toAct,
    round: round && {
      number: round.number,
      dealer: round.dealer,
      startDouble: round.startDouble,
      starter: round.starter,
      searchDraws: round.searchDraws,
      phase: round.phase,
      hub: round.hub,
      openFoot: round.openFoot,
      table: round.table,
      targets: round.targets,
      handSizes: round.handSizes,
      yardSize: round.yardSize,
      drawable: round.drawable,
      drawsThisTurn: round.drawsThisTurn,
    },
    totals: view.totals,
    finishedRounds: view.rounds,
    result: view.outcome,
  };
}

export function toLegalActions(seat: number | null, actions: ChickenFootAction[]): ChickenFootLegalActions {
  return {
    seat,
    plays: actions.flatMap((a) => (a.type === 'play' ? [{ tile: a.tile, target: a.target, announce: a.announce === true }] : [])),
    canDraw: actions.some((a) => a.type === 'draw'),
    canPass: actions.some((a) => a.type === 'pass'),
  };
}

/** What an ActionTaken event serves (see the engine's actionView; a finished game serves the action as sent). */
type ServedAction = ChickenFootAction & {
  chickenFoot?: boolean;
  penaltyTiles?: string[];
  penaltyDraws?: number;
  roundEnded?: { number: number; end: RoundEnd; wentOut: number | null; scores: number[] | null };
};

export function toActionTaken(served: ServedAction): ChickenFootActionTaken {
  const play = served.type === 'play' ? served : null;
  // A play's tile, or the tile drawn where the viewer is shown it.
  const tile = (served as { tile?: unknown }).tile;
  return {
    type: served.type,
    tile: typeof tile === 'string' ? tile : null,
    target: play?.target ?? null,
    chickenFoot: served.chickenFoot ?? null,
    announce: play?.announce ?? null,
    penaltyTiles: served.penaltyTiles ?? null,
    penaltyDraws: served.penaltyDraws ?? null,
    roundEnded: served.roundEnded ?? null,
  };
}
