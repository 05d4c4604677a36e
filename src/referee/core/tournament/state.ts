import type { TournamentConfig } from './config.js';
import type { BoardPlan, GameResultPayload, RoundSettings } from './events.js';
import type { LotDrawn } from './lots.js';
import { parse, type Rational } from './rational.js';
import type { ScheduleProgress } from './schedule-config.js';
import type { Participant, PointValues } from './types.js';

/** Everything a tournament's events say, folded (the stream head aside). */

export interface ParticipantRecord extends Participant {
  name: string;
  /** The player the participant is (its games' seats are bound to it); absent: an anonymous participant. */
  player?: string;
  externalId?: string;
  /** P2.6: rounds it asked a bye for when it registered. */
  requestedByes?: number[];
}

/** Participants' reports of one over-the-board game (R3.10, R3.11). */
export interface GameReports {
  /** The result each participant reported, by participant id (a later report replaces its own). */
  reports: Record<string, GameResultPayload>;
  /** Open from ResultDisputed until DisputeSettled. */
  disputed: boolean;
  /** After DisputeSettled: the report the organizer accepted (its result follows), or null (the organizer's own follows). */
  settledWith?: string | null;
}

export interface BoardState extends BoardPlan {
  /** Results by game id; a correction replaces the earlier result (R3.7). */
  results: Record<string, GameResultPayload>;
  /** Corrections its results have had (R3.8); absent before the first. */
  corrections?: number;
  /** Knockout: the match's winner (null when both are out), undefined while it goes on. */
  winner?: string | null;
}

export interface RoundState {
  round: number;
  boards: BoardState[];
  byes: string[];
  rest: string | null;
  warnings: string[];
  order?: string[];
  /** The organizer's absences and requested byes for the round (P2.6), as set when it was paired. */
  absent: string[];
  requestedByes: string[];
}

export interface TournamentState {
  tournamentId: string;
  config: TournamentConfig;
  seedCommitment: string;
  revealedSeed: string | null;
  /** In registration order. */
  participants: ParticipantRecord[];
  /** Settings of rounds not yet paired, and of those paired (kept for the verifier). */
  settings: Record<number, RoundSettings>;
  rounds: RoundState[];
  /** Rounds to play: from the configuration, or fixed when round 1 of a round-robin or knockout is paired. */
  totalRounds: number | null;
  lots: LotDrawn[];
  finished: boolean;
  ranking: { participantId: string; rank: number }[] | null;
  /** A tournament that runs itself: where its timed steps stand (P2.9-P2.11); absent without a schedule. */
  schedule?: ScheduleProgress;
  /** Reports and disputes by game id (R3.10); absent until the first report. */
  reports?: Record<string, GameReports>;
}

export type TournamentStatus = 'REGISTERING' | 'RUNNING' | 'FINISHED';

export function statusOf(t: Pick<TournamentState, 'finished' | 'rounds'>): TournamentStatus {
  if (t.finished) return 'FINISHED';
  return t.rounds.length === 0 ? 'REGISTERING' : 'RUNNING';
}

export function pointValues(config: TournamentConfig): PointValues {
  return { win: rational(config.points.win), draw: rational(config.points.draw), loss: rational(config.points.loss) };
}

/** A rational the configuration or an event wrote (already validated). */
export function rational(text: string): Rational {
  const r = parse(text);
  if (!r) throw new RangeError(`not an exact number: ${text}`);
  return r;
}

export const participantById = (t: TournamentState, id: string): ParticipantRecord | undefined => t.participants.find((p) => p.id === id);

/** P2.3: whether `id` withdrew before `round` (it is not paired from the round after its withdrawal on). */
export function withdrawnBefore(t: TournamentState, id: string, round: number): boolean {
  const after = participantById(t, id)?.withdrawnAfterRound;
  return after !== null && after !== undefined && after < round;
}

/** The board a game belongs to. */
export function boardOfGame(t: TournamentState, gameId: string): { round: RoundState; board: BoardState } | null {
  // Newest round first: a result is almost always for the round being played, whatever the rounds before it hold.
  for (let i = t.rounds.length - 1; i >= 0; i--) {
    const round = t.rounds[i];
    for (const board of round.boards) if (board.games.some((g) => g.gameId === gameId)) return { round, board };
  }
  return null;
}

export const currentRound = (t: TournamentState): RoundState | null => t.rounds[t.rounds.length - 1] ?? null;
