import type { Engine } from '../engines/kit/index.js';
import { backgammonEngine } from '../engines/backgammon/index.js';
import { cerkeEngine } from '../engines/cerke/index.js';
import { chickenFootEngine } from '../engines/chicken-foot/index.js';
import { EngineRegistry } from '../referee/core/engine-registry.js';

/** Every engine this referee ships, for the service and the offline verifier alike. Adding a game: one line here. */
export const ENGINES: Engine<any, any, any>[] = [backgammonEngine, chickenFootEngine, cerkeEngine];

export const createRegistry = (): EngineRegistry => EngineRegistry.of(ENGINES);
