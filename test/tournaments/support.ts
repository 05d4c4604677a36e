import { createRegistry } from '../../src/games/index.js';
import type { Folded, StoredEvent } from '../../src/referee/core/stream.js';
import { foldTournament } from '../../src/referee/core/tournament/audit.js';
import type { TournamentConfigInput } from '../../src/referee/core/tournament/config.js';
import type { TournamentActor, TournamentCommand } from '../../src/referee/core/tournament/decider.js';
import type { GameResultPayload, ScheduledGame } from '../../src/referee/core/tournament/events.js';
import { resultFromOutcome } from '../../src/referee/core/tournament/results.js';
import type { TournamentState } from '../../src/referee/core/tournament/state.js';
import { type History, tournamentSpec } from '../support/given-when-then.js';

/**
 * A tournament driven through its pure decider, Given/When/Then (test/support/given-when-then.ts):
 * no database, no clock, no games (results arrive as the games' outcomes would give them). The
 * stream it builds is the one the service would store, so it can be folded and verified like a stored one.
 */
export const registry = createRegistry();
export const SEED = 'cd'.repeat(32);
const NOW = '2026-11-30T12:00:00.000Z';

export class Driver {
  private readonly spec: ReturnType<typeof tournamentSpec>;
  private history: History<TournamentState>;
  private games = 0;
  /** The time every decision is stamped with (a test moves it for a schedule's steps). */
  now = NOW;

  constructor(
    config: TournamentConfigInput,
    readonly id = 't-test',
  ) {
    this.spec = tournamentSpec(registry, id);
    this.history = this.spec.given([[{ type: 'CreateTournament', tournamentId: id, config }, this.ctx()]]);
  }

  get events(): StoredEvent[] {
    return this.history.events;
  }

  get t(): Folded<TournamentState> {
    return this.history.folded!;
  }

  private ctx(actor: TournamentActor = { role: 'organizer' }) {
    return { now: this.now, seed: SEED, newGameId: () => `g${++this.games}`, actor };
  }

  /** Decides a command; throws its refusal as `CODE: message`. */
  run(command: Exclude<TournamentCommand, { type: 'CreateTournament' }>, actor?: TournamentActor): StoredEvent[] {
    const before = this.history.events.length;
    this.history = this.spec.accepted(this.history, command, this.ctx(actor));
    return this.history.events.slice(before);
  }

  register(name: string, rating = 0): string {
    const id = `p-${name}`;
    this.run({ type: 'RegisterParticipant', participantId: id, name, rating });
    return id;
  }

  pair(): StoredEvent[] {
    return this.run({ type: 'PairRound', round: null });
  }

  /** The games of the current round waiting for a result. */
  openGames(): { round: number; board: number; game: ScheduledGame }[] {
    const round = this.t.rounds[this.t.rounds.length - 1];
    return round.boards.flatMap((b) => b.games.filter((g) => !b.results[g.gameId]).map((game) => ({ round: round.round, board: b.board, game })));
  }

  /** A game's end as the service would record it: winners and points per seat. */
  finish(scheduled: { round: number; board: number; game: ScheduledGame }, winners: number[], points: number[]): StoredEvent[] {
    const result: GameResultPayload = resultFromOutcome(this.t.config, scheduled, { winners, points }, { seq: 9, hash: `h-${scheduled.game.gameId}` });
    return this.run({ type: 'RecordResult', result, correction: false });
  }

  /** Folds the stream from scratch with every pairing recomputed. */
  refold(events = this.events, seed: string | null = SEED): Folded<TournamentState> {
    return foldTournament(registry, this.id, events, seed);
  }
}

export const names = (t: TournamentState, ids: readonly string[]) => ids.map((id) => t.participants.find((p) => p.id === id)?.name ?? id);
