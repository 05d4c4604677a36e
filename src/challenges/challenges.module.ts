import { Module } from '@nestjs/common';
import { ChallengeService } from '../referee/index.js';
import { ChallengesController } from './challenges.controller.js';
import { ChallengesResolver } from './challenges.resolver.js';

/** Challenges between players over the referee's challenge service: GraphQL and REST (/api/challenges). */
@Module({
  providers: [ChallengeService, ChallengesResolver],
  controllers: [ChallengesController],
})
export class ChallengesModule {}
