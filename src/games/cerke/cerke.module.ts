import { Module } from '@nestjs/common';
import { CerkeResolver } from './cerke.resolver.js';

/** Cerke's typed GraphQL API on top of the referee core. */
@Module({ providers: [CerkeResolver] })
export class CerkeModule {}
