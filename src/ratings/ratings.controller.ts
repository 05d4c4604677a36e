import { Controller, Get, Param, Query } from '@nestjs/common';
import { wholeNumber } from '../api/mapping.js';
import { Needs } from '../api/scopes.js';
import { AccountService, type RatingChangeRow, type RatingFamily, RatingService, RefereeError, type ShownRating } from '../referee/index.js';

/** A page's `first` and `after`, as the query string gives them. */
function pageArgs(first: unknown, after: unknown): { first: number | null; after: string | null } {
  if (after !== undefined && typeof after !== 'string') throw new RefereeError('INVALID_INPUT', 'after is given once');
  return { first: first === undefined ? null : wholeNumber(first, 'first'), after: (after as string | undefined) || null };
}

const ratingDocument = (r: ShownRating) => ({
  playerId: r.playerId,
  name: r.name,
  kind: r.kind,
  family: r.family,
  rating: r.rating,
  rd: r.rd,
  volatility: r.volatility,
  provisional: r.provisional,
  games: r.games,
  lastPlayedAt: r.lastAt,
});

const changeDocument = (c: RatingChangeRow) => ({
  gameId: c.gameId,
  seat: c.seat,
  place: c.place,
  before: c.before,
  after: c.after,
  change: Math.round((c.after.rating - c.before.rating) * 1e6) / 1e6,
  seq: c.seq,
  ratedAt: c.createdAt.toISOString(),
});

/** Ratings over REST (docs/ratings.md), as GraphQL's `player { ratings { history } }` and `leaderboard` have them. */
@Controller('api')
export class RatingsController {
  constructor(
    private readonly ratings: RatingService,
    private readonly accounts: AccountService,
  ) {}

  @Needs('read')
  @Get('players/:id/ratings')
  async playerRatings(@Param('id') id: string) {
    const account = /^pl-[A-Za-z0-9_-]{1,64}$/.test(id) ? await this.accounts.account(id).catch(() => null) : null;
    if (account?.kind !== 'player') throw new RefereeError('NOT_FOUND', `no player with id ${id}`);
    return { playerId: account.accountId, name: account.name, ratings: (await this.ratings.ratingsOf(id)).map(ratingDocument) };
  }

  @Needs('read')
  @Get('players/:id/ratings/:kind/:family/history')
  async history(@Param('id') id: string, @Param('kind') kind: string, @Param('family') family: string, @Query('first') first: unknown, @Query('after') after: unknown) {
    const page = await this.ratings.history(id, kind, family as RatingFamily, pageArgs(first, after));
    return { changes: page.items.map(({ node, cursor }) => ({ ...changeDocument(node), cursor })), endCursor: page.endCursor, hasNextPage: page.hasNextPage };
  }

  @Needs('read')
  @Get('leaderboards/:kind/:family')
  async leaderboard(@Param('kind') kind: string, @Param('family') family: string, @Query('first') first: unknown, @Query('after') after: unknown) {
    const page = await this.ratings.leaderboard(kind, family as RatingFamily, pageArgs(first, after));
    return { ratings: page.items.map(({ node, cursor }) => ({ ...ratingDocument(node), cursor })), endCursor: page.endCursor, hasNextPage: page.hasNextPage };
  }
}
