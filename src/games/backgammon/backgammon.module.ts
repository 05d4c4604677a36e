import { Module } from '@nestjs/common';
import { BackgammonResolver } from './backgammon.resolver.js';

/** Backgammon's typed GraphQL API on top of the referee core. */
@Module({ providers: [BackgammonResolver] })
export class BackgammonModule {}
