import { Module } from '@nestjs/common';

/** Backgammon's typed GraphQL API on top of the referee core. */
@Module({ providers: [] })
export class BackgammonModule {}
