import { ChickenFootCodes, chickenFootEngine } from './engine/index.js';
import type { GamePackage } from '../game-package.js';
import { CHICKEN_FOOT_CHOICES } from './ruleset-choices.js';

/** Chicken Foot dominoes: classic or Malta Cross, with organizer deals. */
export const chickenFoot: GamePackage = {
  engine: chickenFootEngine,
  rulesetChoices: CHICKEN_FOOT_CHOICES,
  rejectionCodes: {
    [ChickenFootCodes.ROUND_OVER]: 'Chicken Foot: no round is in play (the next one is being dealt).',
    [ChickenFootCodes.TILE_NOT_IN_HAND]: 'Chicken Foot: the seat does not hold this tile.',
    [ChickenFootCodes.TARGET_NOT_OPEN]: 'Chicken Foot: the target end is not open for play.',
    [ChickenFootCodes.NO_MATCH]: 'Chicken Foot: the tile does not match the open end.',
    [ChickenFootCodes.MUST_PLAY]: 'Chicken Foot: a legal play exists, so the seat must play.',
    [ChickenFootCodes.MUST_DRAW]: 'Chicken Foot: no legal play and the boneyard can be drawn from, so the seat must draw.',
    [ChickenFootCodes.CANNOT_DRAW]: 'Chicken Foot: the boneyard cannot be drawn from now (empty down to its reserve, or already drawn this turn).',
    [ChickenFootCodes.MUST_PLAY_DRAWN]: 'Chicken Foot: the tile just drawn fits, so it must be played.',
  },
  board: 'web/src/boards/chicken-foot.ts',
  exampleBot: 'clients/typescript/examples/chicken-foot.ts',
  api: async () => (await import('./api.js')).chickenFootApi,
};
