import { Module } from '@nestjs/common';
import { AccountService } from '../referee/index.js';
import { GameRatingsResolver, PlayerRatingsResolver, RatingHistoryResolver } from './ratings.resolver.js';

/** Ratings over GraphQL (docs/ratings.md): `player { ratings { history } }`, `leaderboard`, `Game.ratingChanges`. The referee keeps and recomputes them. */
@Module({ providers: [AccountService, PlayerRatingsResolver, RatingHistoryResolver, GameRatingsResolver] })
export class RatingsModule {}
