import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { type Connection, connectionOf, pageOf } from '../api/connection.js';
import type { PlayerRating, RatingChangeRow, RatingPage, ShownRating } from '../referee/index.js';

/** A time-control family (docs/ratings.md, "Pools and families"). */
export enum RatingFamilyEnum {
  LIVE = 'live',
  CORRESPONDENCE = 'correspondence',
  UNTIMED = 'untimed',
}
registerEnumType(RatingFamilyEnum, {
  name: 'RatingFamily',
  description: 'The time-control family a rating is kept for (docs/ratings.md)',
  valuesMap: { LIVE: { description: 'A Fischer clock' }, CORRESPONDENCE: { description: 'Days per move' }, UNTIMED: { description: 'No clock' } },
});

@ObjectType({ description: 'A rating as one game left it (six decimals, as stored)' })
export class RatingValue {
  @Field(() => Float, { description: 'Glicko-2 rating; Weng-Lin μ (Chicken Foot), on the same scale' }) rating: number;
  @Field(() => Float, { description: 'Rating deviation; Weng-Lin σ' }) rd: number;
  @Field(() => Float, { nullable: true, description: 'Glicko-2 volatility; null for Weng-Lin' }) volatility: number | null;
  @Field(() => Int, { description: 'Rated games played in the pool' }) games: number;
}

@ObjectType({ description: "One rated game's change to one player's rating" })
export class RatingChange {
  @Field(() => ID, { description: 'The rated game' }) gameId: string;
  @Field(() => ID, { description: 'The player' }) playerId: string;
  @Field({ description: 'The game kind' }) kind: string;
  @Field(() => RatingFamilyEnum, { description: 'The time-control family' }) family: RatingFamilyEnum;
  @Field(() => Int, { description: "The player's seat" }) seat: number;
  @Field(() => Int, { description: 'Its place: 1 the best; seats that tie share one' }) place: number;
  @Field(() => RatingValue, { description: 'The rating before the game' }) before: RatingValue;
  @Field(() => RatingValue, { description: 'The rating after it' }) after: RatingValue;
  @Field(() => Float, { description: 'after.rating − before.rating' }) change: number;
  @Field(() => Int, { description: "The update's seq in its pool's stream (ratings:<kind>:<family>)" }) seq: number;
  @Field({ description: 'When it was rated' }) ratedAt: Date;
}

@ObjectType('PlayerRating', { description: "A player's rating in one game kind and time-control family" })
export class PlayerRatingModel {
  @Field(() => ID, { description: 'The player' }) playerId: string;
  @Field(() => String, { nullable: true, description: "The player's name" }) name: string | null;
  @Field({ description: 'The game kind' }) kind: string;
  @Field(() => RatingFamilyEnum, { description: 'The time-control family' }) family: RatingFamilyEnum;
  @Field(() => Float, { description: 'Glicko-2 rating; Weng-Lin μ (Chicken Foot)' }) rating: number;
  @Field(() => Float, { description: 'Rating deviation; Weng-Lin σ' }) rd: number;
  @Field(() => Float, { nullable: true, description: 'Glicko-2 volatility; null for Weng-Lin' }) volatility: number | null;
  @Field({ description: 'Provisional while the deviation is above 110 (docs/ratings.md)' }) provisional: boolean;
  @Field(() => Int, { description: 'Rated games played' }) games: number;
  @Field(() => Date, { nullable: true, description: 'When its last rated game ended' }) lastPlayedAt: Date | null;
}

export const RatingChangeConnection = connectionOf(RatingChange, 'RatingChange', {
  connection: "A page of a player's rating history, newest first (Relay cursor connection)",
  edge: 'A rating change with its cursor',
  node: 'The change',
  items: 'changes',
});
export type RatingChangeConnection = InstanceType<typeof RatingChangeConnection>;

export const RatingConnection = connectionOf(PlayerRatingModel, 'Rating', {
  connection: 'A leaderboard page: the highest rating first (Relay cursor connection)',
  edge: 'A rating of a leaderboard with its cursor',
  node: 'The rating',
  items: 'ratings',
});
export type RatingConnection = InstanceType<typeof RatingConnection>;

const value = (r: PlayerRating): RatingValue => ({ rating: r.rating, rd: r.rd, volatility: r.volatility, games: r.games });

export const ratingModel = (r: ShownRating): PlayerRatingModel => ({
  playerId: r.playerId,
  name: r.name,
  kind: r.kind,
  family: r.family as RatingFamilyEnum,
  rating: r.rating,
  rd: r.rd,
  volatility: r.volatility,
  provisional: r.provisional,
  games: r.games,
  lastPlayedAt: r.lastAt ? new Date(r.lastAt) : null,
});

export function changeModel(c: RatingChangeRow): RatingChange {
  const [, kind, family] = c.poolId.split(':');
  const change = Math.round((c.after.rating - c.before.rating) * 1e6) / 1e6;
  return {
    gameId: c.gameId,
    playerId: c.playerId,
    kind,
    family: family as RatingFamilyEnum,
    seat: c.seat,
    place: c.place,
    before: value(c.before),
    after: value(c.after),
    change,
    seq: c.seq,
    ratedAt: c.createdAt,
  };
}

/** A page of the rating service as a connection of `model`s. */
export const connection = <T, M>(page: RatingPage<T>, model: (t: T) => M): Connection<M> =>
  pageOf(
    page.items.map(({ node, cursor }) => ({ cursor, node: model(node) })),
    { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
  );
