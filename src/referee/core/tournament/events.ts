import { fail, ok, type Result } from '../../../engines/kit/index.js';
import { type DraftEvent, isObject, MALFORMED, type StoredEvent } from '../stream.js';
import type { TournamentConfig } from './config.js';
import type { LotDrawn } from './lots.js';

/**
 * A tournament's events (V10.2), in the same hash-chained form as a game's. Participants are
 * named by id; seats list participant ids in seat order; points are exact rationals as text.
 */

export interface ParticipantRegisteredPayload {
  participantId: string;
  registrationNo: number;
  name: string;
  rating: number;
  entryRound: number;
  /** The player who registered (absent: an anonymous participant, and every one before players). */
  player?: string;
  /** The organizer's own id for the participant (a federation id, a club's number), from a bulk registration. */
  externalId?: string;
  /**
   * Where `rating` came from when the organizer typed none (docs/ratings.md, "Seeding"): the
   * player's ratings pool and that pool's event that set it. Absent: typed, or unrated (0).
   */
  ratingFrom?: RatingTaken;
  /** P2.6: rounds it asked a bye for when it registered (Swiss and tables), given when each is paired. */
  requestedByes?: number[];
}

/** A participant's rating as the ratings pool held it at registration. */
export interface RatingTaken {
  pool: string;
  seq: number;
}

/** The organizer's settings for a round, set before it is paired (S5.1, P2.6, TA7.10). */
export interface RoundSettings {
  round: number;
  /** S5.3: pairings used as given; without seats they get them by S5.13. */
  manualPairings: { a: string; b: string; seats: [string, string] | null }[];
  manualBye: string | null;
  /** TA7.10: fixed tables, participants in seat order. */
  manualTables: string[][];
  absent: string[];
  requestedByes: string[];
  /** S5.6: pairs never paired by the algorithm, from this round on. */
  forbiddenPairs: [string, string][];
  /** K6.1 `manual` seeding: every participant, seed 1 first (round 1 only). */
  seeds: string[] | null;
}

/** One game of a board: the participants in its seat order. */
export interface ScheduledGame {
  gameId: string;
  seats: string[];
}

/** A board (a pairing, a table, a knockout match): its participants and games. */
export interface BoardPlan {
  board: number;
  /** Participants in seat order of the first game (one participant: a knockout bye). */
  seats: string[];
  games: ScheduledGame[];
  /** Set by the organizer (S5.3, TA7.10): taken as given by the verifier. */
  manual: boolean;
  /** A scheduled pairing with a withdrawn participant: no game, a forfeit (RR4.6). */
  walkover: string | null;
}

export interface RoundPairedPayload {
  round: number;
  boards: BoardPlan[];
  /** Pairing-allocated byes (S5.9, TA7.4). */
  byes: string[];
  /** RR4.4: the participant meeting the dummy number. */
  rest: string | null;
  warnings: string[];
  /** Round 1 of a round-robin: participants by pairing number (RR4.1); of a knockout: by seed (K6.1). */
  order?: string[];
}

export type SeatResultKind = 'PLAYED' | 'FORFEIT_WIN' | 'FORFEIT_LOSS' | 'DOUBLE_FORFEIT';

/**
 * The result of one scheduled game. `ranking` groups the seats that played, best first (tied
 * seats share a group): a 2-seat win is [[w], [l]], a draw [[0, 1]].
 */
export interface GameResultPayload {
  round: number;
  board: number;
  gameId: string;
  /** 'game': the refereed game's own outcome; 'organizer': an over-the-board entry or a forfeit. */
  source: 'game' | 'organizer';
  seats: { participantId: string; kind: SeatResultKind; gamePoints: string | null }[];
  ranking: number[][];
  /** The scheduled game's head when its outcome was taken (source 'game'). */
  head: { seq: number; hash: string } | null;
  /** An over-the-board record imported and verified as its own game. */
  record: { gameId: string; seq: number; hash: string } | null;
  reason: string | null;
}

export type TournamentEvent =
  | { type: 'TournamentCreated'; payload: { config: TournamentConfig; seedCommitment: string } }
  | { type: 'ParticipantRegistered'; payload: ParticipantRegisteredPayload }
  | { type: 'ParticipantWithdrawn'; payload: { participantId: string; afterRound: number; reason: string | null } }
  | { type: 'RoundSettingsSet'; payload: RoundSettings }
  | { type: 'LotsDrawn'; payload: LotDrawn }
  | { type: 'RoundPaired'; payload: RoundPairedPayload }
  | { type: 'GamesScheduled'; payload: { round: number; board: number; games: ScheduledGame[] } }
  | { type: 'ResultRecorded'; payload: GameResultPayload }
  | { type: 'ResultCorrected'; payload: GameResultPayload }
  | { type: 'TournamentFinished'; payload: { seed: string; ranking: { participantId: string; rank: number }[] } }
  // A tournament that runs itself (P2.9-P2.11): its timed steps, and its participants' check-ins.
  | { type: 'RegistrationOpened'; payload: { opensAt: string } }
  | { type: 'RegistrationClosed'; payload: { closesAt: string } }
  | { type: 'CheckInOpened'; payload: { closesAt: string } }
  | { type: 'ParticipantCheckedIn'; payload: { participantId: string } }
  | { type: 'CheckInClosed'; payload: { unconfirmed: string[] } }
  | { type: 'RoundScheduled'; payload: { round: number; at: string } }
  | { type: 'ResultReported'; payload: ResultReportedPayload }
  | { type: 'ResultDisputed'; payload: GameRef }
  | { type: 'DisputeSettled'; payload: DisputeSettledPayload };

/** A scheduled game, by where it is played. */
export interface GameRef {
  round: number;
  board: number;
  gameId: string;
}

/** A participant's report of an over-the-board game's result (docs/rules/tournaments.md §R3.10). */
export interface ResultReportedPayload {
  participantId: string;
  result: GameResultPayload;
}

/** The organizer settles a dispute (R3.11): the report it accepts (null: a result of its own follows), and why. */
export interface DisputeSettledPayload extends GameRef {
  acceptedReportOf: string | null;
  reason: string;
}

export type TournamentEventType = TournamentEvent['type'];

/** Who caused an event: the organizer (-1), a participant (its registration number), the referee (null). */
export const ORGANIZER = -1;

export function draftOf(e: TournamentEvent, createdAt: string, actor: number | null): DraftEvent {
  return { type: e.type, actor, moveId: null, bodyHash: null, payload: e.payload as unknown as Record<string, unknown>, createdAt };
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isRound = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;

const REQUIRED: Record<TournamentEventType, (p: Record<string, unknown>) => boolean> = {
  TournamentCreated: (p) => isObject(p.config) && typeof p.seedCommitment === 'string',
  ParticipantRegistered: (p) =>
    typeof p.participantId === 'string' &&
    Number.isInteger(p.registrationNo) &&
    typeof p.name === 'string' &&
    Number.isInteger(p.rating) &&
    isRound(p.entryRound) &&
    (p.player === undefined || typeof p.player === 'string') &&
    (p.externalId === undefined || typeof p.externalId === 'string') &&
    (p.ratingFrom === undefined || (isObject(p.ratingFrom) && typeof p.ratingFrom.pool === 'string' && Number.isInteger(p.ratingFrom.seq))) &&
    (p.requestedByes === undefined || (Array.isArray(p.requestedByes) && p.requestedByes.every(isRound))),
  ParticipantWithdrawn: (p) => typeof p.participantId === 'string' && Number.isInteger(p.afterRound),
  RoundSettingsSet: (p) => isRound(p.round) && Array.isArray(p.manualPairings) && Array.isArray(p.manualTables) && isStrings(p.absent) && isStrings(p.requestedByes) && Array.isArray(p.forbiddenPairs),
  LotsDrawn: (p) => typeof p.label === 'string' && 'result' in p,
  RoundPaired: (p) => isRound(p.round) && Array.isArray(p.boards) && p.boards.every((b) => isObject(b) && isStrings(b.seats) && Array.isArray(b.games)) && isStrings(p.byes),
  GamesScheduled: (p) => isRound(p.round) && Number.isInteger(p.board) && Array.isArray(p.games),
  ResultRecorded: isResult,
  ResultCorrected: isResult,
  TournamentFinished: (p) => typeof p.seed === 'string' && Array.isArray(p.ranking),
  RegistrationOpened: (p) => typeof p.opensAt === 'string',
  RegistrationClosed: (p) => typeof p.closesAt === 'string',
  CheckInOpened: (p) => typeof p.closesAt === 'string',
  ParticipantCheckedIn: (p) => typeof p.participantId === 'string',
  CheckInClosed: (p) => isStrings(p.unconfirmed),
  RoundScheduled: (p) => isRound(p.round) && typeof p.at === 'string',
  ResultReported: (p) => typeof p.participantId === 'string' && isObject(p.result) && isResult(p.result),
  ResultDisputed: isGameRef,
  DisputeSettled: (p) => isGameRef(p) && (p.acceptedReportOf === null || typeof p.acceptedReportOf === 'string') && typeof p.reason === 'string',
};

function isGameRef(p: Record<string, unknown>): boolean {
  return isRound(p.round) && Number.isInteger(p.board) && typeof p.gameId === 'string';
}

function isResult(p: Record<string, unknown>): boolean {
  return (
    isRound(p.round) &&
    Number.isInteger(p.board) &&
    typeof p.gameId === 'string' &&
    (p.source === 'game' || p.source === 'organizer') &&
    Array.isArray(p.seats) &&
    p.seats.every((s) => isObject(s) && typeof s.participantId === 'string' && typeof s.kind === 'string') &&
    Array.isArray(p.ranking) &&
    p.ranking.every((g) => Array.isArray(g) && g.every((x) => Number.isInteger(x)))
  );
}

/** The typed event of a stored row (or a decision's draft), checking the payload's shape (evolve checks its meaning). */
export function decodeTournamentEvent(e: Pick<StoredEvent, 'type' | 'payload'>): Result<TournamentEvent> {
  const check = REQUIRED[e.type as TournamentEventType];
  if (!check) return fail(MALFORMED, `unknown tournament event type ${e.type}`);
  if (!isObject(e.payload) || !check(e.payload)) return fail(MALFORMED, `${e.type} is missing fields or has fields of the wrong type`);
  return ok({ type: e.type, payload: e.payload } as TournamentEvent);
}
