import { backgammonEngine } from './engine/index.js';
import type { GamePackage } from '../game-package.js';
import { BACKGAMMON_CHOICES } from './ruleset-choices.js';

/** Backgammon: money games and matches, with the doubling cube. */
export const backgammon: GamePackage = {
  engine: backgammonEngine,
  rulesetChoices: BACKGAMMON_CHOICES,
  rejectionCodes: {},
  board: 'web/src/boards/backgammon.ts',
  exampleBot: 'clients/typescript/examples/backgammon.ts',
  api: async () => (await import('./api.js')).backgammonApi,
};
