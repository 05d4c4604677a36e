import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { StoredEvent } from '../referee/core/stream.js';
import { GameEvent } from './models.js';
import { eventDetail, GameEventDetail } from './typed.js';

/** `GameEvent.detail`, wherever events are served: the gameEvents query and subscription, and a move's answer. */
@Resolver(() => GameEvent)
export class GameEventDetailResolver {
  @ResolveField(() => GameEventDetail, { nullable: true, description: 'The event, typed: what happened, as the caller may see it (payload is the same as JSON)' })
  detail(@Parent() event: GameEvent & StoredEvent): typeof GameEventDetail | null {
    return event.kind ? eventDetail(event.kind, event) : null;
  }
}
