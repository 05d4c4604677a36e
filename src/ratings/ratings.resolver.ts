import { Args, ID, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Game } from '../api/models.js';
import type { GameModel } from '../api/mapping.js';
import { Needs } from '../api/scopes.js';
import { Player, playerModel } from '../players/models.js';
import { AccountService, RatingService, RefereeError } from '../referee/index.js';
import { changeModel, connection, PlayerRatingModel, RatingChange, RatingChangeConnection, RatingConnection, RatingFamilyEnum, ratingModel } from './models.js';

const FIRST = 'At most this many (1 to 100; default 20)';
const AFTER = 'A cursor a page answered: the page after it';

/** Ratings (docs/ratings.md): a player's, the leaderboards, a rated game's changes. Reads only. */
@Resolver(() => Player)
export class PlayerRatingsResolver {
  constructor(
    private readonly service: RatingService,
    private readonly accounts: AccountService,
  ) {}

  @Needs('read')
  @Query(() => Player, { description: 'A player by id (its ratings with it)' })
  async player(@Args('id', { type: () => ID, description: "The player's id (pl-...)" }) id: string): Promise<Player> {
    const account = /^pl-[A-Za-z0-9_-]{1,64}$/.test(id) ? await this.accounts.account(id).catch(() => null) : null;
    if (account?.kind !== 'player') throw new RefereeError('NOT_FOUND', `no player with id ${id}`);
    return playerModel(account);
  }

  @ResolveField(() => [PlayerRatingModel], { description: "The player's ratings, one per game kind and time-control family it played rated games in" })
  async ratings(@Parent() player: Player): Promise<PlayerRatingModel[]> {
    return (await this.service.ratingsOf(player.id)).map(ratingModel);
  }

  @Needs('read')
  @Query(() => RatingConnection, { description: "A leaderboard: one game kind's ratings in one time-control family, the highest first" })
  async leaderboard(
    @Args('kind', { description: 'The game kind' }) kind: string,
    @Args('family', { type: () => RatingFamilyEnum, description: 'The time-control family' }) family: RatingFamilyEnum,
    @Args('first', { type: () => Int, nullable: true, description: FIRST }) first: number | null,
    @Args('after', { type: () => String, nullable: true, description: AFTER }) after: string | null,
  ): Promise<RatingConnection> {
    return connection(await this.service.leaderboard(kind, family, { first, after }), ratingModel);
  }
}

@Resolver(() => PlayerRatingModel)
export class RatingHistoryResolver {
  constructor(private readonly ratings: RatingService) {}

  @ResolveField(() => RatingChangeConnection, { description: "The rating's changes, game by game, the newest first" })
  async history(
    @Parent() rating: PlayerRatingModel,
    @Args('first', { type: () => Int, nullable: true, description: FIRST }) first: number | null,
    @Args('after', { type: () => String, nullable: true, description: AFTER }) after: string | null,
  ): Promise<RatingChangeConnection> {
    return connection(await this.ratings.history(rating.playerId, rating.kind, rating.family, { first, after }), changeModel);
  }
}

@Resolver(() => Game)
export class GameRatingsResolver {
  constructor(private readonly ratings: RatingService) {}

  @ResolveField(() => Boolean, { description: "The game counts for its players' ratings (docs/ratings.md)" })
  rated(@Parent() game: GameModel): boolean {
    return game.snapshot?.rated === true;
  }

  @ResolveField(() => [RatingChange], { description: "A rated game's change to each seat's rating, seat 0 first; empty until it is rated (just after it ends) and for an unrated game" })
  async ratingChanges(@Parent() game: GameModel): Promise<RatingChange[]> {
    if (game.snapshot && !game.snapshot.rated) return [];
    return (await this.ratings.changesOfGame(game.id)).map(changeModel);
  }
}
