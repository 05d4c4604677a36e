import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CONFIG, type Config } from '../config/config.js';
import { GameDirectory, type KeyHolder, KeyDirectory, RefereeError, TokenDirectory, tokenHash, type TokenRole } from '../referee/index.js';
import { CHALLENGE_EVENTS, Notifications, TOURNAMENT_EVENTS, WEBHOOK_EVENTS, type WebhookEvent } from './notifications.js';
import { checkWebhookUrl } from './url-policy.js';
import { type DeliveryRow, type NewWebhook, type WebhookRow, WebhookStore } from './webhook-store.js';

export interface RegisterWebhookInput {
  url: string;
  gameId?: string | null;
  tournamentId?: string | null;
  /** An app's player (with the app's key); a player's key registers for its own player without it. */
  playerId?: string | null;
  events: readonly string[];
  lowTimeThresholdsSeconds?: readonly number[] | null;
}

/** Who calls: the Bearer token, and the player or app holding it when it is a key (src/api/caller.ts). */
export interface WebhookCaller {
  token: string | null;
  holder: KeyHolder | null;
}

/** A registration with its secret: answered when it is made and when the secret is rotated, never else. */
export interface WebhookWithSecret {
  webhook: WebhookRow;
  secret: string;
}

export interface DeliveryPage {
  deliveries: DeliveryRow[];
  /** Pass as `after` for the next (older) page; null when this one is the last. */
  endCursor: string | null;
  hasNextPage: boolean;
}

/** Registrations a scope (a game, a seat, a tournament, a participant) may have: each multiplies its moves' work. */
export const MAX_WEBHOOKS_PER_SCOPE = 10;
const MAX_THRESHOLDS = 5;
const MAX_THRESHOLD_SECONDS = 30 * 86_400;
/** TIME_RUNNING_LOW without thresholds: told once a minute is left. */
const DEFAULT_THRESHOLDS = [60];
const MAX_PAGE = 100;

/** What a registration is for: exactly one of a game (or a seat of it), a tournament (or a participant of it), a player. */
type WebhookScope = Pick<WebhookRow, 'gameId' | 'seat' | 'tournamentId' | 'participantId' | 'playerId'>;
const NO_SCOPE: WebhookScope = { gameId: null, seat: null, tournamentId: null, participantId: null, playerId: null };

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const newWebhookId = () => `wh_${randomBytes(12).toString('base64url')}`;

/**
 * Webhook registrations: made with a token, which decides the scope, and managed by the token
 * that made them. A tournament's organizer may also delete its tournament's registrations and
 * read their delivery logs; a secret is answered to the registering token alone (an opponent
 * holding it could silence or forge another seat's notifications).
 *
 * The scope: with `gameId`, a game (a token of one of its seats, or its tournament's organizer's);
 * with `tournamentId`, a tournament (its organizer's token) or one participant of it (that
 * participant's token); with neither, the caller's own: a seat token's seat, a participant
 * token's games, an organizer token's tournament, a player's key's player (every game where it
 * holds a seat). An app's key registers for a player it created (`playerId`). A player's
 * registration is the player's: managed with any of its keys (or its app's), not only the one
 * that made it, so a rotated key loses nothing.
 */
@Injectable()
export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
    private readonly notifications: Notifications,
    private readonly tokens: TokenDirectory,
    private readonly games: GameDirectory,
    private readonly keys: KeyDirectory,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async register({ token, holder }: WebhookCaller, input: RegisterWebhookInput): Promise<WebhookWithSecret> {
    const url = checkWebhookUrl(input.url, this.config.webhookAllowedHosts);
    const events = checkEvents(input.events);
    const thresholds = checkThresholds(input.lowTimeThresholdsSeconds, events);
    if (!token) throw new RefereeError('UNAUTHORIZED', "registering a webhook needs a token as a Bearer token: a seat's, a tournament participant's, an organizer's, or a player's or app's key");
    const hash = tokenHash(token);
    const scope = holder ? await this.playerScopeOf(holder, input) : await this.scopeOf(await this.tokens.roleOf(hash), input);
    if (scope.playerId === null && events.some((e) => (CHALLENGE_EVENTS as readonly string[]).includes(e))) {
      throw new RefereeError('INVALID_INPUT', "challenge events are a player's: register them with the player's key (or its app's)");
    }
    if (scope.gameId !== null && events.some((e) => (TOURNAMENT_EVENTS as readonly string[]).includes(e))) {
      throw new RefereeError('INVALID_INPUT', "tournament events are a tournament's or a player's: register them with the organizer's or a participant's token, or a player's key");
    }
    const secret = newSecret();
    const webhook: NewWebhook = { id: newWebhookId(), url, secret, events, lowTimeThresholdsSeconds: thresholds, ownerTokenHash: hash, ...scope };
    if (!(await this.store.create(webhook, MAX_WEBHOOKS_PER_SCOPE))) {
      const what = scope.playerId !== null ? 'player' : scope.seat !== null ? 'seat' : scope.participantId !== null ? 'participant' : scope.gameId !== null ? 'game' : 'tournament';
      throw new RefereeError('WEBHOOK_LIMIT', `this ${what} has ${MAX_WEBHOOKS_PER_SCOPE} webhooks already: delete one first`);
    }
    this.notifications.changed(scope, true);
    return { webhook: { ...webhook, createdAt: new Date(), timeouts: 0, suspendedAt: null }, secret };
  }

  /** A new secret: every delivery from now on is signed with it (a retry of an earlier message too). */
  async rotateSecret(caller: WebhookCaller, id: string): Promise<WebhookWithSecret> {
    const webhook = await this.managed(caller, id, { ownerOnly: true });
    const secret = newSecret();
    await this.store.setSecret(id, secret);
    return { webhook: { ...webhook, secret }, secret };
  }

  /** The registration as it stands (whether it is suspended). */
  async get(caller: WebhookCaller, id: string): Promise<WebhookRow> {
    return this.managed(caller, id);
  }

  /** Lifts a suspension (its receiver timed out too often in a row): its pending messages are tried at once. */
  async resume(caller: WebhookCaller, id: string): Promise<WebhookRow> {
    const webhook = await this.managed(caller, id);
    await this.store.resume(id);
    this.notifications.madeDue();
    return { ...webhook, timeouts: 0, suspendedAt: null };
  }

  /** Deletes the registration and its messages: nothing more is sent, and its log is gone. */
  async delete(caller: WebhookCaller, id: string): Promise<void> {
    const webhook = await this.managed(caller, id);
    await this.store.delete(id);
    this.notifications.changed(webhook, false);
  }

  /** The registration's messages, newest first: their attempts, last answers and what comes next. */
  async deliveries(caller: WebhookCaller, id: string, first: number, after: string | null): Promise<DeliveryPage> {
    if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE) throw new RefereeError('INVALID_INPUT', `first must be 1 to ${MAX_PAGE}`);
    if (after !== null && !/^\d{1,18}$/.test(after)) throw new RefereeError('INVALID_INPUT', 'after must be a cursor from an earlier page (its endCursor)');
    await this.managed(caller, id);
    const rows = await this.store.deliveries(id, first + 1, after);
    const deliveries = rows.slice(0, first);
    return { deliveries, endCursor: deliveries.at(-1)?.position ?? null, hasNextPage: rows.length > first };
  }

  /** A key's registration: its player's (a player's key), or the player `playerId` an app created (the app's key). */
  /** Makes one of the registration's messages due now: after a receiver's outage, its next attempt may be an hour away. */
  async redeliver(caller: WebhookCaller, id: string, messageId: string): Promise<DeliveryRow> {
    await this.managed(caller, id);
    const message = typeof messageId === 'string' && /^msg_[0-9a-f]{32}$/.test(messageId) ? await this.store.redeliver(id, messageId) : null;
    if (!message) throw new RefereeError('NOT_FOUND', `webhook ${id} has no message ${messageId}`);
    this.notifications.madeDue();
    return message;
  }

  private async playerScopeOf(holder: KeyHolder, input: RegisterWebhookInput): Promise<WebhookScope> {
    if (input.gameId || input.tournamentId) {
      throw new RefereeError('INVALID_INPUT', "a key's webhook is a player's, for every game where the player holds a seat: leave out gameId and tournamentId");
    }
    if (holder.owner === 'player') {
      if (input.playerId && input.playerId !== holder.ownerId) throw new RefereeError('UNAUTHORIZED', "a player's key registers webhooks for its own player only");
      return { ...NO_SCOPE, playerId: holder.ownerId };
    }
    if (!input.playerId) throw new RefereeError('INVALID_INPUT', "an app's key registers a webhook for one of its players: give playerId");
    await this.appPlayer(holder, input.playerId);
    return { ...NO_SCOPE, playerId: input.playerId };
  }

  /** The player `playerId`, when the app holding the key created it (NOT_FOUND otherwise: an app sees only its own players). */
  private async appPlayer(holder: KeyHolder, playerId: string): Promise<void> {
    const player = await this.keys.player(playerId);
    if (!player || player.appId !== holder.ownerId) throw new RefereeError('NOT_FOUND', `no player with id ${playerId} created by this app`);
  }

  private async scopeOf(role: TokenRole | null, input: RegisterWebhookInput): Promise<WebhookScope> {
    const none = NO_SCOPE;
    if (input.playerId) throw new RefereeError('UNAUTHORIZED', "a player's webhook needs the player's key, or the key of the app that created it");
    if (!role) throw new RefereeError('UNAUTHORIZED', 'this token is none this referee issued (a seat, participant or organizer token)');
    if (input.gameId && input.tournamentId) throw new RefereeError('INVALID_INPUT', 'a webhook is for a game or for a tournament, not both');
    if (input.gameId) {
      const game = await this.games.summary(input.gameId);
      if (!game) throw new RefereeError('NOT_FOUND', `no game with id ${input.gameId}`);
      const mayRegister = (role.role === 'seat' && role.gameId === input.gameId) || (role.role === 'organizer' && role.tournamentId === game.tournamentId);
      if (!mayRegister) throw new RefereeError('UNAUTHORIZED', "a game's webhook needs the token of one of its seats (or of its tournament's organizer)");
      return { ...none, gameId: input.gameId };
    }
    if (input.tournamentId) {
      if (role.role === 'seat' || role.tournamentId !== input.tournamentId) throw new RefereeError('UNAUTHORIZED', "a tournament's webhook needs its organizer's token, or one of its participants'");
      return role.role === 'organizer' ? { ...none, tournamentId: role.tournamentId } : { ...none, tournamentId: role.tournamentId, participantId: role.participantId };
    }
    if (role.role === 'seat') return { ...none, gameId: role.gameId, seat: role.seat };
    if (role.role === 'participant') return { ...none, tournamentId: role.tournamentId, participantId: role.participantId };
    return { ...none, tournamentId: role.tournamentId };
  }

  /** The registration, if this token may manage it: its owner's, or (not for a new secret) its tournament organizer's. */
  private async managed({ token, holder }: WebhookCaller, id: string, options: { ownerOnly?: boolean } = {}): Promise<WebhookRow> {
    if (!token) throw new RefereeError('UNAUTHORIZED', 'managing a webhook needs the token it was registered with as a Bearer token');
    const webhook = typeof id === 'string' && /^wh_[A-Za-z0-9_-]{16}$/.test(id) ? await this.store.get(id) : null;
    if (!webhook) throw new RefereeError('NOT_FOUND', `no webhook with id ${id}`);
    if (webhook.playerId !== null && holder) {
      if (holder.owner === 'player' && holder.ownerId === webhook.playerId) return webhook;
      if (holder.owner === 'app' && (await this.keys.player(webhook.playerId))?.appId === holder.ownerId) return webhook;
    }
    const hash = tokenHash(token);
    if (webhook.ownerTokenHash === hash) return webhook;
    const role = options.ownerOnly ? null : await this.tokens.roleOf(hash);
    if (role?.role === 'organizer' && webhook.tournamentId !== null && webhook.tournamentId === role.tournamentId) return webhook;
    throw new RefereeError(
      'UNAUTHORIZED',
      options.ownerOnly
        ? 'only the token this webhook was registered with gets a new secret'
        : "this token may not manage this webhook: use the token it was registered with (or, for a tournament's, its organizer's)",
    );
  }
}

function checkEvents(events: readonly string[]): WebhookEvent[] {
  const known = new Set<string>(WEBHOOK_EVENTS);
  if (!Array.isArray(events) || events.length === 0) throw new RefereeError('INVALID_INPUT', `events must name at least one of ${WEBHOOK_EVENTS.join(', ')}`);
  const unknown = events.find((e) => !known.has(e));
  if (unknown !== undefined) throw new RefereeError('INVALID_INPUT', `unknown webhook event ${unknown}: one of ${WEBHOOK_EVENTS.join(', ')}`);
  return WEBHOOK_EVENTS.filter((e) => events.includes(e));
}

function checkThresholds(given: readonly number[] | null | undefined, events: readonly WebhookEvent[]): number[] {
  if (given === null || given === undefined || given.length === 0) return events.includes('TIME_RUNNING_LOW') ? DEFAULT_THRESHOLDS : [];
  if (given.length > MAX_THRESHOLDS || given.some((t) => !Number.isInteger(t) || t < 1 || t > MAX_THRESHOLD_SECONDS)) {
    throw new RefereeError('INVALID_INPUT', `lowTimeThresholdsSeconds: at most ${MAX_THRESHOLDS} whole numbers of seconds, 1 to ${MAX_THRESHOLD_SECONDS}`);
  }
  if (!events.includes('TIME_RUNNING_LOW')) throw new RefereeError('INVALID_INPUT', 'lowTimeThresholdsSeconds go with the TIME_RUNNING_LOW event');
  return [...new Set(given)].sort((a, b) => b - a);
}
