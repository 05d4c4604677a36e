import type { EngineRegistry } from '../engine-registry.js';
import { type Folded, finish, foldInSlices, type FoldOptions, type StoredEvent } from '../stream.js';
import { gameDecider } from './decider.js';
import type { GameEvent } from './events.js';
import type { GameState } from './state.js';

/**
 * A game's stream folded and checked: chain, ruleset, seed commitment, every fair draw (when
 * the seed is known: the referee's own, or the revealed one offline) and every move.
 */
export function foldGame(registry: EngineRegistry, gameId: string, events: readonly StoredEvent[], serverSeed: string | null, opts: FoldOptions<GameState, GameEvent> = {}): Folded<GameState> {
  return finish(foldGameInSlices(registry, gameId, events, serverSeed, opts));
}

/** The same, pausing between slices of the stream (see foldInSlices). */
export function foldGameInSlices(
  registry: EngineRegistry,
  gameId: string,
  events: readonly StoredEvent[],
  serverSeed: string | null,
  opts: FoldOptions<GameState, GameEvent> = {},
): Generator<void, Folded<GameState>> {
  return foldInSlices(gameDecider(registry), gameId, events, { serverSeed }, opts);
}
