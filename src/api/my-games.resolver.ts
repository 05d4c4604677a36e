import { Args, ArgsType, Context, Field, Int, ObjectType, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { Me } from '../players/index.js';
import { type FeedItem, type InboxPage, RefereeService } from '../referee/index.js';
import { type GqlContext, tokenOf } from './caller.js';
import { type Connection, connectionOf, type Edge, pageOf } from './connection.js';
import { JSONScalar } from './json.scalar.js';
import { Limits } from './limits.js';
import { feedStream, requireWebSocket } from './subscriptions.js';
import { Needs } from './scopes.js';
import { toGame } from './mapping.js';
import { Game, GameStatusEnum } from './models.js';

/** What an edge of a player's games carries besides the game and its cursor. */
@ObjectType({ isAbstract: true })
class MySeatFields {
  @Field(() => Int, { description: "The player's seat" }) seat: number;
  @Field({ description: 'The game waits for this seat now' }) toAct: boolean;
  @Field(() => Date, { nullable: true, description: "When the seat's time runs out, if its clock runs" }) deadline: Date | null;
  @Field(() => Date, { description: "The time of the game's last event" }) updatedAt: Date;
}

export const MyGameConnection = connectionOf(
  Game,
  'MyGame',
  {
    connection: "A page of a player's games (Relay cursor connection): with toAct, the most pressing deadline first; else the most recently moved first",
    edge: "One of a player's games, with the player's seat in it and its cursor",
    node: 'The game',
    items: 'games',
    edges: "The page's games with the player's seat and their cursors",
  },
  MySeatFields,
);
export type MyGameConnection = Connection<Game, Edge<Game> & MySeatFields>;

@ObjectType({ description: "A notice for a player (the player's stream): a game started, it is the player's turn, a game is over, a challenge came, ..." })
export class PlayerNotice {
  @Field({ description: 'Opaque, in the order notices are served: resume after it with `after` (the REST stream takes it as `Last-Event-ID`)' }) id: string;
  @Field({
    description:
      'What happened: game.started, game.your_turn, game.over, game.timed_out, game.pause_requested, game.time_given, game.opponent_on_vacation, challenge.received, challenge.accepted, challenge.declined, challenge.cancelled, tournament.participant_registered, tournament.check_in_opened, tournament.round_paired, tournament.result_reported, tournament.result_disputed, tournament.dispute_settled, tournament.finished',
  })
  type: string;
  @Field(() => Date, { description: 'When it happened' }) createdAt: Date;
  @Field(() => JSONScalar, {
    description: 'What the notice says: its game (gameId), seat, and per type: deadline and remainingMs for game.your_turn, reason and result for game.over, ... (docs/players.md)',
  })
  data: Record<string, unknown>;
}

/** The arguments of a player's games, as `myGames` and `me { games }` take them. */
@ArgsType()
export class MyGamesArgs {
  @Field(() => Boolean, { nullable: true, description: 'Only the games waiting for the player (true), or only the others (false); omitted: all' }) toAct: boolean | null;
  @Field(() => GameStatusEnum, { nullable: true, description: 'Only games of this status' }) status: GameStatusEnum | null;
  @Field(() => String, { nullable: true, description: 'Only games of this kind' }) kind: string | null;
  @Field(() => Int, { nullable: true, description: 'At most 100; 20 by default' }) first: number | null;
  @Field(() => String, { nullable: true, description: 'A cursor: the games after it' }) after: string | null;
}

/** A page of the caller's games as a connection: its games read as held (a page is at most 100). */
export async function myGames(referee: RefereeService, token: string | null, args: MyGamesArgs): Promise<MyGameConnection> {
  const page: InboxPage = await referee.myGames(token, { toAct: args.toAct ?? undefined, status: args.status ?? undefined, kind: args.kind ?? undefined, first: args.first, after: args.after });
  const nodes = await Promise.all(page.items.map(async ({ row }) => toGame(await referee.game(row.gameId))));
  const edges = page.items.map(({ row, cursor }, i) => ({ cursor, node: nodes[i], seat: row.seat, toAct: row.toAct, deadline: row.deadline, updatedAt: row.updatedAt }));
  return pageOf(edges, { endCursor: page.endCursor, hasNextPage: page.hasNextPage });
}

/** The inbox: the games of the player whose key calls, the ones waiting for it first if asked. */
@Resolver()
export class MyGamesResolver {
  constructor(private readonly referee: RefereeService) {}

  @Needs('read')
  @Limits({ page: { default: 20, max: 100 } })
  @Query(() => MyGameConnection, {
    description:
      'The games of the player whose key (scope read) is the Bearer token (UNAUTHORIZED otherwise): with toAct: true, those waiting for the player, the most pressing deadline first (games without a clock last); otherwise the most recently moved first',
  })
  myGames(@Args() args: MyGamesArgs, @Context() ctx: GqlContext): Promise<MyGameConnection> {
    return myGames(this.referee, tokenOf(ctx), args);
  }

  @Needs('read')
  @Subscription(() => PlayerNotice, {
    name: 'myEvents',
    description:
      "The notices meant for the player whose key (scope read) is the connection's authorization (UNAUTHORIZED otherwise), after `after`, then each as it is stored; as GET /api/me/stream serves them",
    resolve: (n: FeedItem, _args: unknown, ctx: GqlContext | undefined) => {
      requireWebSocket(ctx);
      return n;
    },
  })
  async myEvents(
    @Args('after', { type: () => String, nullable: true, description: "A notice's id: the notices after it (omitted: from the player's first)" }) after: string | null,
    @Context() ctx: GqlContext,
  ): Promise<AsyncIterableIterator<FeedItem>> {
    return feedStream(await this.referee.myFeed(tokenOf(ctx), after ?? null));
  }
}

/** The same inbox as a field of `me`: one implementation, myGames's. */
@Resolver(() => Me)
export class MeGamesResolver {
  constructor(private readonly referee: RefereeService) {}

  @Limits({ page: { default: 20, max: 100 } })
  @ResolveField(() => MyGameConnection, { description: "The player's games, as myGames answers them (a player's key with scope read; UNAUTHORIZED for an app's)" })
  games(@Args() args: MyGamesArgs, @Context() ctx: GqlContext): Promise<MyGameConnection> {
    return myGames(this.referee, tokenOf(ctx), args);
  }
}
