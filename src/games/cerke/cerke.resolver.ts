import { Args, Context, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { tokenOf, type GqlContext } from '../../api/caller.js';
import { Limits } from '../../api/limits.js';
import { gameIdOf, rejectGameId, timeControlOf, toMoveResult } from '../../api/mapping.js';
import { CreateGameResult, MoveResult } from '../../api/models.js';
import { cerkeEngine, type CerkeAction } from './engine/index.js';
import { type GameSnapshot, RefereeService } from '../../referee/index.js';
import { toCerkeState } from './cerke.mapping.js';
import { CerkeCompleteStepArgs, CerkeDropArgs, CerkeLegalAction, CerkeMoveArgs, CerkeMoveTam2Args, CerkeTurnArgs } from './dto/actions.js';
import { CerkeGameInput, CerkeRulesetCheck, CerkeRulesetInput } from './dto/ruleset.js';
import { CerkeStateModel } from './dto/state.model.js';
import { cerkeRulesetWarnings } from './ruleset.js';
import { checkRuleset, createTypedGame, definedOptions, seatPlans } from '../rulesets.js';
import { Needs } from '../../api/scopes.js';

/** GraphQL passes an omitted optional argument as null or leaves it out; the engine's action JSON leaves it out. */
const compact = <T extends Record<string, unknown>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]: Exclude<T[K], null> };

/** Cerke's typed API. Thin: the engine validates and judges every action, the referee stores it. */
@Resolver()
export class CerkeResolver {
  constructor(private readonly referee: RefereeService) {}

  @Needs('play')
  @Mutation(() => MoveResult, {
    description:
      "Move one of your pieces, directly or stepping on `via`. When the leg after `via` is limited by a stick cast, the sticks are cast at once (a SticksCast event among the result's events); then complete or abandon the step.",
  })
  cerkeMove(@Args() { from, via, to, ...turn }: CerkeMoveArgs, @Context() ctx: GqlContext) {
    return this.act(ctx, turn, compact({ type: 'move' as const, from, via, to }));
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'After the stepping cast: end the stick-limited leg on `to` (entering water casts the sticks again)' })
  cerkeCompleteStep(@Args() { to, ...turn }: CerkeCompleteStepArgs, @Context() ctx: GqlContext) {
    return this.act(ctx, turn, { type: 'completeStep', to });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'After the stepping cast: leave the piece on its square; the turn ends' })
  cerkeAbandonStep(@Args() turn: CerkeTurnArgs, @Context() ctx: GqlContext) {
    return this.act(ctx, turn, { type: 'abandonStep' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Put a piece of your captured pile (hop1zuo1) on an empty square, as your own' })
  cerkeDrop(@Args() { colour, kind, to, ...turn }: CerkeDropArgs, @Context() ctx: GqlContext) {
    return this.act(ctx, turn, { type: 'drop', colour, kind, to });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Move Tam2 two King steps onto empty squares, stepping on at most one occupied square on the way' })
  cerkeMoveTam2(@Args() { firstSquare, to, via, stepDuring, ...turn }: CerkeMoveTam2Args, @Context() ctx: GqlContext) {
    return this.act(ctx, turn, compact({ type: 'moveTam2' as const, firstSquare, to, via, stepDuring }));
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'ty mok1 after making a new hand: play on; the stake doubles' })
  cerkeDeclareContinue(@Args() turn: CerkeTurnArgs, @Context() ctx: GqlContext) {
    return this.act(ctx, turn, { type: 'continue' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: "ta xot1 after making a new hand: end the season and take the hands' value times the stake" })
  cerkeDeclareEndSeason(@Args() turn: CerkeTurnArgs, @Context() ctx: GqlContext) {
    return this.act(ctx, turn, { type: 'endSeason' });
  }

  @Limits({ creates: true })
  @Needs('create_games')
  @Mutation(() => CreateGameResult, { complexity: 10, description: 'Create a Cerke game with a typed ruleset' })
  createCerkeGame(@Args('input', { description: 'The ruleset, the seats and the clock' }) input: CerkeGameInput): Promise<typeof CreateGameResult> {
    return createTypedGame(this.referee, () => ({
      kind: cerkeEngine.kind,
      ruleset: definedOptions(input.ruleset ?? {}),
      seats: seatPlans(input.seats),
      timeControl: timeControlOf(input.timeControl),
      rated: input.rated === true,
    }));
  }

  @Needs('read')
  @Query(() => CerkeRulesetCheck, { description: 'Check a Cerke ruleset without creating a game: every option resolved, and warnings' })
  cerkeRulesetCheck(
    @Args('ruleset', { type: () => CerkeRulesetInput, nullable: true, description: 'The options to check; omitted: the defaults' }) ruleset: CerkeRulesetInput | null,
  ): CerkeRulesetCheck {
    return checkRuleset(cerkeEngine, definedOptions(ruleset ?? {}), cerkeRulesetWarnings, (r) => r);
  }

  @Needs('read')
  @Query(() => CerkeStateModel, { name: 'cerkeState', description: 'The board, both captured piles and their hands, points, stake, season, turn, pending decision and last stick cast' })
  async cerkeState(@Args('gameId', { type: () => ID, description: 'A Cerke game' }) gameId: string, @Context() ctx: GqlContext): Promise<CerkeStateModel> {
    const game = await this.cerkeGame(gameId);
    const viewer = await this.referee.viewerOf(gameId, tokenOf(ctx));
    return toCerkeState(game, this.referee.answer(game, viewer));
  }

  @Needs('read')
  @Query(() => [CerkeLegalAction], { description: "Every legal action for the caller's seat now (empty for spectators and out of turn)" })
  async cerkeLegalActions(@Args('gameId', { type: () => ID, description: 'A Cerke game' }) gameId: string, @Context() ctx: GqlContext): Promise<CerkeAction[]> {
    const game = await this.cerkeGame(gameId);
    return this.referee.answer(game, await this.referee.viewerOf(gameId, tokenOf(ctx))).legalActions as CerkeAction[];
  }

  @Limits({ expensive: true })
  @Needs('read')
  @Query(() => String, { complexity: 50, description: 'The game as a cerke_online record (as GET /api/games/:id/record serves it)' })
  async cerkeRecord(@Args('gameId', { type: () => ID, description: 'A Cerke game' }) gameId: string): Promise<string> {
    await this.cerkeGame(gameId);
    return (await this.referee.record(gameId)).text;
  }

  /** The game, refused unless it is Cerke: these typed actions mean nothing to another engine. */
  private cerkeGame(gameId: string): Promise<GameSnapshot> {
    return this.referee.game(gameIdOf(gameId), cerkeEngine.kind);
  }

  private async act(ctx: GqlContext, { gameId, moveId, expectedVersion }: CerkeTurnArgs, action: CerkeAction): Promise<typeof MoveResult> {
    return rejectGameId(gameId) ?? toMoveResult(await this.referee.act(gameId, tokenOf(ctx), moveId, action, expectedVersion, cerkeEngine.kind));
  }
}
