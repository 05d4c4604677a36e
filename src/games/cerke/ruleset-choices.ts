/** Cerke's ruleset options whose values are words, in the engine's spelling: the spellings JSON rulesets may use (see src/games/ruleset-spellings.ts). */
export const CERKE_CHOICES = {
  profile: ['online', 'strict'],
  movingTamImmediatelyAfterTamHasMoved: ['forbidden', 'penalized'],
  tamMunMok: ['allowed', 'penalized'],
  whatToSayBeforeCastingSticks: ['direction', 'exactDestination'],
} as const;
