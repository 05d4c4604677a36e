import { Module } from '@nestjs/common';

/** Cerke's typed GraphQL API on top of the referee core. */
@Module({ providers: [] })
export class CerkeModule {}
