/**
 * Arbiter's webhook deliveries, typed, and their signature check (docs/webhooks.md). A delivery
 * is a Standard Webhooks message: verify it with the registration's `whsec_…` secret before
 * reading it, and deduplicate by its `webhook-id`:
 *
 *   const message = verifyWebhook(secret, rawBody, request.headers);
 *   if (message.type === 'game.your_turn') play(message.data.gameId, message.data.seat);
 */
import { Webhook } from 'standardwebhooks';

/** The game as `GET /api/games/{id}` answers it to the registration's seat, at the message's `seq` (its main fields; the rest as the REST API documents). */
export interface WebhookGame {
  id: string;
  kind: string;
  status: 'WAITING' | 'ACTIVE' | 'FINISHED';
  version: number;
  /** The registration's seat; null for a game-wide registration (a spectator's view). */
  mySeat: number | null;
  toAct: number[];
  result: WebhookResult | null;
  clock: { deadline: string | null; remainingMs: number[]; [field: string]: unknown } | null;
  [field: string]: unknown;
}

/** How the game ended: the winning seats (none: nobody won), points per seat, and a line a person can read. */
export interface WebhookResult {
  winners: number[];
  points: number[];
  summary: string;
  details?: unknown;
}

/** What every message's `data` carries: the game, its version when the message was caused, and the seat it is about. */
export interface WebhookData {
  gameId: string;
  kind: string;
  seq: number;
  /** The seat the message is about (or a one-seat registration's own); null for a game-wide message such as `game.over`. */
  seat: number | null;
  /** The registration's own seat (a seat's, a participant's, a player's registration); null for a game-wide or organizer's one. */
  mySeat: number | null;
  tournamentId: string | null;
  game: WebhookGame;
}

/** How a game ended: by its rules, a resignation, a seat's time running out, the organizer's result, or aborted before anyone moved. */
export type WebhookEndReason = 'by_rule' | 'resigned' | 'on_time' | 'adjudicated' | 'aborted';

/** What a challenge's message carries (a player's registration only): the challenge, its game's kind, and the player whose act it tells. */
export interface ChallengeWebhookData {
  challengeId: string;
  kind: string;
  by: { id: string; name: string | null };
}

/**
 * What a tournament's message carries: the tournament, and (to a participant's registration or
 * its player's) the participant it is for; none for the organizer's.
 */
export interface TournamentWebhookData {
  tournamentId: string;
  tournamentName: string;
  participantId?: string;
}

/** Someone at a board: the participant, its name, and the player it is (null: none). */
export interface TournamentOpponent {
  participantId: string;
  name: string;
  playerId: string | null;
}

/** A result as a report gives it: each seat's participant, kind and game points, the seats ranked best first, the record's game. */
export interface TournamentReportedResult {
  seats: { participantId: string; kind: 'PLAYED' | 'FORFEIT_WIN' | 'FORFEIT_LOSS' | 'DOUBLE_FORFEIT'; gamePoints: string | null }[];
  ranking: number[][];
  recordGameId: string | null;
}

/** A game of a tournament by where it is played. */
export interface TournamentGameRef {
  round: number;
  board: number;
  gameId: string;
}

/** Each message type and what its `data` adds. */
export interface WebhookPayloads {
  'game.started': WebhookData;
  /** `deadline` (ISO 8601) and `remainingMs` are null when the game has no clock. */
  'game.your_turn': WebhookData & { seat: number; deadline: string | null; remainingMs: number | null };
  /** `result` is null for an aborted game. */
  'game.over': WebhookData & { reason: WebhookEndReason; result: WebhookResult | null };
  'game.timed_out': WebhookData & { seat: number; rule: string };
  'game.time_running_low': WebhookData & { seat: number; remainingMs: number; thresholdSeconds: number };
  /** `seat` asks to pause the clocks; they pause once every seat asked. */
  'game.pause_requested': WebhookData & { seat: number };
  /** `ms` were added to `seat`, by another seat (`bySeat`) or the organizer (null). */
  'game.time_given': WebhookData & { seat: number; ms: number; bySeat: number | null };
  /** `seat` took `ms` of vacation (correspondence). */
  'game.opponent_on_vacation': WebhookData & { seat: number; ms: number };
  /** Another player challenged this one (`message`, `expiresAt`: ISO 8601). */
  'challenge.received': ChallengeWebhookData & { message: string | null; expiresAt: string };
  /** This player's challenge was accepted: the game it made. */
  'challenge.accepted': ChallengeWebhookData & { gameId: string };
  'challenge.declined': ChallengeWebhookData & { reason: string | null };
  'challenge.cancelled': ChallengeWebhookData;
  /** A participant was registered: to the organizer (each one) and to the participant. */
  'tournament.participant_registered': TournamentWebhookData & { registrationNo: number; name: string; rating: number; playerId: string | null; externalId: string | null };
  /** Check-in is open until `closesAt` (the start). */
  'tournament.check_in_opened': TournamentWebhookData & { closesAt: string };
  /**
   * A round was paired. To the organizer: `boards`, `games` and `byes`. To a participant: its
   * board, its (first) game and seat there, its opponent (null at a bye or a table of more), all
   * its opponents and games (a knockout match may have several); `walkover`: the other side withdrew, no game.
   */
  'tournament.round_paired': TournamentWebhookData & { round: number } & (
      | { boards: number; games: number; byes: string[] }
      | {
          board: number | null;
          bye: boolean;
          walkover: boolean;
          gameId: string | null;
          seat: number | null;
          opponent: TournamentOpponent | null;
          opponents: TournamentOpponent[];
          games: { gameId: string; seat: number }[];
        }
    );
  /** A participant (`reportedBy`) reported an over-the-board result; `recorded`: it agreed with the other side's, and is the result. */
  'tournament.result_reported': TournamentWebhookData & TournamentGameRef & { reportedBy: string; result: TournamentReportedResult; recorded: boolean };
  /** The reports of a game disagree: the organizer settles it. */
  'tournament.result_disputed': TournamentWebhookData & TournamentGameRef & { reports: { participantId: string; result: TournamentReportedResult }[] };
  /** The organizer settled a dispute: the report accepted (null: a result of its own), and why. */
  'tournament.dispute_settled': TournamentWebhookData & TournamentGameRef & { acceptedReportOf: string | null; reason: string };
  /** The final standings. To the organizer: the `ranking`; to a participant: its `rank` of `of`. */
  'tournament.finished': TournamentWebhookData & ({ ranking: (TournamentOpponent & { rank: number })[] } | { rank: number; of: number });
}

export type WebhookType = keyof WebhookPayloads;

/** A delivery's body: `type` tells `data`'s shape. */
export type WebhookMessage = { [T in WebhookType]: { type: T; timestamp: string; data: WebhookPayloads[T] } }[WebhookType];

/** The headers a delivery is signed with, as a Node or fetch request gives them. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

/**
 * The delivery, after checking its signature and timestamp with the registration's secret
 * (the `standardwebhooks` package); throws if either is wrong. Pass the body exactly as received.
 */
export function verifyWebhook(secret: string, body: string, headers: WebhookHeaders): WebhookMessage {
  const flat: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return new Webhook(secret).verify(body, flat) as WebhookMessage;
}
