import { Args, Context, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { tokenOf, type GqlContext } from '../../api/caller.js';
import { Limits } from '../../api/limits.js';
import { JSONScalar } from '../../api/json.scalar.js';
import { gameIdOf, rejectGameId, timeControlOf, toMoveResult } from '../../api/mapping.js';
import { CreateGameResult, MoveResult } from '../../api/models.js';
import { chickenFootEngine, rulesetWarnings, type ChickenFootAction } from './engine/index.js';
import { type GameSnapshot, RefereeService } from '../../referee/index.js';
import { ChickenFootLegalActions, ChickenFootRulesetCheck } from './dto/answers.js';
import { ChickenFootGameInput } from './dto/game.input.js';
import { ChickenFootMoveArgs, ChickenFootPlayArgs } from './dto/move.args.js';
import { ChickenFootTable } from './dto/table.js';
import { toLegalActions, toTable } from './mapping.js';
import { organizerChance, rulesetOf } from './setup.js';
import { spelledRuleset } from '../ruleset-spellings.js';
import { CHICKEN_FOOT_CHOICES } from './ruleset-choices.js';
import { checkRuleset, createTypedGame, parsedRuleset, seatPlans } from '../rulesets.js';
import { Needs } from '../../api/scopes.js';

/** Chicken Foot's typed API: each mutation is one engine action; the referee and the engine decide everything. */
@Resolver()
export class ChickenFootResolver {
  constructor(private readonly referee: RefereeService) {}

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Play a tile from your hand on an open target: "hub" or the tile on the table it attaches to' })
  chickenFootPlay(@Args() { tile, target, announce, ...move }: ChickenFootPlayArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'play', tile, target, ...(announce ? { announce: true as const } : {}) });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Draw a tile from the yard (only when you have no play)' })
  chickenFootDraw(@Args() move: ChickenFootMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'draw' });
  }

  @Needs('play')
  @Mutation(() => MoveResult, { description: 'Pass the turn (when you cannot play and may not draw)' })
  chickenFootPass(@Args() move: ChickenFootMoveArgs, @Context() ctx: GqlContext): Promise<typeof MoveResult> {
    return this.act(move, ctx, { type: 'pass' });
  }

  @Limits({ creates: true })
  @Needs('create_games')
  @Mutation(() => CreateGameResult, {
    complexity: 10,
    description: 'Create a Chicken Foot game with a typed ruleset; with `deals` the rounds are dealt exactly as the organizer prepared them (the game is then marked randomSource "supplied")',
  })
  createChickenFootGame(@Args('input', { description: 'The ruleset, the seats, the clock and any organizer deals' }) input: ChickenFootGameInput): Promise<typeof CreateGameResult> {
    return createTypedGame(this.referee, () => {
      const ruleset = rulesetOf(input.ruleset);
      return {
        kind: chickenFootEngine.kind,
        ruleset,
        seats: seatPlans(input.seats),
        suppliedChance: organizerChance(parsedRuleset(chickenFootEngine, ruleset), input.deals ?? [], input.drawnFirstDealer ?? null),
        timeControl: timeControlOf(input.timeControl),
        rated: input.rated === true,
      };
    });
  }

  @Needs('read')
  @Query(() => ChickenFootRulesetCheck, {
    description: 'Check a ruleset (JSON, as createGame takes it; choices in either spelling, e.g. "malta-cross" or "MALTA_CROSS") without creating a game: its resolved options and any warnings',
  })
  chickenFootRulesetCheck(
    @Args('ruleset', { type: () => JSONScalar, description: 'The ruleset JSON to check: preset, players and any other options by name' }) ruleset: unknown,
  ): ChickenFootRulesetCheck {
    return checkRuleset(chickenFootEngine, spelledRuleset(CHICKEN_FOOT_CHOICES, ruleset), rulesetWarnings, () => null);
  }

  @Needs('read')
  @Query(() => ChickenFootTable, {
    description: "The table as the caller may see it: its own hand (none for spectators), every seat's tile count, the table tree, scores, and finished rounds in full",
  })
  async chickenFootTable(@Args('gameId', { type: () => ID, description: 'A Chicken Foot game' }) gameId: string, @Context() ctx: GqlContext): Promise<ChickenFootTable> {
    const game = await this.chickenFootGame(gameId);
    const viewer = await this.referee.viewerOf(gameId, tokenOf(ctx));
    return toTable(game, this.referee.answer(game, viewer));
  }

  @Needs('read')
  @Query(() => ChickenFootLegalActions, { description: "Every legal play of the caller's seat now (tile and target), or whether it may draw or pass" })
  async chickenFootLegalActions(@Args('gameId', { type: () => ID, description: 'A Chicken Foot game' }) gameId: string, @Context() ctx: GqlContext): Promise<ChickenFootLegalActions> {
    const game = await this.chickenFootGame(gameId);
    const answer = this.referee.answer(game, await this.referee.viewerOf(gameId, tokenOf(ctx)));
    return toLegalActions(answer.seat, answer.legalActions as ChickenFootAction[]);
  }

  @Limits({ expensive: true })
  @Needs('read')
  @Query(() => String, { complexity: 50, description: 'The game record (arbiter-chicken-foot/1 JSON), once the game is over: until then it would reveal the hands' })
  async chickenFootRecord(@Args('gameId', { type: () => ID, description: 'A Chicken Foot game' }) gameId: string): Promise<string> {
    await this.chickenFootGame(gameId);
    return (await this.referee.record(gameId)).text;
  }

  /** The game, refused unless it is Chicken Foot: these typed actions mean nothing to another engine. */
  private chickenFootGame(gameId: string): Promise<GameSnapshot> {
    return this.referee.game(gameIdOf(gameId), chickenFootEngine.kind);
  }

  private async act(move: ChickenFootMoveArgs, ctx: GqlContext, action: ChickenFootAction): Promise<typeof MoveResult> {
    return rejectGameId(move.gameId) ?? toMoveResult(await this.referee.act(move.gameId, tokenOf(ctx), move.moveId, action, move.expectedVersion, chickenFootEngine.kind));
  }
}
