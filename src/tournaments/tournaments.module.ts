import { Module } from '@nestjs/common';
import { TournamentService, TournamentStore } from '../referee/index.js';
import { TournamentTokens } from './tournament-tokens.js';
import { TournamentsController } from './tournaments.controller.js';
import { TournamentGameResolver, TournamentsResolver } from './tournaments.resolver.js';

/**
 * Tournaments over the referee: their store and service, their tokens in the token directory,
 * the GraphQL API and the REST export routes. DatabaseService and the referee come from their
 * global modules.
 */
@Module({
  providers: [TournamentStore, TournamentService, TournamentTokens, TournamentsResolver, TournamentGameResolver],
  controllers: [TournamentsController],
})
export class TournamentsModule {}
