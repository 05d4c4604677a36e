import type { Result } from '../../engines/kit/index.js';
import { RefereeError } from '../core/errors.js';
import type { TournamentCommand } from '../core/tournament/decider.js';
import { adjudicationOf, checkReason, type EnteredResult, enteredGame, enteredResult, type RecordedGame } from '../core/tournament/entry.js';
import type { GameResultPayload } from '../core/tournament/events.js';
import { sameResult } from '../core/tournament/results.js';
import { boardOfGame } from '../core/tournament/state.js';
import type { RefereeService } from './referee.service.js';
import { unwrap } from './seat-tokens.js';
import type { LiveTournament, LiveTournaments, TournamentStep } from './tournament-streams.js';
import type { TournamentWorkflows } from './tournament-workflows.js';

type RecordResult = Extract<TournamentCommand, { type: 'RecordResult' }>;

/**
 * An organizer's result for a game played on the service and the game's own end are one
 * decision (docs/rules/tournaments.md §13, "Organizers' results"): the entry closes the game first, at the version the game is stored at,
 * and is recorded after; a game that ended first (a resignation, a clock) keeps its own result.
 * A withdrawal's forfeits close their games the same way.
 */
export class OrganizerEntries {
  constructor(
    private readonly referee: RefereeService,
    private readonly held: LiveTournaments,
    private readonly workflows: TournamentWorkflows,
    /** Whether the tournament would take the entry as it stands (nothing is closed for one it would refuse). */
    private readonly check: (t: LiveTournament, command: RecordResult) => Result<unknown>,
  ) {}

  /**
   * Closes the entry's game with it, unless the game ended first: then the tournament as it is
   * when its board already says what the entry says, and RESULT_ALREADY_RECORDED when it does not.
   * Null when the entry is to be recorded (the game closed with it, or none is played on the service).
   */
  async closeGame(t: LiveTournament, command: RecordResult): Promise<LiveTournament | null> {
    const { result } = command;
    const game = await this.referee.game(result.gameId).catch((err: unknown) => {
      if (err instanceof RefereeError && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    if (!game || game.status === 'WAITING') return null;
    if (game.status === 'ACTIVE') {
      unwrap(this.check(t, command));
      if (await this.closed(t, result)) return null;
    }
    // The game ended first (on this instance or another): its result is the board's.
    await this.workflows.catchUp(t.tournamentId);
    const same = await this.recordedAlready(t.tournamentId, result);
    if (same) return same;
    if (!boardOfGame(await this.held.get(t.tournamentId), result.gameId)?.board.results[result.gameId])
      throw new RefereeError('VERSION_CONFLICT', `game ${result.gameId} ended a moment ago and its result is still on its way to the tournament; try again`);
    const ended = await this.referee.game(result.gameId);
    throw new RefereeError('RESULT_ALREADY_RECORDED', `game ${result.gameId} ended first (${ended.outcome?.summary ?? 'over'}) and that is its result: correct it, with a reason, to change it`);
  }

  /**
   * Closes the games of a withdrawal's forfeits; a game that ended first keeps its own result, and
   * the tournament catches up with it (the withdrawal, decided again, then leaves that game).
   */
  async closeForfeits(t: LiveTournament, forfeits: readonly GameResultPayload[]): Promise<void> {
    let endedFirst = false;
    for (const r of forfeits) if (!(await this.closed(t, r))) endedFirst = true;
    if (endedFirst) await this.workflows.catchUp(t.tournamentId);
  }

  /** Records an entry whose game it closed (`entered`): refused as recorded already, the tournament when another process's catch-up recorded it from that game. */
  record(id: string, result: GameResultPayload, entered: () => Promise<LiveTournament>): Promise<LiveTournament> {
    return entered().catch(async (err: unknown) => {
      const same = err instanceof RefereeError && err.code === 'RESULT_ALREADY_RECORDED' ? await this.recordedAlready(id, result) : null;
      if (same) return same;
      throw err;
    });
  }

  /** The tournament, if its board already holds what `result` says for its game. */
  private async recordedAlready(id: string, result: GameResultPayload): Promise<LiveTournament | null> {
    const now = await this.held.get(id);
    const recorded = boardOfGame(now, result.gameId)?.board.results[result.gameId];
    return recorded && sameResult(recorded, result) ? now : null;
  }

  /** Closes a scheduled game still played with the organizer's `result` for it (kept in its end); false when it ended first. */
  private async closed(t: LiveTournament, result: GameResultPayload): Promise<boolean> {
    const { outcome, reason } = adjudicationOf(t.tournamentId, result);
    try {
      await this.referee.adjudicate(result.gameId, outcome, reason, { ...result });
      return true;
    } catch (err) {
      if (!(err instanceof RefereeError)) throw err;
      if (err.code === 'GAME_OVER') return false;
      // No game on the service, or one not started: nothing to close.
      if (err.code === 'NOT_FOUND' || err.code === 'GAME_NOT_STARTED') return true;
      throw err;
    }
  }

  /** An entered result as the tournament records it, and the game its record is replayed into (stored with it, or not at all). */
  async entered(t: LiveTournament, input: EnteredResult): Promise<{ result: GameResultPayload; imported: TournamentStep['imported'] }> {
    const game = unwrap(enteredGame(t, input));
    unwrap(checkReason(input.reason));
    const imported = input.record === undefined || input.record === null ? undefined : await this.referee.preparedRecord(t.config.kind, input.record);
    const record: RecordedGame | null = imported ? { gameId: imported.game.gameId, seq: imported.game.version, hash: imported.game.lastHash, outcome: imported.game.outcome } : null;
    return { result: unwrap(enteredResult(t, input, game, record)), imported };
  }
}
