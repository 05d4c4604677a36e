import { Logger } from '@nestjs/common';
import { RefereeError } from '../core/errors.js';
import { nextStepAt } from '../core/tournament/schedule.js';
import type { TournamentState } from '../core/tournament/state.js';
import type { TournamentStore } from '../store/tournament-store.js';
import type { Clock } from './clock.js';
import type { LiveTournaments } from './tournament-streams.js';

/** The referee's command that takes a tournament's due steps (RunSchedule through the command path). */
export interface ScheduleSteps {
  runSchedule(tournamentId: string): Promise<unknown>;
}

/** The workflows' steps left undone in a tournament (a result a lost race or a failure left unrecorded), taken (TournamentWorkflows). */
export interface CatchUp {
  catchUp(tournamentId: string): Promise<void>;
}

export interface ScheduleSettings {
  /** Most milliseconds between two looks (sooner when a step is due sooner). */
  pollMs: number;
  /** Milliseconds between two scans of the unfinished tournaments (steps other instances' appends made due). */
  sweepMs: number;
}

/** Refusals that say the step was taken already (by another instance) or is not due: nothing to report. */
const SETTLED = new Set(['NOTHING_DUE', 'TOURNAMENT_FINISHED', 'VERSION_CONFLICT']);

/**
 * Makes tournaments run themselves (docs/rules/tournaments.md §P2.9-P2.11): each unfinished
 * tournament's next timed step (registration opening or closing, check-in opening, the start, the
 * next round of an autoPair tournament) is known here from its state, as of every stored batch of
 * its events (this instance's and, through the held streams' catch-up, other instances'), and of
 * a scan of the unfinished tournaments at start-up and every `sweepMs`. When a step is due, the
 * referee's RunSchedule command takes every step due then, through the one command path: the
 * tournament's expected version and the decider (a step taken is no longer pending) make it
 * once, whichever instance takes it, and a step that fell due while no instance ran is taken at
 * start-up, stamped with the time it is taken. A round finishing is a workflow: its last result
 * appends RoundScheduled, and the batch that stores it makes the pairing due (at once, or after
 * the tournament's interval). Time is the injected clock's: tests move it and call tick().
 */
export class TournamentSchedules {
  private readonly logger = new Logger('Tournaments');
  /** The next step's time (clock ms) of each tournament that has one. */
  private readonly due = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private stopReacting: (() => void) | null = null;
  private running = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly tournaments: LiveTournaments,
    private readonly store: TournamentStore,
    private readonly steps: ScheduleSteps,
    private readonly workflows: CatchUp,
    private readonly clock: Clock,
    private readonly settings: ScheduleSettings,
  ) {}

  /** Learns every unfinished tournament's next step, takes those due, then keeps watching. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopReacting = this.tournaments.bus.react((id) => {
      void this.tournaments
        .get(id)
        .then((t) => this.note(t))
        .catch(() => undefined);
    });
    void this.scan().catch((err) => this.failed('the start-up scan', err));
    this.sweeper = setInterval(() => void this.scan().catch((err) => this.failed('a scan', err)), this.settings.sweepMs);
    this.sweeper.unref();
  }

  /** Stops watching; waits for the steps under way. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopReacting?.();
    this.stopReacting = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.sweeper) clearInterval(this.sweeper);
    this.timer = this.sweeper = null;
    await this.queue.catch(() => undefined);
  }

  /** Takes every step due now (after those under way); answers for how many tournaments. */
  tick(): Promise<number> {
    return this.serially(() => this.apply());
  }

  /**
   * Reads every unfinished tournament's next step, and takes those due. First each is caught up:
   * a game's result its workflow step could not store (it lost its races, the database was away)
   * is stored here, else a round whose last result it was would wait for a command that never
   * comes (with autoPair, nobody else acts on that round).
   */
  scan(): Promise<number> {
    return this.serially(async () => {
      for (const id of await this.store.unfinished()) {
        try {
          await this.workflows.catchUp(id);
          this.remember(await this.tournaments.get(id));
        } catch (err) {
          this.logger.warn(`tournament ${id}: could not be caught up or its schedule read (${(err as Error).message})`);
        }
      }
      return this.apply();
    });
  }

  /** A tournament as stored now: its next step, taken at once if it is due. */
  private note(t: TournamentState): void {
    this.remember(t);
    const at = this.due.get(t.tournamentId);
    if (at !== undefined && at <= this.clock.now().getTime()) void this.tick().catch((err) => this.failed('a step', err));
    else this.setTimer();
  }

  private remember(t: TournamentState): void {
    const next = t.finished ? null : nextStepAt(t);
    if (next === null) this.due.delete(t.tournamentId);
    else this.due.set(t.tournamentId, Date.parse(next));
  }

  private serially<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.catch(() => undefined).then(run);
    this.queue = next;
    return next;
  }

  private async apply(): Promise<number> {
    let taken = 0;
    try {
      const now = this.clock.now().getTime();
      for (const [id, at] of [...this.due]) {
        if (at > now) continue;
        // Forgotten until the tournament's next batch (or scan) says what is next: a refused step is not tried in a loop.
        this.due.delete(id);
        try {
          await this.steps.runSchedule(id);
          taken++;
        } catch (err) {
          if (err instanceof RefereeError && SETTLED.has(err.code)) continue;
          this.logger.warn(`tournament ${id}: its scheduled step was not taken (${(err as Error).message}); the next scan tries again`);
        }
      }
    } finally {
      this.setTimer();
    }
    return taken;
  }

  /** Wakes at the earliest step, at most pollMs from now. */
  private setTimer(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.due.size === 0) return;
    const now = this.clock.now().getTime();
    const delay = Math.min(this.settings.pollMs, Math.max(0, Math.min(...this.due.values()) - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick().catch((err) => this.failed('a tick', err));
    }, delay);
    this.timer.unref();
  }

  private failed(what: string, err: unknown): void {
    this.logger.warn(`tournament schedules: ${what} failed: ${(err as Error)?.message ?? String(err)}`);
  }
}
