import { Module } from '@nestjs/common';
import { TournamentService } from '../referee/application/tournament.service.js';
import { TournamentsController } from './tournaments.controller.js';
import { TournamentGameResolver, TournamentsResolver } from './tournaments.resolver.js';

/** Tournaments over the referee: their service, the GraphQL API and the REST export routes. Their store, DatabaseService and the referee come from the global modules. */
@Module({
  providers: [TournamentService, TournamentsResolver, TournamentGameResolver],
  controllers: [TournamentsController],
})
export class TournamentsModule {}
