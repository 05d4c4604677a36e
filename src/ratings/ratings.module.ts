import { Module } from '@nestjs/common';
import { AccountService } from '../referee/index.js';
import { RatingsController } from './ratings.controller.js';
import { GameRatingsResolver, PlayerRatingsResolver, RatingHistoryResolver } from './ratings.resolver.js';

/** Ratings over GraphQL (docs/ratings.md): `player { ratings { history } }`, `leaderboard`, `Game.ratingChanges`; REST: GET /api/players/:id/ratings (and its history), GET /api/leaderboards/:kind/:family. The referee keeps and recomputes them. */
@Module({ providers: [AccountService, PlayerRatingsResolver, RatingHistoryResolver, GameRatingsResolver], controllers: [RatingsController] })
export class RatingsModule {}
