import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { type Connection, connectionOf, pageOf } from '../api/connection.js';
import { orRejection } from '../api/models.js';
import type { WebhookEvent as Event } from './notifications.js';
import type { DeliveryRow, WebhookRow } from './webhook-store.js';
import type { DeliveryPage, WebhookWithSecret } from './webhook.service.js';

/** The events a webhook may be told (the enum's values are the service's words). */
export const WebhookEvent = {
  GAME_STARTED: 'GAME_STARTED',
  YOUR_TURN: 'YOUR_TURN',
  GAME_OVER: 'GAME_OVER',
  TIME_RUNNING_LOW: 'TIME_RUNNING_LOW',
  TIMED_OUT: 'TIMED_OUT',
  PAUSE_REQUESTED: 'PAUSE_REQUESTED',
  TIME_GIVEN: 'TIME_GIVEN',
  OPPONENT_ON_VACATION: 'OPPONENT_ON_VACATION',
  CHALLENGE_RECEIVED: 'CHALLENGE_RECEIVED',
  CHALLENGE_ACCEPTED: 'CHALLENGE_ACCEPTED',
  CHALLENGE_DECLINED: 'CHALLENGE_DECLINED',
  CHALLENGE_CANCELLED: 'CHALLENGE_CANCELLED',
  PARTICIPANT_REGISTERED: 'PARTICIPANT_REGISTERED',
  CHECK_IN_OPENED: 'CHECK_IN_OPENED',
  ROUND_PAIRED: 'ROUND_PAIRED',
  RESULT_REPORTED: 'RESULT_REPORTED',
  RESULT_DISPUTED: 'RESULT_DISPUTED',
  DISPUTE_SETTLED: 'DISPUTE_SETTLED',
  TOURNAMENT_FINISHED: 'TOURNAMENT_FINISHED',
} as const satisfies { [K in Event]: K };

registerEnumType(WebhookEvent, {
  name: 'WebhookEvent',
  description: 'What a webhook is told; each is a message of its own `type`',
  valuesMap: {
    GAME_STARTED: { description: 'game.started: every seat is taken and play began (a paired or accepted game: at once)' },
    YOUR_TURN: {
      description: 'game.your_turn: a seat came to act, with its deadline and remainingMs when its clock runs (not sent again while the same seat goes on acting, e.g. a roll and its play)',
    },
    GAME_OVER: { description: 'game.over: the game ended, with the reason (by_rule, resigned, on_time, adjudicated, aborted) and its result' },
    TIME_RUNNING_LOW: { description: "game.time_running_low: a seat's clock passed one of lowTimeThresholdsSeconds this turn" },
    TIMED_OUT: { description: "game.timed_out: a seat's time ran out (with the game's rule: concede or auto-play)" },
    PAUSE_REQUESTED: { description: "game.pause_requested: another seat asks to pause the clocks, and needs this seat's consent" },
    TIME_GIVEN: { description: 'game.time_given: time was added to this seat, by another seat (bySeat) or the organizer (bySeat null)' },
    OPPONENT_ON_VACATION: { description: 'game.opponent_on_vacation: another seat took vacation (correspondence): this seat waits longer by ms' },
    CHALLENGE_RECEIVED: { description: "challenge.received: a player's registration only: another player challenged the player" },
    CHALLENGE_ACCEPTED: { description: "challenge.accepted: a player's registration only: the player's challenge was accepted (with the game's id)" },
    CHALLENGE_DECLINED: { description: "challenge.declined: a player's registration only: the player's challenge was declined (with the reason)" },
    CHALLENGE_CANCELLED: { description: "challenge.cancelled: a player's registration only: a challenge to the player was cancelled" },
    PARTICIPANT_REGISTERED: {
      description: "tournament.participant_registered: a tournament's or a player's registration: a participant was registered (the organizer: each one; a participant: itself)",
    },
    CHECK_IN_OPENED: { description: "tournament.check_in_opened: a tournament's or a player's registration: check-in opened, until closesAt" },
    ROUND_PAIRED: {
      description: "tournament.round_paired: a tournament's or a player's registration: a round was paired (the organizer: the round; a participant: its board, game, seat and opponents, or its bye)",
    },
    RESULT_REPORTED: { description: "tournament.result_reported: a tournament's or a player's registration: a participant reported an over-the-board result (the organizer, the others at the board)" },
    RESULT_DISPUTED: { description: "tournament.result_disputed: a tournament's or a player's registration: the reports of a game disagree, the organizer settles it" },
    DISPUTE_SETTLED: { description: "tournament.dispute_settled: a tournament's or a player's registration: the organizer settled a dispute (the report accepted, the reason)" },
    TOURNAMENT_FINISHED: { description: "tournament.finished: a tournament's or a player's registration: the final standings (the organizer: the ranking; a participant: its rank)" },
  },
});

@InputType({ description: 'A webhook to register: where, for what, and which events' })
export class RegisterWebhookInput {
  @Field({ description: "Where to POST the messages: http or https, no credentials, a host in the service's WEBHOOK_ALLOWED_HOSTS" }) url: string;
  @Field(() => ID, { nullable: true, description: "A game (all its seats): the token must be one of its seats' (or its tournament organizer's)" }) gameId?: string | null;
  @Field(() => ID, { nullable: true, description: "A tournament's games: the organizer's token (every seat) or a participant's (its own seats)" }) tournamentId?: string | null;
  @Field(() => ID, {
    nullable: true,
    description: "A player's games (every seat it holds, now and later): with an app's key, a player the app created; a player's key registers its own player without it",
  })
  playerId?: string | null;
  @Field(() => [WebhookEvent], { description: 'The events to be told, at least one' }) events: Event[];
  @Field(() => [Int], { nullable: true, description: 'TIME_RUNNING_LOW: the seconds left at which to tell (at most 5); omitted: 60' }) lowTimeThresholdsSeconds?: number[] | null;
}

@ObjectType({ description: 'A webhook registration (its secret is answered only when made or rotated)' })
export class Webhook {
  @Field(() => ID, { description: "The registration's id" }) id: string;
  @Field({ description: 'Where the messages are POSTed' }) url: string;
  @Field(() => [WebhookEvent], { description: 'The events it is told' }) events: Event[];
  @Field(() => [Int], { description: 'TIME_RUNNING_LOW thresholds, seconds left, highest first' }) lowTimeThresholdsSeconds: number[];
  @Field(() => ID, { nullable: true, description: 'The game it is for (one seat of it when `seat` is set)' }) gameId: string | null;
  @Field(() => Int, { nullable: true, description: "The one seat it is for (registered with that seat's token)" }) seat: number | null;
  @Field(() => ID, { nullable: true, description: 'The tournament it is for (one participant of it when `participantId` is set)' }) tournamentId: string | null;
  @Field(() => ID, { nullable: true, description: 'The one participant it is for (registered with its token)' }) participantId: string | null;
  @Field(() => ID, { nullable: true, description: 'The player it is for: every game where the player holds a seat' }) playerId: string | null;
  @Field({ description: 'When it was registered' }) createdAt: Date;
  @Field(() => Int, { description: 'Attempts in a row its receiver did not answer in time (each pauses it, doubling); any answer sets it back to 0' }) timeouts: number;
  @Field(() => Date, {
    nullable: true,
    description: 'When it was suspended, after 5 timeouts in a row: nothing is sent (its messages wait, and are given up as usual) until resumeWebhook',
  })
  suspendedAt: Date | null;
}

@ObjectType({ description: 'A registration with its signing secret, shown this once: keep it to verify the deliveries' })
export class WebhookSecret {
  @Field(() => ID, { description: "The registration's id" }) id: string;
  @Field({ description: 'whsec_…: the Standard Webhooks secret every delivery is signed with from now on' }) secret: string;
  @Field(() => Webhook, { description: 'The registration' }) webhook: Webhook;
}

@ObjectType({ description: 'One message of a webhook, and how its delivery went' })
export class WebhookDelivery {
  @Field(() => ID, { description: 'The message id, sent as webhook-id (the same on every attempt: deduplicate by it)' }) messageId: string;
  @Field({ description: 'Its type: the event as sent (game.your_turn, game.over, …; see WebhookEvent)' }) type: string;
  @Field(() => ID, { description: "The game it is about (a challenge's message: the challenge's id)" }) gameId: string;
  @Field(() => Int, { description: 'The game version it was caused at' }) seq: number;
  @Field({ description: 'When it was caused' }) createdAt: Date;
  @Field(() => Int, { description: 'Attempts made so far' }) attempts: number;
  @Field(() => Date, { nullable: true, description: 'When the last attempt was made' }) lastAttemptAt: Date | null;
  @Field(() => Int, { nullable: true, description: "The last attempt's HTTP status; null when there was no answer" }) lastStatus: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'Why the last attempt failed, in a few words: refused destination, could not connect, no valid answer, timed out, answered <status>, redirects are not followed; null once delivered',
  })
  lastError: string | null;
  @Field(() => Date, { nullable: true, description: 'When it is tried next; null once delivered or given up' }) nextAttemptAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When a 2xx answer was received' }) deliveredAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it was given up (retried for WEBHOOK_GIVE_UP_AFTER_SECONDS, 26 h by default)' }) givenUpAt: Date | null;
}

export const WebhookDeliveryConnection = connectionOf(WebhookDelivery, 'WebhookDelivery', {
  connection: "A page of a webhook's delivery log, newest first (Relay cursor connection)",
  edge: 'A message of the delivery log, with its cursor',
  node: 'The message and how its delivery went',
  items: 'messages',
  cursor: 'Opaque: pass it as `after` for the older messages',
  nodes: "The page's messages without their cursors (the edges' nodes)",
  pageInfo: 'Where the page ends, and whether older messages follow it',
});
export type WebhookDeliveryConnection = Connection<WebhookDelivery>;

@ObjectType({ description: 'A webhook deleted: nothing more is sent to it, and its delivery log is gone' })
export class WebhookDeleted {
  @Field(() => ID, { description: "The deleted registration's id" }) id: string;
}

export const WebhookSecretResult = orRejection('WebhookSecretResult', 'The registration with its new signing secret (WebhookSecret), or why not, nothing changed (Rejection)', () => WebhookSecret);

export const WebhookResult = orRejection('WebhookResult', 'The registration as it now stands (Webhook), or why not, nothing changed (Rejection)', () => Webhook);

export const DeleteWebhookResult = orRejection('DeleteWebhookResult', 'The registration deleted (WebhookDeleted), or why not, nothing changed (Rejection)', () => WebhookDeleted);

export const WebhookDeliveryResult = orRejection('WebhookDeliveryResult', 'The message, due now (WebhookDelivery), or why not, nothing changed (Rejection)', () => WebhookDelivery);

export const toWebhook = (w: WebhookRow): Webhook => ({
  id: w.id,
  url: w.url,
  events: [...w.events],
  lowTimeThresholdsSeconds: [...w.lowTimeThresholdsSeconds],
  gameId: w.gameId,
  seat: w.seat,
  tournamentId: w.tournamentId,
  participantId: w.participantId,
  playerId: w.playerId,
  createdAt: w.createdAt,
  timeouts: w.timeouts,
  suspendedAt: w.suspendedAt,
});

export const toWebhookSecret = ({ webhook, secret }: WebhookWithSecret): WebhookSecret => ({ id: webhook.id, secret, webhook: toWebhook(webhook) });

export const toDelivery = (d: DeliveryRow): WebhookDelivery => ({
  messageId: d.id,
  type: d.type,
  gameId: d.gameId,
  seq: d.seq,
  createdAt: d.createdAt,
  attempts: d.attempts,
  lastAttemptAt: d.lastAttemptAt,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  nextAttemptAt: d.nextAttemptAt,
  deliveredAt: d.deliveredAt,
  givenUpAt: d.failedAt,
});

export const toDeliveryConnection = (page: DeliveryPage): WebhookDeliveryConnection =>
  pageOf(
    page.deliveries.map((d) => ({ cursor: d.position, node: toDelivery(d) })),
    { endCursor: page.endCursor, hasNextPage: page.hasNextPage },
  );
