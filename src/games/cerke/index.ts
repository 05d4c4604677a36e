import { cerkeEngine } from './engine/index.js';
import type { GamePackage } from '../game-package.js';
import { CERKE_CHOICES } from './ruleset-choices.js';

/** Cerke (机戦), in cerke_online's rules or the strict standardized ones. */
export const cerke: GamePackage = {
  engine: cerkeEngine,
  rulesetChoices: CERKE_CHOICES,
  rejectionCodes: {},
  board: 'web/src/boards/cerke.ts',
  exampleBot: 'clients/typescript/examples/cerke.ts',
  api: async () => (await import('./api.js')).cerkeApi,
};
