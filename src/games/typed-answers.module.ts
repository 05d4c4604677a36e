import { Module } from '@nestjs/common';
import { GameEventDetailResolver, TYPED_CLOCK_RESOLVERS } from '../api/typed.resolver.js';

/** The generic API's typed event details (GameEvent.detail) over every game with typed answers, and the clock of each game's typed state. */
@Module({ providers: [GameEventDetailResolver, ...TYPED_CLOCK_RESOLVERS] })
export class TypedAnswersModule {}
