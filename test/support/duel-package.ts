import { Module } from '@nestjs/common';
import { Args, Field, ID, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { toGameClock } from '../../src/api/mapping.js';
import type { GamePackage } from '../../src/games/game-package.js';
import { GameShown, type TypedAnswers } from '../../src/games/typed-game.js';
import type { Outcome } from '../../src/engines/kit/index.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { type DuelAction, duelEngine } from './duel-engine.js';

/** The test-only duel as a full game package: its own query, and typed state, moves, outcome and actions on the generic API. */

@ObjectType({ description: 'A duel as the caller may see it' })
export class DuelState extends GameShown {
  @Field(() => [Int], { description: "The caller's hand (empty for others and spectators)" }) hand: number[];
  @Field(() => [[Int]], { description: 'The cards each seat played, seat 0 first' }) played: number[][];
  @Field(() => Int, { description: 'The seat to play' }) turn: number;
}

@ObjectType({ description: "The cards the caller's seat may play now" })
export class DuelLegalMoves {
  @Field(() => [Int], { description: 'Playable cards' }) cards: number[];
}

@ObjectType({ description: 'How a duel ended' })
export class DuelOutcome {
  @Field(() => [Int], { description: 'Each seat’s score' }) scores: number[];
}

@ObjectType({ description: 'A card played' })
export class DuelCardPlayed {
  @Field(() => Int, { description: 'The card' }) card: number;
}

type DuelView = { hands: (number[] | number)[]; played: number[][]; turn: number };

const duelTyped: TypedAnswers<DuelState, DuelLegalMoves, DuelOutcome, DuelCardPlayed> = {
  classes: { state: DuelState, legalMoves: DuelLegalMoves, outcome: DuelOutcome, action: DuelCardPlayed },
  state: (_game, answer) => {
    const view = answer.view as DuelView;
    const own = answer.seat === null ? [] : view.hands[answer.seat];
    return { hand: Array.isArray(own) ? own : [], played: view.played, turn: view.turn, clock: answer.clock && toGameClock(answer.clock) };
  },
  legalMoves: (_game, answer) => ({ cards: (answer.legalActions as DuelAction[]).map((a) => a.card) }),
  outcomeDetail: (outcome: Outcome) => ({ scores: outcome.points }),
  action: (served) => ({ card: (served as DuelAction).card }),
};

@Resolver()
class DuelResolver {
  constructor(private readonly referee: RefereeService) {}

  @Query(() => DuelState, { description: 'A duel, as a spectator sees it' })
  async duelState(@Args('gameId', { type: () => ID, description: 'A duel' }) gameId: string): Promise<DuelState> {
    const game = await this.referee.game(gameId, duelEngine.kind);
    return duelTyped.state(game, this.referee.answer(game, 'spectator'));
  }
}

@Module({ providers: [DuelResolver] })
class DuelModule {}

export const duel: GamePackage = {
  engine: duelEngine,
  rulesetChoices: {},
  rejectionCodes: {},
  board: null,
  exampleBot: null,
  api: async () => ({ module: DuelModule, typed: duelTyped }),
};
