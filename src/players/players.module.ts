import { Module } from '@nestjs/common';
import { AccountService } from '../referee/index.js';
import { PlayerAccounts } from './player-accounts.js';
import { PlayersController } from './players.controller.js';
import { PlayersResolver } from './players.resolver.js';

/**
 * Players, apps and their keys over the referee's account service: GraphQL (create, issue,
 * rotate, revoke, `me`) and GET /api/me. The keys' directory and store come from the referee.
 */
@Module({
  providers: [AccountService, PlayerAccounts, PlayersResolver],
  controllers: [PlayersController],
})
export class PlayersModule {}
