import type { Result } from '../../src/engines/kit/index.js';
import type { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import type { DecideContext, Decision, GameCommand, GameDecider } from '../../src/referee/core/game/commands.js';
import type { GameState } from '../../src/referee/core/game/state.js';
import { decideTournament, type TournamentCommand, type TournamentDecideContext, type TournamentDecision, tournamentAggregate } from '../../src/referee/core/tournament/decider.js';
import type { TournamentState } from '../../src/referee/core/tournament/state.js';
import { type Aggregate, advanceHead, chainEvents, type DraftEvent, emptyHead, type Folded, type StoredEvent, type StreamHead } from '../../src/referee/core/stream.js';

/**
 * Any aggregate's decider, Given/When/Then: given the commands accepted so far, when one more
 * command is decided, then its events or its refusal. No database and no clock (time and seeds
 * are in the context): accepted events are chained and the head advanced as the store does, so
 * the stream folds and verifies like a stored one.
 */

/** What a spec needs of an aggregate: its decide, what an accepted decision stores, and which events follow a command. */
export interface Decides<S, Command, Context, Decided> extends Pick<Aggregate<S, unknown, unknown>, 'follows'> {
  decide(command: Command, state: Folded<S> | null, ctx: Context): Result<Decided>;
  /** The events an accepted decision appends, and the state after them. */
  stored(decided: Decided): { drafts: readonly DraftEvent[]; state: S };
}

/** One stream as decided so far: its stored events and its folded state (null before the first event). */
export interface History<S> {
  events: StoredEvent[];
  folded: Folded<S> | null;
}

export class DeciderSpec<S, Command extends { type: string }, Context, Decided> {
  /** No events yet. */
  readonly nothing: History<S> = { events: [], folded: null };

  constructor(
    readonly streamId: string,
    private readonly aggregate: Decides<S, Command, Context, Decided>,
  ) {}

  /** When: decides `command` on `h`; `next` has the accepted events chained on, a refusal leaves `h` as it was. */
  when(h: History<S>, command: Command, ctx: Context): { result: Result<Decided>; next: History<S> } {
    const result = this.aggregate.decide(command, h.folded, ctx);
    if (!result.ok) return { result, next: h };
    const { drafts, state } = this.aggregate.stored(result.value);
    const head: StreamHead = h.folded ?? emptyHead();
    const events = chainEvents(this.streamId, head, drafts);
    return { result, next: { events: [...h.events, ...events], folded: { ...state, ...advanceHead(head, events, this.aggregate.follows) } } };
  }

  /** `h` after `command`, which must be accepted: a refusal throws as `CODE: message (Command)`. */
  accepted(h: History<S>, command: Command, ctx: Context): History<S> {
    const { result, next } = this.when(h, command, ctx);
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message} (${command.type})`);
    return next;
  }

  /** Given: the history of these commands, each decided in its context and accepted, after `from`. */
  given(steps: Iterable<readonly [Command, Context]>, from: History<S> = this.nothing): History<S> {
    let h = from;
    for (const [command, ctx] of steps) h = this.accepted(h, command, ctx);
    return h;
  }

  /** Then: the types of the events decided, or the refusal's code. */
  eventsOrRefusal(result: Result<Decided>): string[] | string {
    return result.ok ? this.aggregate.stored(result.value).drafts.map((d) => d.type) : result.error.code;
  }
}

export type GameHistory = History<GameState>;

/** A game's stream, decided by `decider`. */
export const gameSpec = (decider: GameDecider, gameId: string) =>
  new DeciderSpec<GameState, GameCommand, DecideContext, Decision>(gameId, {
    decide: (command, game, ctx) => decider.decide(command, game, ctx),
    stored: (decision) => ({ drafts: decision.steps.map((s) => s.draft), state: decision.game }),
    follows: decider.follows,
  });

/** A tournament's stream, its games' kinds in `registry`. */
export const tournamentSpec = (registry: EngineRegistry, tournamentId: string) =>
  new DeciderSpec<TournamentState, TournamentCommand, TournamentDecideContext, TournamentDecision>(tournamentId, {
    decide: (command, tournament, ctx) => decideTournament(command, tournament, ctx, { registry }),
    stored: (decision) => decision,
    follows: tournamentAggregate.follows,
  });
