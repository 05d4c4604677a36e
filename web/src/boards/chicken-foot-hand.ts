/**
 * Playing a Chicken Foot tile by hand: click a tile in the hand, then one of the open ends it can
 * go on (highlighted on the table). The page keeps the tile picked up ("tile <id>") between the
 * two clicks; an end ("end <target>", the hub or an open tile) sends the play it makes.
 */
import type { ChickenFootAction, TileId } from '../../../src/games/chicken-foot/engine/index.js';
import type { Picked } from './board.js';

/** For each playable tile, its targets ("hub" or a tile on the table) and the legal action that plays it there. */
export function playsByTile(actions: readonly ChickenFootAction[]): Map<TileId, Map<string, number>> {
  const byTile = new Map<TileId, Map<string, number>>();
  actions.forEach((action, index) => {
    if (action.type !== 'play') return;
    const targets = byTile.get(action.tile) ?? new Map<string, number>();
    targets.set(action.target, index);
    byTile.set(action.tile, targets);
  });
  return byTile;
}

/** The tile picked up, if any. */
export const pickedTile = (picks: readonly string[]): TileId | null => (picks[0]?.startsWith('tile ') ? (picks[0].slice(5) as TileId) : null);

/** What a click does: pick up a playable tile (or put it back), or play the one picked up on an end it fits. */
export function pickTile(actions: readonly ChickenFootAction[], picks: readonly string[], token: string): Picked {
  const plays = playsByTile(actions);
  const held = pickedTile(picks);
  if (token.startsWith('end ') && held !== null) {
    const index = plays.get(held)?.get(token.slice(4));
    return index === undefined ? picks : { action: index };
  }
  if (token.startsWith('tile ')) {
    const tile = token.slice(5) as TileId;
    return tile === held || !plays.has(tile) ? [] : [token];
  }
  return picks;
}
