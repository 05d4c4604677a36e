import type { Result } from '../../src/engines/kit/index.js';
import type { DecideContext, Decision, GameCommand, GameDecider } from '../../src/referee/core/game/commands.js';
import type { GameState } from '../../src/referee/core/game/state.js';
import { advanceHead, chainEvents, emptyHead, type Folded, type StoredEvent } from '../../src/referee/core/stream.js';

/** A game's stored events and its folded head: a game played without a database. */
export interface History {
  events: StoredEvent[];
  game: Folded<GameState> | null;
}

/**
 * Decides `command` on a history and, when accepted, chains its events onto it and advances the
 * head as the referee stores them; a refusal leaves the history as it was.
 */
export function decideOn(decider: GameDecider, gameId: string, h: History, command: GameCommand, ctx: DecideContext): { result: Result<Decision>; next: History } {
  const result = decider.decide(command, h.game, ctx);
  if (!result.ok) return { result, next: h };
  const events = chainEvents(
    gameId,
    h.game ?? emptyHead(),
    result.value.steps.map((s) => s.draft),
  );
  const game = { ...result.value.game, ...advanceHead(h.game ?? emptyHead(), events, decider.follows) };
  return { result, next: { events: [...h.events, ...events], game } };
}
