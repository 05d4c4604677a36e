import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { RefereeService } from '../referee/application/referee.service.js';
import { asGraphQLError } from './error.filter.js';
import { GameEvent } from './models.js';
import { eventDetail, GameEventDetail } from './typed.js';

/** `GameEvent.detail`, wherever events are served: the gameEvents query and subscription, and a move's answer. */
@Resolver(() => GameEvent)
export class GameEventDetailResolver {
  constructor(private readonly referee: RefereeService) {}

  @ResolveField(() => GameEventDetail, { nullable: true, description: 'The event, typed: what happened, as the caller may see it (payload is the same as JSON)' })
  async detail(@Parent() event: GameEvent): Promise<typeof GameEventDetail | null> {
    if (!event.gameId) return null;
    try {
      // The game is held: whoever served this event has just loaded it.
      return eventDetail((await this.referee.game(event.gameId)).kind, event);
    } catch (err) {
      throw asGraphQLError(err);
    }
  }
}
