import { RefereeError } from '../core/errors.js';
import { familyOfControl } from '../core/rating/pool.js';
import type { TournamentConfig } from '../core/tournament/config.js';
import { checkRating } from '../core/tournament/entry.js';
import type { RatingTaken } from '../core/tournament/events.js';
import type { RatingService } from './ratings.js';
import { unwrap } from './seat-tokens.js';

/** The rating a participant is registered with, and the pool's event it was taken from (absent: typed, or unrated). */
export interface SeedingRating {
  rating: number;
  ratingFrom?: RatingTaken;
}

/**
 * A participant's rating for seeding (docs/ratings.md, "Tournaments"): the one the organizer typed,
 * always; otherwise a player's current rating in the tournament's pool (its kind and clock
 * family), rounded to a whole number, taken at registration and recorded with the pool's event
 * that set it, so the tournament's own events keep what its pairings used. A player with no
 * rated game in that pool, and an anonymous participant, is unrated (0): the pool's initial
 * rating is a prior, not a measure, and would seed the untried above players measured lower.
 * A player registering itself with its key types no rating (INVALID_INPUT).
 */
export async function seedingRating(
  ratings: RatingService | undefined,
  config: Pick<TournamentConfig, 'kind' | 'timeControl'>,
  player: string | null,
  typed: number | null | undefined,
  /** A player registering itself with its key: it types no rating. */
  byOwnKey = false,
): Promise<SeedingRating> {
  if (byOwnKey && typed !== undefined && typed !== null) throw new RefereeError('INVALID_INPUT', 'a player registering itself is seeded by its rating; only the organizer types one');
  if (typed !== undefined && typed !== null) return { rating: unwrap(checkRating(typed)) };
  const current = player && ratings ? await ratings.ratingIn(player, config.kind, familyOfControl(config.timeControl)) : null;
  if (!current) return { rating: 0 };
  const rating = checkRating(Math.max(0, Math.round(current.rating)));
  return rating.ok ? { rating: rating.value, ratingFrom: { pool: current.poolId, seq: current.seq } } : { rating: 0 };
}
