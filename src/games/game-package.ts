import type { Type } from '@nestjs/common';
import type { Engine } from '../engines/kit/index.js';
import type { TypedAnswers } from './typed-game.js';

/**
 * Everything the service needs of one game: `src/games/<game>/index.ts` exports it, and the list
 * in `src/games/index.ts` names it. What is plain data is here; its API (a Nest module and the
 * GraphQL classes) is loaded when the service is built, so the engine list alone (the record
 * parser's thread, the offline verifier) loads no framework.
 */
export interface GamePackage {
  /** The rules (src/engines/<game>/); its `pointsOrder` tells tournaments how its game points rank. */
  engine: Engine<any, any, any>;
  /** Per ruleset option whose values are words, those words (the engine's spelling): a JSON ruleset may also spell them as the typed API does (MALTA_CROSS). */
  rulesetChoices: Readonly<Record<string, readonly string[]>>;
  /** The refusal codes only this game gives, each with what it means (the RejectionCode enum lists them with the shared ones). */
  rejectionCodes: Readonly<Record<string, string>>;
  /** Its board on the web page (web/src/boards/, registered in its index.ts), from the repository root; null: the page shows its view as JSON. */
  board: string | null;
  /** Its example bot (clients/typescript/examples/, run by all.ts), from the repository root; null: none. */
  exampleBot: string | null;
  api(): Promise<GameApi>;
}

/** A game's API: its own queries and mutations, and its typed answers on the generic API. */
export interface GameApi {
  module: Type;
  typed: TypedAnswers;
}

/** A game with its API loaded, as the service is built from it. */
export type ServedGame = Omit<GamePackage, 'api'> & GameApi;

export const served = async (game: GamePackage): Promise<ServedGame> => {
  const { api, ...rest } = game;
  return { ...rest, ...(await api()) };
};
