/**
 * Ruleset input: a profile (docs/rules/cerke.md §0) whose flags can each be overridden per game, and the number
 * of seasons. Flag names follow the community's Rust reference (its Config), in camelCase.
 */
import { fail, ok, type Result } from '../../../engines/kit/index.js';

export type Profile = 'online' | 'strict';

export interface CerkeRuleset {
  profile: Profile;
  seasons: 1 | 2 | 4;
  /** true: stepping on Tam2 is the negative hand The Stepping (−5); false: it costs 5 × stake at once. */
  stepTamIsAHand: boolean;
  /** true: a piece stepping on Tam2 continues as from a square in Tam2's field. */
  tamItselfIsTamHue: boolean;
  /** Moving Tam2 on the turn right after the opponent moved it: forbidden, or the negative hand The Futile Move (−3). */
  movingTamImmediatelyAfterTamHasMoved: 'forbidden' | 'penalized';
  /** Tam2 ending its move where it started: allowed with no effect, or The Futile Move (−3). */
  tamMunMok: 'allowed' | 'penalized';
  /** true: stepping on Tam2 costs nothing when the move is then abandoned or fails the water test. */
  failureToCompleteTheMoveMeansExemptFromKut2Tam2: boolean;
  /** What the mover names before a stick-limited leg: its direction, or its exact destination (docs/rules/cerke.md §8.3). */
  whatToSayBeforeCastingSticks: 'direction' | 'exactDestination';
  /** false: Tam2's square may not be used as a via square (docs/rules/cerke.md §15.3). */
  allowKut2Tam2: boolean;
  /**
   * When a declarer ends the season after forming only negative hands this turn: false scores
   * just the negative hands (the Rust reference), true adds the value of the whole pile (docs/rules/cerke.md §12.3).
   */
  scorePileWithNegativeHand: boolean;
}

export const PROFILES: Record<Profile, Omit<CerkeRuleset, 'profile' | 'seasons'>> = {
  online: {
    stepTamIsAHand: false,
    tamItselfIsTamHue: true,
    movingTamImmediatelyAfterTamHasMoved: 'forbidden',
    tamMunMok: 'allowed',
    failureToCompleteTheMoveMeansExemptFromKut2Tam2: false,
    whatToSayBeforeCastingSticks: 'direction',
    allowKut2Tam2: true,
    scorePileWithNegativeHand: false,
  },
  strict: {
    stepTamIsAHand: true,
    tamItselfIsTamHue: false,
    movingTamImmediatelyAfterTamHasMoved: 'penalized',
    tamMunMok: 'penalized',
    failureToCompleteTheMoveMeansExemptFromKut2Tam2: false,
    whatToSayBeforeCastingSticks: 'exactDestination',
    allowKut2Tam2: true,
    scorePileWithNegativeHand: false,
  },
};

const CHOICES: Record<string, readonly unknown[]> = {
  profile: ['online', 'strict'],
  seasons: [1, 2, 4],
  stepTamIsAHand: [true, false],
  tamItselfIsTamHue: [true, false],
  movingTamImmediatelyAfterTamHasMoved: ['forbidden', 'penalized'],
  tamMunMok: ['allowed', 'penalized'],
  failureToCompleteTheMoveMeansExemptFromKut2Tam2: [true, false],
  whatToSayBeforeCastingSticks: ['direction', 'exactDestination'],
  allowKut2Tam2: [true, false],
  scorePileWithNegativeHand: [true, false],
};

const show = (v: unknown) => JSON.stringify(v) ?? String(v);

export function parseRuleset(input: unknown): Result<CerkeRuleset> {
  if (input === undefined) input = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('INVALID_INPUT', 'the ruleset must be a JSON object');
  const given = input as Record<string, unknown>;
  for (const [key, value] of Object.entries(given)) {
    // Own keys only: "constructor", "__proto__" or "toString" are unknown fields, not Object.prototype's.
    const allowed = Object.hasOwn(CHOICES, key) ? CHOICES[key] : undefined;
    if (!allowed) return fail('INVALID_INPUT', `unknown ruleset field "${key}"; allowed: ${Object.keys(CHOICES).join(', ')}`);
    if (!allowed.includes(value)) return fail('INVALID_INPUT', `ruleset field "${key}" must be one of ${allowed.map(show).join(', ')}, not ${show(value)}`);
  }
  const profile = (given.profile ?? 'online') as Profile;
  return ok({ profile, seasons: 4, ...PROFILES[profile], ...(given as Partial<CerkeRuleset>) });
}
