import type { Engine } from '../engines/kit/index.js';
import { EngineRegistry } from '../referee/core/engine-registry.js';
import { backgammon } from './backgammon/index.js';
import { cerke } from './cerke/index.js';
import { chickenFoot } from './chicken-foot/index.js';
import type { GamePackage } from './game-package.js';
import { spelledRuleset } from './ruleset-spellings.js';

/**
 * Every game this referee ships, and the only list of them: the service, its schema, the offline
 * verifier and the record parser's thread take the games from here. Adding a game: its folder
 * (src/games/<game>/, its engine in engine/) and one line here.
 */
export const GAMES: readonly GamePackage[] = [backgammon, chickenFoot, cerke];

export const ENGINES: readonly Engine<any, any, any>[] = GAMES.map((g) => g.engine);

export const createRegistry = (): EngineRegistry => EngineRegistry.of(ENGINES);

/** A JSON ruleset with each word of a known option in the engine's spelling (see spelledRuleset); a kind not shipped is left as given. */
export function normaliseRuleset(kind: string, ruleset: unknown): unknown {
  const game = GAMES.find((g) => g.engine.kind === kind);
  return game ? spelledRuleset(game.rulesetChoices, ruleset) : ruleset;
}
