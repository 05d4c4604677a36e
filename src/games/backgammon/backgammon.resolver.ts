import { Args, Context, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { tokenOf, type GqlContext } from '../../api/caller.js';
import { Limits } from '../../api/limits.js';
import { gameIdOf, rejectGameId, timeControlOf, toMoveResult } from '../../api/mapping.js';
import { CreateGameResult, MoveResult } from '../../api/models.js';
import { backgammonEngine, legalPlays, playsForPosition, type BackgammonAction, type BackgammonState, type ResignationLevel } from './engine/index.js';
import { type GameSnapshot, RefereeError, RefereeService } from '../../referee/index.js';
import { checkRuleset, createTypedGame, seatPlans } from '../rulesets.js';
import { BackgammonResignationLevel } from './dto/enums.js';
import { BackgammonCheckerMoveInput, BackgammonMoveArgs, BackgammonPlay } from './dto/play.js';
import { BackgammonPosition } from './dto/position.js';
import { BackgammonGameInput, BackgammonRulesetCheck, BackgammonRulesetInput } from './dto/ruleset.js';
import { toPlay, toPosition } from './mapping.js';
import { backgammonRulesetJson, backgammonRulesetWarnings } from './ruleset.js';
import { Needs } from '../../api/scopes.js';

/** Backgammon's typed API: each mutation is one engine action; the referee and the engine decide everything. */
@Resolver()
export class BackgammonResolver {
  constructor(private readonly referee: RefereeService) {}

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Roll the dice to start your turn (when you do not double)' })
  backgammonRoll(@Args() move: BackgammonMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'roll' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Play the dice: one checker move per die used (four for doubles), e.g. 13/8 6/5 is [{from: 13, to: 8}, {from: 6, to: 5}]' })
  backgammonPlay(
    @Args() move: BackgammonMoveArgs,
    @Args('moves', { type: () => [BackgammonCheckerMoveInput], description: "The checker moves, one per die used, in the mover's own numbering (bar 25, off 0), in an order they can be played" })
    moves: BackgammonCheckerMoveInput[],
    @Context() ctx: GqlContext,
  ): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'play', moves });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Offer a double at the start of your turn, before rolling' })
  backgammonDouble(@Args() move: BackgammonMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'double' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Take the double: play on at the doubled stake, owning the cube' })
  backgammonTake(@Args() move: BackgammonMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'take' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Drop the double: lose the game at the stake before the double' })
  backgammonDrop(@Args() move: BackgammonMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'drop' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Beaver (money play): take the double and redouble at once, keeping the cube' })
  backgammonBeaver(@Args() move: BackgammonMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'beaver' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Raccoon (money play): answer a beaver by redoubling again, keeping the cube' })
  backgammonRaccoon(@Args() move: BackgammonMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'raccoon' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Offer to resign the current game at a level; your opponent accepts or rejects (resignGame concedes the whole match)' })
  backgammonOfferResignation(
    @Args() move: BackgammonMoveArgs,
    @Args('level', { type: () => BackgammonResignationLevel, description: 'What your opponent wins if he accepts: a single game, a gammon or a backgammon (times the cube)' }) level: ResignationLevel,
    @Context() ctx: GqlContext,
  ): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'resign', level });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: "Accept your opponent's resignation: you win the game at the level offered" })
  backgammonAcceptResignation(@Args() move: BackgammonMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'acceptResignation' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: "Reject your opponent's resignation: the game goes on" })
  backgammonRejectResignation(@Args() move: BackgammonMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'rejectResignation' });
  }

  @Needs('read')
  @Query(() => BackgammonPosition, { description: 'The board, dice, cube, score and whose turn, typed, with the gnubg Position ID and Match ID' })
  async backgammonPosition(@Args('gameId', { type: () => ID, description: 'A backgammon game' }) gameId: string): Promise<BackgammonPosition> {
    const game = await this.backgammonGame(gameId);
    return toPosition(game, this.referee.answer(game, 'spectator'));
  }

  @Limits({ creates: true })
  @Needs('create_games')
  @Mutation(() => CreateGameResult, { complexity: 10, description: 'Create a backgammon game (a money game or a match) with a typed ruleset' })
  createBackgammonGame(@Args('input', { description: 'The ruleset, the seats and the clock' }) input: BackgammonGameInput): Promise<typeof CreateGameResult> {
    return createTypedGame(this.referee, () => ({
      kind: backgammonEngine.kind,
      ruleset: backgammonRulesetJson(input.ruleset),
      seats: seatPlans(input.seats),
      timeControl: timeControlOf(input.timeControl),
      rated: input.rated === true,
    }));
  }

  @Needs('read')
  @Query(() => BackgammonRulesetCheck, { description: 'Check a backgammon ruleset without creating a game: every option resolved, and warnings' })
  backgammonRulesetCheck(
    @Args('ruleset', { type: () => BackgammonRulesetInput, nullable: true, description: 'The options to check; omitted: the defaults' }) ruleset: BackgammonRulesetInput | null,
  ): BackgammonRulesetCheck {
    return checkRuleset(backgammonEngine, backgammonRulesetJson(ruleset), backgammonRulesetWarnings, (r) => ({ ...r, autoPlayForced: r.autoPlayForced === true }));
  }

  @Needs('read')
  @Query(() => [BackgammonPlay], { description: 'Every legal play of the dice rolled, one per distinct resulting position; empty unless dice await a play' })
  async backgammonLegalPlays(@Args('gameId', { type: () => ID, description: 'A backgammon game' }) gameId: string): Promise<BackgammonPlay[]> {
    const game = await this.backgammonGame(gameId);
    return legalPlays(game.state as BackgammonState).map(toPlay);
  }

  @Needs('read')
  @Query(() => [BackgammonPlay], { description: 'Analysis, no game needed: every legal play for the side on roll in a gnubg Position ID with these dice; empty when the roll cannot be played' })
  backgammonPlays(
    @Args('positionId', { description: 'A GNU Backgammon Position ID (14 characters), seen from the side on roll' }) positionId: string,
    @Args('dice', { type: () => [Int], description: 'Two dice, 1-6 each' }) dice: number[],
  ): BackgammonPlay[] {
    const plays = playsForPosition(positionId, dice);
    if (!plays.ok) throw new RefereeError(plays.error.code, plays.error.message);
    return plays.value.map(toPlay);
  }

  @Limits({ expensive: true })
  @Needs('read')
  @Query(() => String, { complexity: 50, description: 'The game as a GNU Backgammon .mat record' })
  async backgammonRecord(@Args('gameId', { type: () => ID, description: 'A backgammon game' }) gameId: string): Promise<string> {
    await this.backgammonGame(gameId);
    return (await this.referee.record(gameId)).text;
  }

  /** The game, refused unless it is backgammon: these typed actions mean nothing to another engine. */
  private backgammonGame(gameId: string): Promise<GameSnapshot> {
    return this.referee.game(gameIdOf(gameId), backgammonEngine.kind);
  }

  private async act(move: BackgammonMoveArgs, ctx: GqlContext, action: BackgammonAction): Promise<typeof MoveResult> {
    return rejectGameId(move.gameId) ?? toMoveResult(await this.referee.act(move.gameId, tokenOf(ctx), move.moveId, action, move.expectedVersion, backgammonEngine.kind));
  }
}
