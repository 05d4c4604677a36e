import { Module } from '@nestjs/common';

/** Chicken Foot's typed GraphQL API on top of the referee core. */
@Module({ providers: [] })
export class ChickenFootModule {}
