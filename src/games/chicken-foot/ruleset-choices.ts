/** Chicken Foot's ruleset options whose values are words: GraphQL names on the left, the engine's own values on the right. */
import type { ChickenFootRuleset, Preset } from './engine/index.js';

export const ChickenFootPreset = {
  CLASSIC: 'classic',
  MALTA_CROSS: 'malta-cross',
} as const satisfies Record<string, Preset>;

export const ChickenFootDrawPolicy = {
  ONE: 'one',
  UNTIL_PLAYABLE: 'untilPlayable',
} as const satisfies Record<string, ChickenFootRuleset['drawPolicy']>;

/** The spellings JSON rulesets may use for every option whose values are words (see src/games/ruleset-spellings.ts). */
export const CHICKEN_FOOT_CHOICES = {
  preset: Object.values(ChickenFootPreset),
  drawPolicy: Object.values(ChickenFootDrawPolicy),
  startDoubleSource: ['setAside', 'fromHand'],
  missingStartDouble: ['drawUntilFound', 'burn'],
  firstToAct: ['finder', 'nextAfterPlacer', 'placer'],
  blockedDetection: ['immediate', 'passCycle'],
  tieBreak: ['zeroRounds', 'lowestPositiveRound'],
} as const satisfies { [K in keyof ChickenFootRuleset]?: readonly (ChickenFootRuleset[K] extends readonly (infer E)[] ? E : ChickenFootRuleset[K])[] };
