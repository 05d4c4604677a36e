import { Inject, type Type } from '@nestjs/common';
import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { GameShown } from '../games/typed-game.js';
import { clockView, RefereeService } from '../referee/index.js';
import { asGraphQLError } from './error.filter.js';
import { toGameClock } from './mapping.js';
import { GameClock, GameEvent } from './models.js';
import { eventDetail, GameEventDetail, TYPED_STATES } from './typed.js';

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

/** `clock` on a game's typed state: the same GameClock as Game.clock. */
function typedClockResolver(state: Type<GameShown>) {
  @Resolver(() => state)
  class TypedClockResolver {
    constructor(@Inject(RefereeService) private readonly referee: RefereeService) {}

    @ResolveField(() => GameClock, {
      nullable: true,
      description: "The clocks, as Game.clock answers them: as of this request; in a state of the game's past (gameStateAt), as they stood at its last event. Null for a game without a time control",
    })
    async clock(@Parent() { live }: GameShown): Promise<GameClock | null> {
      try {
        // A past state's clocks ran up to its last event's stamp; counting on to now would spend time nobody had.
        const past = (await this.referee.game(live.gameId)).version > live.version;
        const at = live.clock?.at;
        const view = past && at ? clockView(live, at) : this.referee.clockOf(live);
        return view && toGameClock(view);
      } catch (err) {
        throw asGraphQLError(err);
      }
    }
  }
  return TypedClockResolver;
}

export const TYPED_CLOCK_RESOLVERS = TYPED_STATES.map(typedClockResolver);
