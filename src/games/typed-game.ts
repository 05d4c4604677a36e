/** What each game adds to the generic API's typed answers (src/api/typed-answers.module.ts serves them). */
import type { Type } from '@nestjs/common';
import { Field, ObjectType } from '@nestjs/graphql';
import { toGameClock } from '../api/mapping.js';
import { GameClock } from '../api/models.js';
import type { Outcome } from '../engines/kit/index.js';
import { type GameAnswer, type GameSnapshot } from '../referee/index.js';

/**
 * One game's typed answers, each built from what the referee serves the caller: the game's
 * answer for that viewer (the engine's view, legal actions, clocks), an event as served to it.
 * The generic API serves each as an instance of its class, so the unions over the games
 * (GameState, LegalMoves, OutcomeDetail, GameAction) resolve by class.
 */
export interface TypedAnswers<State extends GameShown = GameShown, Legal extends object = object, Detail extends object = object, Action extends object = object> {
  /** The GraphQL classes of its answers: this game's members of the unions over the games. */
  classes: { state: Type<State>; legalMoves: Type<Legal>; outcome: Type<Detail>; action: Type<Action> };
  /** The game as its answer shows it to the caller. */
  state(game: GameSnapshot, answer: GameAnswer): State;
  /** The caller's legal actions (none for spectators). */
  legalMoves(game: GameSnapshot, answer: GameAnswer): Legal;
  /** The game-specific part of an outcome (its `details`, typed); null if it has none. */
  outcomeDetail(outcome: Outcome): Detail | null;
  /** An action as an ActionTaken event serves it (through the engine's action view while the game runs). */
  action(served: unknown): Action;
  /** Drawn chance values in the game's own terms (backgammon pips 1-6); omitted: as drawn. */
  chanceValues?(values: number[]): number[];
}

/** What every game's typed state shows besides its own fields. */
@ObjectType({ isAbstract: true })
export abstract class GameShown {
  @Field(() => GameClock, {
    nullable: true,
    description: "The clocks, as Game.clock answers them: as of this request; in a state of the game's past (gameStateAt), as they stood at its last event. Null for a game without a time control",
  })
  clock: GameClock | null;
}

/** The fields every typed state takes from the game's answer. */
export const shownIn = (answer: GameAnswer): GameShown => ({ clock: answer.clock && toGameClock(answer.clock) });
