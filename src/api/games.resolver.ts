import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import type { Viewer } from '../engines/kit/index.js';
import { isCleanText, isTournamentId, RefereeError, RefereeService } from '../referee/index.js';
import { normaliseRuleset } from '../games/index.js';
import { createTypedGame, seatPlans } from '../games/rulesets.js';
import { tokenOf, type GqlContext } from './caller.js';
import { asGraphQLError } from './error.filter.js';
import { pageOf } from './connection.js';
import { Limits } from './limits.js';
import { JSONScalar } from './json.scalar.js';
import {
  asGameEvent,
  type GameModel,
  type GameShownTo,
  gameIdOf,
  type MoveAcceptedModel,
  ofGame,
  rejectGameId,
  timeControlOf,
  toGame,
  toGameClock,
  toGameSummary,
  toMoveResult,
  answerOrRejection,
} from './mapping.js';
import {
  CreateGameInput,
  CreateGameResult,
  Fairness,
  Game,
  GameClock,
  GameConnection,
  GameEvent,
  GameEventConnection,
  GameFilterInput,
  JoinGameInput,
  JoinGameResult,
  MoveAccepted,
  MoveResult,
  PastGame,
  Verdict,
} from './models.js';
import { EventPageArgs, seqConnection, seqRange } from './seq-pages.js';
import { gameEventStream, mapped, requireWebSocket } from './subscriptions.js';
import { GameOutcome, typedOutcome } from './typed.js';
import { Needs } from './scopes.js';

/** The generic game API every kind shares. Thin: every decision is the referee's. */
@Resolver(() => Game)
export class GamesResolver {
  constructor(private readonly referee: RefereeService) {}

  @Needs('read')
  @Query(() => [String], { description: 'The game kinds this referee plays' })
  gameKinds(): string[] {
    return this.referee.registry.kinds();
  }

  @Needs('read')
  @Query(() => Game, { description: "One game; seat-specific fields answer for the caller's token" })
  async game(
    @Args('id', { type: () => ID, description: 'The game id' }) id: string,
    @Args('atLeastVersion', {
      type: () => Int,
      nullable: true,
      description: 'Read-your-writes: answer the game at this version or later (a version a move of yours was acknowledged at, on any instance)',
    })
    atLeastVersion: number | null,
  ): Promise<GameModel> {
    return toGame(await this.referee.game(gameIdOf(id), undefined, atLeastVersion));
  }

  @Limits({ page: { default: 20, max: 100 } })
  @Needs('read')
  @Query(() => GameConnection, {
    description: 'Games, newest first, as a Relay cursor connection: `first` after a cursor pages forwards (20 by default), `last` before a cursor pages backwards (not both)',
  })
  async games(
    @Args('filter', { type: () => GameFilterInput, nullable: true, description: 'Which games; omitted: all' }) filter: GameFilterInput | null,
    @Args('first', { type: () => Int, nullable: true, description: 'At most 100; 20 when neither first nor last is given' }) first: number | null,
    @Args('after', { type: () => String, nullable: true, description: 'A cursor: the games after it' }) after: string | null,
    @Args('last', { type: () => Int, nullable: true, description: 'At most 100: the last games (before `before`)' }) last: number | null,
    @Args('before', { type: () => String, nullable: true, description: 'A cursor: the games before it' }) before: string | null,
  ): Promise<GameConnection> {
    const kind = filter?.kind;
    if (kind !== null && kind !== undefined && (kind.length > 64 || !isCleanText(kind))) throw new RefereeError('INVALID_INPUT', 'filter.kind must be a game kind (the gameKinds query lists them)');
    const tournamentId = filter?.tournamentId;
    if (tournamentId !== null && tournamentId !== undefined && !isTournamentId(tournamentId)) throw new RefereeError('INVALID_INPUT', 'filter.tournamentId must be a tournament id');
    const round = filter?.round;
    if (round !== null && round !== undefined && round < 1) throw new RefereeError('INVALID_INPUT', 'filter.round must be a round number, from 1');
    const page = await this.referee.list(
      { kind: filter?.kind ?? undefined, status: filter?.status ?? undefined, imported: filter?.imported ?? undefined, tournamentId: tournamentId ?? undefined, round: round ?? undefined },
      { first, after, last, before },
    );
    const edges = page.games.map((g, i) => ({ node: toGameSummary(g), cursor: page.cursors[i] }));
    const { startCursor, endCursor, hasNextPage, hasPreviousPage } = page;
    return { ...pageOf(edges, { startCursor, endCursor, hasNextPage, hasPreviousPage }), count: page.totalCount };
  }

  @Needs('read')
  @Query(() => GameEventConnection, {
    complexity: 50,
    description:
      "A game's events as the caller may see them, oldest first, as a Relay cursor connection whose cursor is the seq: `first` after a cursor pages forwards (1000 by default), `last` before a cursor pages backwards (not both); resume the gameEvents subscription with the last seq",
  })
  async gameEvents(@Args('gameId', { type: () => ID, description: 'The game' }) gameId: string, @Args() page: EventPageArgs, @Context() ctx: GqlContext): Promise<GameEventConnection> {
    gameIdOf(gameId);
    const viewer = await this.viewer(gameId, ctx);
    const game = await this.referee.game(gameId);
    const range = seqRange(page, game.version);
    const events = range.count > 0 ? ofGame(game, await this.referee.events(gameId, range.afterSeq, viewer, range.count)) : [];
    return seqConnection(events, range, game.version);
  }

  @Limits({ expensive: true })
  @Needs('read')
  @Query(() => PastGame, { complexity: 50, description: 'The game as it was just after event `seq` (replayed from the log)' })
  async gameStateAt(
    @Args('gameId', { type: () => ID, description: 'The game' }) gameId: string,
    @Args('seq', { type: () => Int, description: 'The event to stop after, from 1 to the game version' }) seq: number,
    @Context() ctx: GqlContext,
  ): Promise<PastGameModel> {
    gameIdOf(gameId);
    const viewer = await this.viewer(gameId, ctx);
    const { game, answer } = await this.referee.stateAt(gameId, seq, viewer);
    return { seq, view: answer.view, result: answer.outcome, shown: { game, answer } };
  }

  @Limits({ expensive: true })
  @Needs('read')
  @Query(() => Verdict, { complexity: 100, description: 'Recomputes the hash chain, every random outcome and every move' })
  verifyGame(@Args('gameId', { type: () => ID, description: 'The game to check' }) gameId: string): Promise<Verdict> {
    return this.referee.verify(gameIdOf(gameId));
  }

  @Limits({ creates: true })
  @Needs('create_games')
  @Mutation(() => CreateGameResult, {
    complexity: 10,
    description: 'Create a game of any kind with a JSON ruleset; answers the game and the tokens of the seats taken (the typed create mutations per game are preferred)',
  })
  async createGame(@Args('input', { description: 'The kind, ruleset and seats' }) input: CreateGameInput): Promise<typeof CreateGameResult> {
    // Choices in the typed API's spelling (ONLINE) or the engine's ("online").
    return createTypedGame(this.referee, () => ({
      kind: input.kind,
      ruleset: normaliseRuleset(input.kind, input.ruleset),
      seats: seatPlans(input.seats),
      timeControl: timeControlOf(input.timeControl),
      rated: input.rated === true,
    }));
  }

  @Needs('play')
  @Mutation(() => JoinGameResult, { description: "Take an open seat; answers the seat's token. With a player's key (scope play) the seat is bound to the player, whose key acts as it too" })
  async joinGame(
    @Args('gameId', { type: () => ID, description: 'The game to join' }) gameId: string,
    @Args('input', { type: () => JoinGameInput, nullable: true, description: 'The seat and name; omitted: the first open seat, unnamed' }) input: JoinGameInput | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof JoinGameResult> {
    return answerOrRejection(async () => {
      const joined = await this.referee.join(gameIdOf(gameId), input ?? {}, tokenOf(ctx));
      return { game: toGame(joined.game), seat: joined.seat, token: joined.token };
    });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: "Any game's action as JSON (typed mutations per game are preferred)" })
  async submitAction(
    @Args('gameId', { type: () => ID, description: 'The game' }) gameId: string,
    @Args('moveId', { description: 'Client move id: a retry with the same id and body returns the original result' }) moveId: string,
    @Args('action', { type: () => JSONScalar, description: 'The action in the engine\'s JSON, as legalActions lists them (e.g. {"type": "roll"})' }) action: unknown,
    @Args('expectedVersion', { type: () => Int, nullable: true, description: 'The game version the action was chosen at; a newer game refuses it with VERSION_CONFLICT' }) expectedVersion:
      | number
      | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof MoveResult> {
    return rejectGameId(gameId) ?? toMoveResult(await this.referee.act(gameId, tokenOf(ctx), moveId, action, expectedVersion));
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Concede the whole game (match, all rounds)' })
  async resignGame(
    @Args('gameId', { type: () => ID, description: 'The game' }) gameId: string,
    @Args('moveId', { description: 'Client move id: a retry with the same id returns the original result' }) moveId: string,
    @Args('expectedVersion', { type: () => Int, nullable: true, description: 'The game version the resignation was decided at; a newer game refuses it with VERSION_CONFLICT' }) expectedVersion:
      | number
      | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof MoveResult> {
    return rejectGameId(gameId) ?? toMoveResult(await this.referee.resign(gameId, tokenOf(ctx), moveId, expectedVersion));
  }

  @Needs('play')
  @Mutation(() => MoveResult, {
    description:
      "Ends a game nobody moved in yet, with no result (status ABORTED): any seat may, its clocks stop. Refused with ABORT_TOO_LATE once a seat moved (the referee's own opening draws and forced moves are no seat's), and with TOURNAMENT_GAME for a tournament's game (its organizer's rules decide it)",
  })
  async abortGame(@Args('gameId', { type: () => ID, description: 'The game' }) gameId: string, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return rejectGameId(gameId) ?? toMoveResult(await this.referee.abort(gameId, tokenOf(ctx)));
  }

  @Needs('play')
  @Mutation(() => MoveResult, {
    description:
      "Time for a seat. By a seat's token: `vacation` for its own seat (correspondence, from its vacationSeconds), or a gift to another seat; refused with OUT_OF_TIME once the seat's deadline passed. By the token of the organizer of the game's tournament: time for any seat, even after its deadline (the answer's seat is -1)",
  })
  async addTime(
    @Args('gameId', { type: () => ID, description: 'The game' }) gameId: string,
    @Args('seat', { type: () => Int, description: 'The seat that gets the time' }) seat: number,
    @Args('seconds', { type: () => Int, description: 'Seconds to add, from 1 to 365 days' }) seconds: number,
    @Args('vacation', { type: () => Boolean, nullable: true, defaultValue: false, description: "The caller's own vacation (correspondence); false: a gift to another seat" }) vacation: boolean | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof MoveResult> {
    return rejectGameId(gameId) ?? toMoveResult(await this.referee.addTime(gameId, tokenOf(ctx), seat, seconds, vacation ?? false));
  }

  @Needs('play')
  @Mutation(() => MoveResult, {
    description:
      "The caller's seat asks to pause the clocks: they pause once every seat asked (PAUSE_CONFLICT if it asked already). The organizer of the game's tournament pauses them at once (the answer's seat is -1)",
  })
  async pauseClock(@Args('gameId', { type: () => ID, description: 'The game' }) gameId: string, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return rejectGameId(gameId) ?? toMoveResult(await this.referee.pauseClock(gameId, tokenOf(ctx)));
  }

  @Needs('play')
  @Mutation(() => MoveResult, {
    description:
      "The caller's seat declines the other seats' request to pause: every request is withdrawn and the clocks run on (PAUSE_CONFLICT when no other seat asks, the caller asked itself, or the clocks are paused)",
  })
  async declinePause(@Args('gameId', { type: () => ID, description: 'The game' }) gameId: string, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return rejectGameId(gameId) ?? toMoveResult(await this.referee.declinePause(gameId, tokenOf(ctx)));
  }

  @Needs('play')
  @Mutation(() => MoveResult, {
    description:
      "The caller's seat asks to resume the seats' pause: the clocks run again once every seat asked. The organizer of the game's tournament resumes any pause at once (only it resumes its own)",
  })
  async resumeClock(@Args('gameId', { type: () => ID, description: 'The game' }) gameId: string, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return rejectGameId(gameId) ?? toMoveResult(await this.referee.resumeClock(gameId, tokenOf(ctx)));
  }

  @Limits({ expensive: true, creates: true })
  @Needs('create_games')
  @Mutation(() => CreateGameResult, { complexity: 100, description: "Replays a record in the game's own format into a new game" })
  async importGame(
    @Args('kind', { description: 'The game kind of the record (one of gameKinds)' }) kind: string,
    @Args('record', { description: "The record's text: a GNU Backgammon .mat, an arbiter-chicken-foot/1 JSON or a cerke_online record" }) record: string,
  ): Promise<typeof CreateGameResult> {
    return answerOrRejection(async () => {
      const { game, tokens } = await this.referee.importRecord(kind, record);
      return { game: toGame(game), tokens };
    });
  }

  @Needs('read')
  @Subscription(() => GameEvent, {
    name: 'gameEvents',
    description: "A game's events as the caller may see them, starting after `afterSeq` (resumable)",
    // Over graphql-ws this serves each event (over HTTP it refuses: requireWebSocket).
    resolve: (e: GameEvent, _args: unknown, ctx: GqlContext | undefined) => {
      requireWebSocket(ctx);
      return e;
    },
  })
  async subscribeGameEvents(
    @Args('gameId', { type: () => ID, description: 'The game' }) gameId: string,
    @Args('afterSeq', { type: () => Int, nullable: true, defaultValue: 0, description: 'Start after this seq (0: from the first event); resume with the last seq received' }) afterSeq: number | null,
    @Context() ctx: GqlContext,
  ) {
    gameIdOf(gameId);
    const after = checkAfterSeq(afterSeq);
    const viewer = await this.viewer(gameId, ctx);
    const game = await this.referee.game(gameId);
    return mapped(gameEventStream(this.referee, gameId, after, viewer), (e) => asGameEvent(game, e));
  }

  // -------------------------------------------------------------- Game fields

  @ResolveField(() => Int, { nullable: true, description: "The caller's seat in this game, if the token holds one" })
  async mySeat(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<number | null> {
    return (await shownTo(this.referee, game, ctx)).answer.seat;
  }

  @ResolveField(() => JSONScalar, { description: 'The game as the caller may see it (spectators: public information only)' })
  async view(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<unknown> {
    return (await shownTo(this.referee, game, ctx)).answer.view;
  }

  @ResolveField(() => [JSONScalar], { description: "Every legal action for the caller's seat now" })
  async legalActions(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<unknown[]> {
    return (await shownTo(this.referee, game, ctx)).answer.legalActions;
  }

  @ResolveField(() => [Int], { description: "Seat indexes that may act now (the same in every game's typed state); empty while a chance is drawn, seats are open or the game is over" })
  async toAct(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<number[]> {
    return (await shownTo(this.referee, game, ctx)).answer.toAct;
  }

  @ResolveField(() => GameClock, { nullable: true, description: 'The clocks as of this request; null for a game without a time control' })
  async clock(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<GameClock | null> {
    const { clock } = (await shownTo(this.referee, game, ctx)).answer;
    return clock && toGameClock(clock);
  }

  @ResolveField(() => JSONScalar, { nullable: true, description: 'The outcome, once the game is over (typed: outcome)' })
  async result(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<unknown> {
    return (await shownTo(this.referee, game, ctx)).answer.outcome;
  }

  @ResolveField(() => GameOutcome, { nullable: true, description: 'How the game ended, typed; null while it goes on (result is the same as JSON)' })
  async outcome(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<GameOutcome | null> {
    const { outcome } = (await shownTo(this.referee, game, ctx)).answer;
    return outcome && typedOutcome(game.kind, outcome);
  }

  @ResolveField(() => Fairness, { description: "How this game's randomness can be checked: the seed commitment, the server seed once revealed, and the client seeds" })
  async fairness(@Parent() game: GameModel, @Context() ctx: GqlContext): Promise<Fairness> {
    return (await shownTo(this.referee, game, ctx)).answer.fairness;
  }

  private async viewer(gameId: string, ctx: GqlContext): Promise<Viewer> {
    return this.referee.viewerOf(gameId, tokenOf(ctx));
  }
}

/** A past state keeps the game as it was then and its answer, for its typed state (src/api/typed-answers.module.ts). */
type PastGameModel = PastGame & { shown: GameShownTo };

@Resolver(() => MoveAccepted)
export class MoveAcceptedResolver {
  constructor(private readonly referee: RefereeService) {}

  @ResolveField(() => JSONScalar, { description: "The game as the mover sees it now (a tournament's organizer: as a spectator)" })
  view(@Parent() move: MoveAcceptedModel): unknown {
    return this.referee.answer(move.snapshot, move.viewer).view;
  }

  @ResolveField(() => [JSONScalar], { description: "The mover's legal actions now (none for a tournament's organizer)" })
  legalActions(@Parent() move: MoveAcceptedModel): unknown[] {
    return this.referee.answer(move.snapshot, move.viewer).legalActions;
  }

  @ResolveField(() => Game, { description: "The game at this move's version or later, its seat-specific fields (state, legalMoves) for the caller: no second query needed" })
  game(@Parent() move: MoveAcceptedModel): GameModel {
    return toGame(move.snapshot);
  }
}

/** `afterSeq` as given (an explicit null is the default, 0); a negative one is refused before any read. */
function checkAfterSeq(afterSeq: number | null): number {
  const after = afterSeq ?? 0;
  if (!Number.isInteger(after) || after < 0) throw new RefereeError('INVALID_INPUT', 'afterSeq must be a whole number (0 or more)');
  return after;
}

/** `GameConnection.totalCount`: counted only when asked for. */
@Resolver(() => GameConnection)
export class GameConnectionResolver {
  @ResolveField(() => Int, { description: 'How many games match the filter, on all pages' })
  totalCount(@Parent() connection: GameConnection): Promise<number> {
    return connection.count();
  }
}

/**
 * A Game's game and its answer for the caller, made once per Game (a list's game is read here:
 * one that cannot load answers its own code on its fields). A token of another game reads as a
 * spectator's (lists mix games).
 */
export async function shownTo(referee: RefereeService, game: GameModel, ctx: GqlContext): Promise<GameShownTo> {
  game.shown ??= (async () => {
    const snapshot = game.snapshot ?? (await referee.game(game.id));
    const viewer = await referee.viewerOf(game.id, tokenOf(ctx)).catch((err: unknown) => {
      if (err instanceof RefereeError && err.code === 'UNAUTHORIZED') return 'spectator' as const;
      throw err;
    });
    return { game: snapshot, answer: referee.answer(snapshot, viewer) };
  })();
  try {
    return await game.shown;
  } catch (err) {
    throw asGraphQLError(err);
  }
}
