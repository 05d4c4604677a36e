import { type DynamicModule, Module } from '@nestjs/common';
import { Context, createUnionType, Parent, registerEnumType, ResolveField, Resolver } from '@nestjs/graphql';
import type { ServedGame } from '../games/game-package.js';
import type { TypedAnswers } from '../games/typed-game.js';
import { RefereeService, type StoredEvent } from '../referee/index.js';
import type { GqlContext } from './caller.js';
import { shownTo } from './games.resolver.js';
import type { GameModel, GameShownTo } from './mapping.js';
import { Game, GameEvent, PastGame, Rejection } from './models.js';
import { REJECTION_CODES } from './rejection-codes.js';
import { ActionTakenDetail, byClass, eventDetail, GameEventDetail, GameOutcome, typedAs } from './typed.js';

/** Schemas are built once per list of games: a schema names each union and enum once (Nest keeps their metadata for the whole process). */
const built = new Map<string, DynamicModule>();

/**
 * Everything of the GraphQL API that is typed per game, over the games the service is built
 * with: the unions over their typed answers (a game's state, legal moves, outcome detail and
 * actions), each event's typed detail in its game's terms, and the RejectionCode enum with every
 * game's own codes. A game not in the list (a test's engine) answers null in the typed fields.
 */
@Module({})
export class TypedAnswersModule {
  static forRoot(games: readonly ServedGame[]): DynamicModule {
    const key = games.map((g) => g.engine.kind).join(' ');
    let module = built.get(key);
    if (!module) built.set(key, (module = typedAnswersModule(games)));
    return module;
  }
}

function typedAnswersModule(games: readonly ServedGame[]): DynamicModule {
  const byKind = new Map(games.map((g) => [g.engine.kind, g.typed]));
  const typedOf = (kind: string): TypedAnswers | null => byKind.get(kind) ?? null;
  const members = <K extends keyof TypedAnswers['classes']>(member: K) => games.map((g) => g.typed.classes[member]);

  const GameState = createUnionType({
    name: 'GameState',
    description: "A game as the caller may see it, typed per game (the same as the game's own query: backgammonPosition, chickenFootTable, cerkeState)",
    types: () => members('state'),
    resolveType: byClass,
  });
  const LegalMoves = createUnionType({
    name: 'LegalMoves',
    description: "What the caller's seat may do now, typed per game (empty for spectators and out of turn)",
    types: () => members('legalMoves'),
    resolveType: byClass,
  });
  const OutcomeDetail = createUnionType({ name: 'OutcomeDetail', description: 'How a game ended, in its own terms', types: () => members('outcome'), resolveType: byClass });
  const GameAction = createUnionType({
    name: 'GameAction',
    description: 'An action a seat took, typed per game, as the viewer may see it',
    types: () => members('action'),
    resolveType: byClass,
  });

  const codes: Readonly<Record<string, string>> = Object.assign({}, REJECTION_CODES, ...games.map((g) => g.rejectionCodes));
  const RejectionCode = Object.fromEntries(Object.keys(codes).map((code) => [code, code]));
  registerEnumType(RejectionCode, {
    name: 'RejectionCode',
    description: 'Why a request was refused. Stable: clients may branch on these.',
    valuesMap: Object.fromEntries(Object.entries(codes).map(([code, description]) => [code, { description }])),
  });

  const state = ({ game, answer }: GameShownTo) => {
    const typed = typedOf(game.kind);
    return typed && typedAs(typed.classes.state, typed.state(game, answer));
  };

  @Resolver(() => Game)
  class TypedGameFields {
    constructor(readonly referee: RefereeService) {}

    @ResolveField(() => GameState, { nullable: true, description: 'The game as the caller may see it, typed per game (use inline fragments); view is the same as JSON' })
    async state(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<object | null> {
      return state(await shownTo(this.referee, game, ctx));
    }

    @ResolveField(() => LegalMoves, { nullable: true, description: "The caller's legal actions now, typed per game; legalActions is the same as JSON" })
    async legalMoves(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<object | null> {
      const shown = await shownTo(this.referee, game, ctx);
      const typed = typedOf(game.kind);
      return typed && typedAs(typed.classes.legalMoves, typed.legalMoves(shown.game, shown.answer));
    }
  }

  @Resolver(() => PastGame)
  class TypedPastGameFields {
    @ResolveField(() => GameState, { nullable: true, description: 'The game then, typed per game (as Game.state; use inline fragments); null for a game without typed answers' })
    state(@Parent() past: PastGame & { shown: GameShownTo }): object | null {
      return state(past.shown);
    }
  }

  @Resolver(() => GameOutcome)
  class TypedOutcomeFields {
    @ResolveField(() => OutcomeDetail, { nullable: true, description: 'The game-specific detail, typed' })
    detail(@Parent() outcome: GameOutcome): object | null {
      const typed = typedOf(outcome.kind);
      const detail = typed?.outcomeDetail(outcome);
      return typed && detail ? typedAs(typed.classes.outcome, detail) : null;
    }
  }

  @Resolver(() => ActionTakenDetail)
  class TypedActionFields {
    @ResolveField(() => GameAction, { nullable: true, description: 'The action, typed per game, as the viewer may see it (null for a game without typed answers)' })
    action(@Parent() taken: ActionTakenDetail): object | null {
      const typed = typedOf(taken.kind);
      return typed && typedAs(typed.classes.action, typed.action(taken.served));
    }
  }

  /** `GameEvent.detail`, wherever events are served: the gameEvents query and subscription, and a move's answer. */
  @Resolver(() => GameEvent)
  class TypedEventFields {
    @ResolveField(() => GameEventDetail, { nullable: true, description: 'The event, typed: what happened, as the caller may see it (payload is the same as JSON)' })
    detail(@Parent() event: GameEvent & StoredEvent): typeof GameEventDetail | null {
      return event.kind ? eventDetail(event.kind, typedOf(event.kind), event) : null;
    }
  }

  @Resolver(() => Rejection)
  class RejectionFields {
    // A code the enum lacks (a bug: test/api/rejection-codes.spec.ts lists them all) reads as INVALID_INPUT rather than failing the answer.
    @ResolveField(() => RejectionCode, { description: 'Why: a stable code (see RejectionCode)' })
    code(@Parent() rejection: Rejection): string {
      return Object.hasOwn(codes, rejection.code) ? rejection.code : 'INVALID_INPUT';
    }
  }

  return {
    module: TypedAnswersModule,
    providers: [TypedGameFields, TypedPastGameFields, TypedOutcomeFields, TypedActionFields, TypedEventFields, RejectionFields],
  };
}
