import { Module } from '@nestjs/common';
import { TournamentService } from '../referee/index.js';
import { TournamentTokens } from './tournament-tokens.js';
import { TournamentsController } from './tournaments.controller.js';
import { TournamentEntriesController } from './entries.controller.js';
import { TournamentGameResolver, TournamentsResolver } from './tournaments.resolver.js';
import { TournamentReportsResolver } from './reports.resolver.js';

/**
 * Tournaments over the referee: their service, their tokens in the token directory, the GraphQL
 * API and the REST export routes. Their store, DatabaseService and the referee come from the
 * global modules.
 */
@Module({
  providers: [TournamentService, TournamentTokens, TournamentsResolver, TournamentGameResolver, TournamentReportsResolver],
  controllers: [TournamentsController, TournamentEntriesController],
})
export class TournamentsModule {}
