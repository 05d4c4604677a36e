import { Module } from '@nestjs/common';
import { GameEventDetailResolver } from '../api/typed.resolver.js';

/** The generic API's typed event details (GameEvent.detail) over every game with typed answers. */
@Module({ providers: [GameEventDetailResolver] })
export class TypedAnswersModule {}
