import { Module } from '@nestjs/common';
import { ChickenFootResolver } from './chicken-foot.resolver.js';

/** Chicken Foot's typed GraphQL API on top of the referee core. */
@Module({ providers: [ChickenFootResolver] })
export class ChickenFootModule {}
