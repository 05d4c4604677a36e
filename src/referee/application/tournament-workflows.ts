import { Logger } from '@nestjs/common';
import { RefereeError } from '../core/errors.js';
import { adjudicationOf } from '../core/tournament/entry.js';
import { resultsIn, unrecordedGames } from '../core/tournament/history.js';
import { decodeTournamentEvent, type GameResultPayload } from '../core/tournament/events.js';
import type { TournamentStore } from '../store/tournament-store.js';
import type { GameSnapshot } from './game-answer.js';
import type { RefereeService } from './referee.service.js';
import type { LiveTournaments, TournamentEventsAppended } from './tournament-streams.js';

/** Refusals that say a step was taken already, or is not needed any more: nothing to retry or report. */
const SETTLED = new Set(['RESULT_ALREADY_RECORDED', 'TOURNAMENT_FINISHED', 'NOT_IN_TOURNAMENT']);
/** A step that keeps losing races to other commands on its tournament is tried this often, then left to the next catch-up. */
const ATTEMPTS = 3;

/** The tournaments' command a workflow step gives: a scheduled game's own outcome recorded as its board's result. */
export interface GameResults {
  recordGameResult(game: GameSnapshot, entry?: GameResultPayload | null): Promise<unknown>;
}

/**
 * The processes that cross from games to tournaments and back, driven by what the streams
 * store (this process's publications, and other instances' appends as the store tells them),
 * each step safe to repeat:
 *
 * - a scheduled game's end records its result in its tournament, as one command whose id is
 *   the game's (`game:<id>`), so it is stored once whichever instance takes the step;
 * - an organizer's result recorded for a scheduled game still played closes it, by adjudication,
 *   which leaves a game that is over as it is. An organizer's entry and a withdrawal's forfeits
 *   close their games themselves before they are recorded (TournamentService), so they never
 *   contradict a game that ended first; this step is for a process that stopped between.
 *
 * A process stopped between a game's end and its result (or a result and its game's end) left
 * a step undone: `catchUp` takes a tournament's missing steps (before a command that needs every
 * result), `catchUpAll` at start-up the finished ones' with games still played, and the schedules'
 * scan each unfinished one's at start-up and every minute (a step that lost its races while nothing else was to come); a game the
 * organizer closed whose entry was never recorded gets the entry it was closed with. No read
 * takes a step.
 */
export class TournamentWorkflows {
  private readonly logger = new Logger('Tournaments');
  private readonly stops: (() => void)[] = [];
  private stopped = false;
  private catchingUp: Promise<void> | null = null;
  /** The results being recorded here, by game: a catch-up awaits them instead of recording them again. */
  private readonly recording = new Map<string, Promise<void>>();

  constructor(
    private readonly referee: RefereeService,
    private readonly tournaments: LiveTournaments,
    private readonly store: TournamentStore,
    private readonly results: GameResults,
  ) {}

  /** Reacts to the games' and tournaments' publications from now on. */
  start(): void {
    this.stops.push(
      // A game the organizer closed has its result recorded by the organizer's entry itself (TournamentService.recordResult).
      this.referee.bus.react((_id, { game, steps }) => (game.tournamentId && steps.some((s) => s.event.type === 'GameEnded' && !s.event.payload.adjudication) ? this.gameEnded(game) : undefined)),
      this.tournaments.bus.react((_id, batch) => {
        const results = organizerResults(batch);
        return results.length > 0 ? this.close(batch.tournamentId, results) : undefined;
      }),
    );
  }

  /** Takes no more steps; waits for a start-up catch-up under way to stop. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const stop of this.stops.splice(0)) stop();
    await this.catchingUp;
  }

  /**
   * At start-up, in the background: the missing steps of every finished tournament with a
   * scheduled game still played. The unfinished ones are caught up by the schedules' first scan.
   */
  catchUpAll(): Promise<void> {
    this.catchingUp ??= this.everyTournament().finally(() => {
      this.catchingUp = null;
    });
    return this.catchingUp;
  }

  private async everyTournament(): Promise<void> {
    try {
      const unfinished = new Set(await this.store.unfinished());
      const ids = (await this.referee.tournamentsPlaying()).filter((id) => !unfinished.has(id));
      for (const id of ids) {
        if (this.stopped) return;
        await this.catchUp(id).catch((err) => this.logger.warn(`tournament ${id}: could not catch up (${(err as Error).message})`));
      }
    } catch (err) {
      this.logger.warn(`could not catch the tournaments up (${(err as Error).message}); the next command of each takes its steps`);
    }
  }

  /**
   * A tournament's missing steps: the results of its games that ended, the ends of its games the
   * organizer decided. Its cost does not grow with the games already finished and recorded: only
   * the statuses of the games without a result and of those still played are read, and a result
   * this process is recording already is awaited, not recorded again.
   */
  async catchUp(tournamentId: string): Promise<void> {
    const t = await this.tournaments.get(tournamentId);
    const unrecorded = t.rounds.flatMap(unrecordedGames);
    const statuses = await this.referee.scheduledGames(tournamentId, unrecorded);
    const ended = (gameId: string) => statuses.get(gameId) === 'FINISHED';
    for (const gameId of unrecorded) {
      if (!ended(gameId)) continue;
      const recording = this.recording.get(gameId);
      if (recording) {
        await recording;
        continue;
      }
      // A game the organizer closed whose entry a stopped process did not record: the entry it was closed with.
      const game = await this.referee.game(gameId);
      await this.gameEnded(game, entryOf(gameId, await this.referee.adjudicatedEntry(game)));
    }
    const playing = [...statuses.keys()].filter((gameId) => !ended(gameId));
    const decided = t.rounds.flatMap((r) => playing.flatMap((gameId) => resultsIn(r).get(gameId) ?? []).filter((result) => result.source === 'organizer'));
    if (decided.length > 0) await this.close(tournamentId, decided);
  }

  /**
   * A scheduled game ended: its outcome (or the organizer's entry it was closed with) becomes its
   * board's result. Once at a time per game here: games that end together are each recorded once,
   * not once more by every command's catch-up meanwhile.
   */
  private gameEnded(game: GameSnapshot, entry: GameResultPayload | null = null): Promise<void> {
    const recording = this.recording.get(game.gameId);
    if (recording) return recording;
    const step = this.attempt(`tournament ${game.tournamentId}: the result of game ${game.gameId}`, () => this.results.recordGameResult(game, entry)).finally(() => this.recording.delete(game.gameId));
    this.recording.set(game.gameId, step);
    return step;
  }

  /** The organizer decided these games: each ends with the result entered. */
  private async close(tournamentId: string, results: readonly GameResultPayload[]): Promise<void> {
    for (const r of results) {
      const { outcome, reason } = adjudicationOf(tournamentId, r);
      await this.attempt(`tournament ${tournamentId}: closing game ${r.gameId}`, () => this.referee.adjudicate(r.gameId, outcome, reason));
    }
  }

  /** One step, tried again after lost races; a failure is said, and left to the next catch-up. */
  private async attempt(what: string, step: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await step();
        return;
      } catch (err) {
        if (err instanceof RefereeError && SETTLED.has(err.code)) return;
        if (err instanceof RefereeError && err.code === 'VERSION_CONFLICT' && attempt < ATTEMPTS) continue;
        this.logger.warn(`${what} was not stored yet (${(err as Error).message}); the next catch-up stores it`);
        return;
      }
    }
  }
}

/**
 * The organizer's entry a game was closed with, if it is one for that game (the tournament's own
 * rules check the rest), without the record it named: that game was to be stored with the result.
 */
function entryOf(gameId: string, entry: Record<string, unknown> | null): GameResultPayload | null {
  return entry && entry.gameId === gameId && entry.source === 'organizer' ? { ...(entry as unknown as GameResultPayload), record: null } : null;
}

/** The organizer's results (entered, corrected, or forfeits) a batch of a tournament's events records. */
function organizerResults({ events }: TournamentEventsAppended): GameResultPayload[] {
  return events.flatMap((stored) => {
    const e = decodeTournamentEvent(stored);
    return e.ok && (e.value.type === 'ResultRecorded' || e.value.type === 'ResultCorrected') && e.value.payload.source === 'organizer' ? [e.value.payload] : [];
  });
}
