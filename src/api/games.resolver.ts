import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import type { Viewer } from '../engines/kit/index.js';
import { RefereeError } from '../referee/core/errors.js';
import type { LiveGame } from '../referee/application/live-games.js';
import { RefereeService } from '../referee/application/referee.service.js';
import { tokenOf, type GqlContext } from './caller.js';
import { JSONScalar } from './json.scalar.js';
import { toGame, toGameFromRow, toMoveResult, toRejection, type GameModel } from './mapping.js';
import {
  CreateGameInput,
  CreateGameResult,
  Fairness,
  Game,
  GameConnection,
  GameEvent,
  GameFilterInput,
  GameSnapshot,
  JoinGameInput,
  JoinGameResult,
  MoveAccepted,
  MoveResult,
  Verdict,
} from './models.js';
import { gameEventStream } from './subscriptions.js';

/** The generic game API every kind shares. Thin: every decision is the referee's. */
@Resolver(() => Game)
export class GamesResolver {
  constructor(private readonly referee: RefereeService) {}

  @Query(() => [String], { description: 'The game kinds this referee plays' })
  gameKinds(): string[] {
    return this.referee.registry.kinds();
  }

  @Query(() => Game, { description: "One game; seat-specific fields answer for the caller's token" })
  async game(@Args('id', { type: () => ID }) id: string): Promise<GameModel> {
    return toGame(await this.referee.game(id));
  }

  @Query(() => GameConnection, { description: 'Games, newest first, with cursor pagination' })
  async games(
    @Args('filter', { type: () => GameFilterInput, nullable: true }) filter: GameFilterInput | null,
    @Args('first', { type: () => Int, defaultValue: 20 }) first: number,
    @Args('after', { type: () => String, nullable: true }) after: string | null,
  ): Promise<GameConnection> {
    const page = await this.referee.list({ kind: filter?.kind ?? undefined, status: filter?.status ?? undefined, imported: filter?.imported ?? undefined }, first, after);
    return { nodes: page.games.map(toGameFromRow), pageInfo: { endCursor: page.endCursor, hasNextPage: page.hasNextPage } };
  }

  @Query(() => [GameEvent], { description: 'Events after a sequence number, as the caller may see them' })
  async gameEvents(
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('afterSeq', { type: () => Int, defaultValue: 0 }) afterSeq: number,
    @Args('limit', { type: () => Int, defaultValue: 1000 }) limit: number,
    @Context() ctx: GqlContext,
  ): Promise<GameEvent[]> {
    if (limit < 1 || limit > 1000) throw new RefereeError('INVALID_INPUT', 'limit must be between 1 and 1000');
    return this.referee.events(gameId, afterSeq, await this.viewer(gameId, ctx), limit);
  }

  @Query(() => GameSnapshot, { description: 'The game as it was just after event `seq` (replayed from the log)' })
  async gameStateAt(@Args('gameId', { type: () => ID }) gameId: string, @Args('seq', { type: () => Int }) seq: number, @Context() ctx: GqlContext): Promise<GameSnapshot> {
    const at = await this.referee.stateAt(gameId, seq, await this.viewer(gameId, ctx));
    return { seq: at.seq, view: at.view, result: at.outcome };
  }

  @Query(() => Verdict, { description: 'Recomputes the hash chain, every random outcome and every move' })
  verifyGame(@Args('gameId', { type: () => ID }) gameId: string): Promise<Verdict> {
    return this.referee.verify(gameId);
  }

  @Mutation(() => CreateGameResult)
  async createGame(@Args('input') input: CreateGameInput): Promise<typeof CreateGameResult> {
    try {
      const { game, tokens } = await this.referee.createGame({
        kind: input.kind,
        ruleset: input.ruleset,
        seats: input.seats?.map((s) => ({ name: s.name, clientSeed: s.clientSeed, open: s.open ?? false })),
      });
      return { game: toGame(game), tokens };
    } catch (err) {
      return toRejection(err);
    }
  }

  @Mutation(() => JoinGameResult, { description: "Take an open seat; answers the seat's token" })
  async joinGame(@Args('gameId', { type: () => ID }) gameId: string, @Args('input', { type: () => JoinGameInput, nullable: true }) input: JoinGameInput | null): Promise<typeof JoinGameResult> {
    try {
      const joined = await this.referee.join(gameId, input ?? {});
      return { game: toGame(joined.game), seat: joined.seat, token: joined.token };
    } catch (err) {
      return toRejection(err);
    }
  }

  @Mutation(() => MoveResult, { description: "Any game's action as JSON (typed mutations per game are preferred)" })
  async submitAction(
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('moveId', { description: 'Client move id: a retry with the same id and body returns the original result' }) moveId: string,
    @Args('action', { type: () => JSONScalar }) action: unknown,
    @Args('expectedVersion', { type: () => Int, nullable: true }) expectedVersion: number | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof MoveResult> {
    return toMoveResult(await this.referee.act(gameId, tokenOf(ctx), moveId, action, expectedVersion));
  }

  @Mutation(() => MoveResult, { description: 'Concede the whole game (match, all rounds)' })
  async resignGame(
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('moveId') moveId: string,
    @Args('expectedVersion', { type: () => Int, nullable: true }) expectedVersion: number | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof MoveResult> {
    return toMoveResult(await this.referee.resign(gameId, tokenOf(ctx), moveId, expectedVersion));
  }

  @Mutation(() => CreateGameResult, { description: "Replays a record in the game's own format into a new game" })
  async importGame(@Args('kind') kind: string, @Args('record') record: string): Promise<typeof CreateGameResult> {
    try {
      const { game, tokens } = await this.referee.importRecord(kind, record);
      return { game: toGame(game), tokens };
    } catch (err) {
      return toRejection(err);
    }
  }

  @Subscription(() => GameEvent, {
    name: 'gameEvents',
    description: "A game's events as the caller may see them, starting after `afterSeq` (resumable)",
    resolve: (e: GameEvent) => e,
  })
  async subscribeGameEvents(@Args('gameId', { type: () => ID }) gameId: string, @Args('afterSeq', { type: () => Int, defaultValue: 0 }) afterSeq: number, @Context() ctx: GqlContext) {
    return gameEventStream(this.referee, gameId, afterSeq, await this.viewer(gameId, ctx));
  }

  // -------------------------------------------------------------- Game fields

  @ResolveField(() => Int, { nullable: true, description: "The caller's seat in this game, if the token holds one" })
  async mySeat(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<number | null> {
    const v = await this.viewerOrSpectator(game, ctx);
    return v === 'spectator' ? null : v;
  }

  @ResolveField(() => JSONScalar, { description: 'The game as the caller may see it (spectators: public information only)' })
  async view(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<unknown> {
    return this.referee.view(await this.liveOf(game), await this.viewerOrSpectator(game, ctx));
  }

  @ResolveField(() => [JSONScalar], { description: "Every legal action for the caller's seat now" })
  async legalActions(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<unknown[]> {
    return this.referee.legalActions(await this.liveOf(game), await this.viewerOrSpectator(game, ctx));
  }

  @ResolveField(() => [Int], { description: 'Seats that may act now' })
  async toAct(@Parent() game: GameModel): Promise<number[]> {
    const live = await this.liveOf(game);
    return live.status === 'ACTIVE' ? live.engine.toAct(live.state) : [];
  }

  @ResolveField(() => JSONScalar, { nullable: true, description: 'The outcome, once the game is over' })
  async result(@Parent() game: GameModel): Promise<unknown> {
    return (await this.liveOf(game)).outcome;
  }

  @ResolveField(() => Fairness)
  async fairness(@Parent() game: GameModel): Promise<Fairness> {
    const live = await this.liveOf(game);
    return {
      seedCommitment: live.seedCommitment,
      randomSource: live.randomSource,
      serverSeed: live.revealedSeed,
      clientSeeds: live.started ? live.seats.map((s) => s.clientSeed) : [],
    };
  }

  private liveOf(game: GameModel): Promise<LiveGame> {
    return game.live ? Promise.resolve(game.live) : this.referee.game(game.id);
  }

  private async viewer(gameId: string, ctx: GqlContext): Promise<Viewer> {
    return this.referee.viewerOf(gameId, tokenOf(ctx));
  }

  /** Reads degrade to the public view for a token of another game (lists mix games). */
  private async viewerOrSpectator(game: GameModel, ctx: GqlContext): Promise<Viewer> {
    try {
      return await this.viewer(game.id, ctx);
    } catch (err) {
      if (err instanceof RefereeError && err.code === 'UNAUTHORIZED') return 'spectator';
      throw err;
    }
  }
}

@Resolver(() => MoveAccepted)
export class MoveAcceptedResolver {
  constructor(private readonly referee: RefereeService) {}

  @ResolveField(() => JSONScalar, { description: 'The game as the mover sees it now' })
  async view(@Parent() move: MoveAccepted): Promise<unknown> {
    return this.referee.view(await this.referee.game(move.gameId), move.seat);
  }

  @ResolveField(() => [JSONScalar], { description: "The mover's legal actions now" })
  async legalActions(@Parent() move: MoveAccepted): Promise<unknown[]> {
    return this.referee.legalActions(await this.referee.game(move.gameId), move.seat);
  }
}
