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
  tournamentId: string | null;
  game: WebhookGame;
}

/** Each message type and what its `data` adds. */
export interface WebhookPayloads {
  'game.your_turn': WebhookData & { seat: number };
  'game.over': WebhookData & { result: WebhookResult | null };
  'game.timed_out': WebhookData & { seat: number; rule: string };
  'game.time_running_low': WebhookData & { seat: number; remainingMs: number; thresholdSeconds: number };
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
