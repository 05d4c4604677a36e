import { fail, type Result } from '../../../engines/kit/index.js';
import type { EngineRegistry } from '../engine-registry.js';
import type { DraftEvent } from '../stream.js';
import type { RegistrationExtras } from './bulk.js';
import type { TournamentConfigInput } from './config.js';
import type { GameResultPayload, RatingTaken, RoundSettings, TournamentEvent } from './events.js';
import type { LotDrawn, Lots } from './lots.js';
import type { ReportCommand } from './reports.js';
import type { ScheduleCommand, ScheduleHost } from './schedule.js';
import type { TournamentState } from './state.js';

/**
 * A tournament's commands and what deciding one works with: the command families (registration,
 * rounds, results) each decide through a `DecidingHost`, the one place events are kept.
 */

/** Participants one tournament takes (docs/rules/tournaments.md §P2.8): each adds its games to every pairing. */
export const PARTICIPANT_LIMIT = 1000;
/** Corrections one board's results take (docs/rules/tournaments.md §R3.8): each may import a record and close a game. */
export const CORRECTION_LIMIT = 10;

/** The referee: a scheduled tournament's own steps (P2.9-P2.11), with the organizer's say, recorded with the actor null. */
export type TournamentActor = { role: 'organizer' } | { role: 'participant'; participantId: string } | { role: 'referee' };

export type TournamentCommand =
  | { type: 'CreateTournament'; tournamentId: string; config: TournamentConfigInput }
  /** `player`: the player registering (its games' seats are bound to it); absent: anonymous. */
  | ({ type: 'RegisterParticipant'; participantId: string; name: string; rating: number; player?: string | null; ratingFrom?: RatingTaken | null } & RegistrationExtras)
  /** Many at once, all or none (bulk.ts). */
  | { type: 'RegisterParticipants'; entries: Omit<Extract<TournamentCommand, { type: 'RegisterParticipant' }>, 'type'>[] }
  | ReportCommand
  | { type: 'WithdrawParticipant'; participantId: string; reason: string | null }
  | { type: 'SetRoundSettings'; settings: RoundSettings }
  | { type: 'PairRound'; round: number | null }
  | { type: 'RecordResult'; result: GameResultPayload; correction: boolean }
  | { type: 'FinishTournament' }
  | ScheduleCommand;

export interface TournamentDecideContext {
  now: string;
  /** The tournament's secret seed (hex): lots are drawn from it and it is revealed at the end. */
  seed: string;
  /** Ids for the games a pairing schedules (made by the application: random, not derived). */
  newGameId: () => string;
  actor: TournamentActor;
}

export interface TournamentEvolveContext {
  registry: EngineRegistry;
  /** The secret seed when known (the service's own, or revealed): lots are checked against it. */
  seed: string | null;
  /** Recompute pairings, tables, brackets and the final ranking and compare (folding, verifying). */
  recompute: boolean;
}

export interface TournamentDecision {
  state: TournamentState;
  drafts: DraftEvent[];
}

/** Lots drawn from the seed while deciding, each kept to be recorded as a LotsDrawn event. */
export type RecordingLots = Lots & { drawn: LotDrawn[] };

/** What a command family decides with: the state so far, the context, and the one way to keep an event. */
export interface DecidingHost extends ScheduleHost<TournamentDecision> {
  readonly decide: TournamentDecideContext;
  readonly ctx: TournamentEvolveContext;
  /** The organizer, or the referee acting on the organizer's schedule. */
  readonly organizer: boolean;
  applyAll(events: readonly TournamentEvent[]): Result<TournamentDecision>;
  recordingLots(): RecordingLots;
  /** After a result: a knockout match may need another game; the last round's last result ends the tournament. */
  afterResult(): Result<TournamentDecision>;
}

/** Refusals a decider gives: a typed code and a message a person can act on. */
export const refuse = (code: string, message: string): Result<never> => fail(code, message);
