/** Backgammon's ruleset options whose values are words: GraphQL names on the left, the engine's own values on the right. */
import type { BackgammonRuleset } from './engine/index.js';

export const BackgammonOpeningRoll = {
  USE_OPENING_DICE: 'use-opening-dice',
  REROLL_BOTH_DICE: 'reroll-both-dice',
} as const satisfies Record<string, BackgammonRuleset['openingRoll']>;

export const BackgammonResignWhen = {
  OWN_TURN: 'own-turn',
  ANY_TIME: 'any-time',
} as const satisfies Record<string, BackgammonRuleset['resignWhen']>;

/** The spellings JSON rulesets may use for them (see src/games/ruleset-spellings.ts). */
export const BACKGAMMON_CHOICES = {
  openingRoll: Object.values(BackgammonOpeningRoll),
  resignWhen: Object.values(BackgammonResignWhen),
} as const;
