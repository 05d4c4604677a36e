import { createRegistry } from '../../src/games/index.js';
import { foldTournament } from '../../src/referee/core/tournament/audit.js';
import type { TournamentConfigInput } from '../../src/referee/core/tournament/config.js';
import { decideTournament, type TournamentActor, type TournamentCommand, tournamentAggregate } from '../../src/referee/core/tournament/decider.js';
import type { GameResultPayload, ScheduledGame } from '../../src/referee/core/tournament/events.js';
import { resultFromOutcome } from '../../src/referee/core/tournament/results.js';
import type { TournamentState } from '../../src/referee/core/tournament/state.js';
import { advanceHead, chainEvents, emptyHead, type Folded, type StoredEvent } from '../../src/referee/core/stream.js';

/**
 * A tournament driven through its pure decider, Given/When/Then: no database, no clock, no
 * games (results arrive as the games' outcomes would give them). The stream it builds is the
 * one the service would store, so it can be folded and verified like a stored one.
 */
export const registry = createRegistry();
export const SEED = 'cd'.repeat(32);
const NOW = '2026-11-30T12:00:00.000Z';

export class Driver {
  events: StoredEvent[] = [];
  t: Folded<TournamentState>;
  private games = 0;

  constructor(
    config: TournamentConfigInput,
    readonly id = 't-test',
  ) {
    const decided = decideTournament({ type: 'CreateTournament', tournamentId: id, config }, null, this.ctx(), { registry });
    if (!decided.ok) throw new Error(decided.error.message);
    this.events = chainEvents(id, emptyHead(), decided.value.drafts);
    this.t = { ...decided.value.state, ...advanceHead(emptyHead(), this.events, tournamentAggregate.follows) };
  }

  private ctx(actor: TournamentActor = { role: 'organizer' }) {
    return { now: NOW, seed: SEED, newGameId: () => `g${++this.games}`, actor };
  }

  /** Decides a command; throws its refusal as `CODE: message`. */
  run(command: Exclude<TournamentCommand, { type: 'CreateTournament' }>, actor?: TournamentActor): StoredEvent[] {
    const decided = decideTournament(command, this.t, this.ctx(actor), { registry });
    if (!decided.ok) throw new Error(`${decided.error.code}: ${decided.error.message}`);
    const events = chainEvents(this.id, this.t, decided.value.drafts);
    this.t = { ...decided.value.state, ...advanceHead(this.t, events, tournamentAggregate.follows) };
    this.events.push(...events);
    return events;
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
