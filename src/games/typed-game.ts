/** What each game adds to the generic API's typed answers (src/api/typed.ts serves them). */
import type { Outcome, Viewer } from '../engines/kit/index.js';
import type { LiveGame } from '../referee/index.js';

/**
 * One game's typed answers, each built from what the referee serves the caller: the engine's
 * view for that viewer, its legal actions, an event as served to it. Each answer is an instance
 * of its GraphQL class (see `typedAs`), so the unions over the games resolve by class.
 */
export interface TypedGame<State extends GameShown = GameShown, Legal extends object = object, Detail extends object = object, Action extends object = object> {
  /** The game as `view` (the engine's view for the caller) shows it. */
  state(game: LiveGame, view: unknown): State;
  /** The viewer's legal actions (the engine's, empty for spectators). */
  legalMoves(game: LiveGame, viewer: Viewer, actions: unknown[]): Legal;
  /** The game-specific part of an outcome (its `details`, typed); null if it has none. */
  outcomeDetail(outcome: Outcome): Detail | null;
  /** An action as an ActionTaken event serves it (through the engine's action view while the game runs). */
  action(served: unknown): Action;
  /** Drawn chance values in the game's own terms (backgammon pips 1-6); omitted: as drawn. */
  chanceValues?(values: number[]): number[];
}

/**
 * What each game's typed state holds besides its fields: the game it shows, as it stood then (a
 * past one for gameStateAt). Not a field: the state's `clock` is resolved from it (src/api/typed.resolver.ts).
 */
export abstract class GameShown {
  live: LiveGame;
}

/** `data` as an instance of its GraphQL class: a union's resolveType names the class of what it is given. */
export const typedAs = <T extends object>(cls: abstract new () => T, data: T): T => Object.assign(Object.create(cls.prototype) as T, data);
