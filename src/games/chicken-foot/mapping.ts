import type { ChickenFootAction, ChickenFootView } from '../../engines/chicken-foot/index.js';
import type { LiveGame } from '../../referee/application/live-games.js';
import type { ChickenFootLegalActions } from './dto/answers.js';
import type { ChickenFootTable } from './dto/table.js';

/** The engine's view as the typed table (the view already holds only what this viewer may see). */
export function toTable(game: LiveGame, view: ChickenFootView): ChickenFootTable {
  const round = view.round;
  return {
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
