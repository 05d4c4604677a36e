import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { CONFIG, type Config } from '../config/config.js';
import { Clock, EventStore } from '../referee/index.js';
import { DeliveryFailure, post, resolveDestination } from './destination.js';
import { Notifications } from './notifications.js';
import { type AttemptOutcome, type ClaimedMessage, type EndpointOutcome, WebhookStore } from './webhook-store.js';

/** Deliveries one instance makes at once. */
const MAX_IN_FLIGHT = 32;
/** Of those, to one destination (host and port) and for one owner (a registering token): a few dead receivers hold a few, never all. */
export const PER_DESTINATION = 4;
export const PER_OWNER = 4;
/** A registration whose receiver timed out this many attempts in a row is suspended until its owner resumes it. */
export const SUSPEND_AFTER_TIMEOUTS = 5;
const TIMED_OUT = 'timed out';
const INTERRUPTED = 'interrupted: the service stopped';
/** Connecting (resolving the host, then TCP) must take no longer: a receiver that does not even accept is not waited for. */
const CONNECT_TIMEOUT_MS = 2000;
/** A lease outlasts its attempt (which is cut off at the timeout) by this much: clocks of instances differ a little. */
const LEASE_MARGIN_MS = 5000;
/** The longest error text kept in the log. */
const MAX_ERROR = 500;

/**
 * Delivers the outbox: claims due messages (each the first pending one of its webhook and
 * game), signs each per Standard Webhooks and POSTs it, then records the attempt. 2xx is
 * delivered; anything else (another status, a redirect, no answer within the timeout) is tried
 * again after an exponential backoff with full jitter, until the message is given up. Fairly:
 * each destination and each owner gets a few of the deliveries in flight, and a registration
 * whose receiver times out is paused, then suspended (docs/webhooks.md, Fair delivery). The
 * outbox is the truth: after a restart, even a SIGKILL, whatever was not recorded delivered is
 * delivered (a message leased by a process that died, once its lease runs out).
 *
 * It looks for work when a game with registrations is appended to (by any instance), when a
 * delivery ends (the next message of that webhook and game is due), and every WEBHOOK_POLL_MS
 * (retries, other instances' messages), when it also reads the registrations' changes. An
 * instance that allows no host (WEBHOOK_ALLOWED_HOSTS unset) delivers nothing: it only keeps
 * its cached registrations fresh, so that its moves store their messages for the others.
 */
@Injectable()
export class DeliveryWorker implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private readonly inFlight = new Map<Promise<void>, AbortController>();
  private readonly byDestination: Record<string, number> = {};
  private readonly byOwner: Record<string, number> = {};
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Whether the last look failed: a database that stays away is said once, not every look. */
  private failing = false;
  private lastRefresh = 0;
  private unwatch: (() => Promise<void>) | null = null;
  private readonly delivers: boolean;

  constructor(
    private readonly store: WebhookStore,
    private readonly notifications: Notifications,
    private readonly events: EventStore,
    private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.delivers = config.backgroundWork && (config.webhookAllowedHosts === '*' || config.webhookAllowedHosts.length > 0);
  }

  async onModuleInit(): Promise<void> {
    await this.notifications.refresh();
    this.lastRefresh = Date.now();
    if (this.delivers) this.notifications.whenEnqueued(() => this.wake());
    this.unwatch = await this.events.watch({
      appended: (gameId) => {
        if (this.delivers && this.notifications.mayConcern(gameId)) this.wake();
      },
      altered: () => undefined,
      lost: () => undefined,
      restored: () => undefined,
    });
    this.wake();
  }

  /** Stops looking, cuts the deliveries in flight short (each is retried at once, here after a restart or by another instance). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.unwatch?.();
    for (const controller of this.inFlight.values()) controller.abort();
    await Promise.all([this.running, ...this.inFlight.keys()]);
  }

  /** Looks for due messages now (once more after the current look, if one is running). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.look().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      } else if (!this.stopped) this.timer = setTimeout(() => this.wake(), this.config.webhookPollMs);
    });
  }

  private async look(): Promise<void> {
    try {
      if (Date.now() - this.lastRefresh >= this.config.webhookPollMs) {
        this.lastRefresh = Date.now();
        await this.notifications.refresh();
      }
      while (this.delivers && !this.stopped) {
        const room = MAX_IN_FLIGHT - this.inFlight.size;
        if (room === 0) return; // a delivery that ends looks again
        const now = this.clock.now();
        const lease = new Date(now.getTime() + this.config.webhookTimeoutSeconds * 1000 + LEASE_MARGIN_MS);
        const claimed = await this.store.claim(now, lease, room, { byDestination: this.byDestination, byOwner: this.byOwner, perDestination: PER_DESTINATION, perOwner: PER_OWNER });
        this.failing = false;
        for (const message of claimed) this.start(message);
        if (claimed.length < room) return;
      }
    } catch (err) {
      if (!this.failing) this.logger.warn(`cannot look for webhook messages (trying again): ${(err as Error).message}`);
      this.failing = true;
    }
  }

  private start(message: ClaimedMessage): void {
    const controller = new AbortController();
    const count = (by: Record<string, number>, key: string, n: number) => {
      by[key] = (by[key] ?? 0) + n;
      if (by[key] === 0) delete by[key];
    };
    count(this.byDestination, message.destination, 1);
    count(this.byOwner, message.owner, 1);
    const delivery: Promise<void> = this.attempt(message, controller.signal)
      .then((outcome) => this.store.record(message, outcome, this.endpoint(message, outcome)))
      .catch((err) => this.logger.warn(`webhook ${message.webhookId}, message ${message.id}: the attempt could not be recorded (it is tried again when its lease runs out): ${(err as Error).message}`))
      .finally(() => {
        this.inFlight.delete(delivery);
        count(this.byDestination, message.destination, -1);
        count(this.byOwner, message.owner, -1);
        this.wake();
      });
    this.inFlight.set(delivery, controller);
  }

  /**
   * What an attempt says of the receiver: a timeout pauses the whole registration for base ×
   * 2^(timeouts in a row before it), at most the maximum, so that a dead receiver is tried less
   * and less; any answer or refused connection ends the run; an interruption says nothing.
   */
  private endpoint(message: ClaimedMessage, outcome: AttemptOutcome): EndpointOutcome {
    if (outcome.error === INTERRUPTED) return null;
    if (outcome.error !== TIMED_OUT) return { timedOut: false };
    const wait = Math.min(this.config.webhookRetryMaxMs, this.config.webhookRetryBaseMs * 2 ** message.timeouts);
    return { timedOut: true, pausedUntil: new Date(outcome.at.getTime() + wait), suspendAfter: SUSPEND_AFTER_TIMEOUTS };
  }

  /** One signed POST of the message; never throws. */
  private async attempt(message: ClaimedMessage, stop: AbortSignal): Promise<AttemptOutcome> {
    const at = this.clock.now();
    const body = JSON.stringify(message.payload);
    const timeoutMs = this.config.webhookTimeoutSeconds * 1000;
    const signal = AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]);
    const connectTimeoutMs = Math.min(CONNECT_TIMEOUT_MS, timeoutMs);
    try {
      const url = new URL(message.url);
      const to = await resolveDestination(url, this.config.webhookAllowedHosts, connectTimeoutMs);
      const status = await post(url, to, {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Arbiter-Webhooks',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Webhook(message.secret).sign(message.id, at, body),
        },
        body,
        connectTimeoutMs,
        signal,
      });
      const done = this.clock.now();
      if (status >= 200 && status < 300) return { delivered: true, status, error: null, at: done };
      // A redirect could lead anywhere, past WEBHOOK_ALLOWED_HOSTS: it is an answer, not a delivery.
      return this.failed(message, done, status, status >= 300 && status < 400 ? 'redirects are not followed' : `answered ${status}`);
    } catch (err) {
      const done = this.clock.now();
      // Cut short by a stop: not the receiver's fault, tried again at once (here after a restart, or elsewhere).
      if (stop.aborted) return { delivered: false, status: null, error: INTERRUPTED, at: done, retryAt: done };
      if (signal.aborted) return this.failed(message, done, null, TIMED_OUT);
      return this.failed(message, done, null, err instanceof DeliveryFailure ? err.reason : 'could not connect');
    }
  }

  /**
   * A failed attempt: tried again after a random wait of up to base × 2^(attempt − 1), at most
   * the maximum (full jitter), until WEBHOOK_GIVE_UP_AFTER_SECONDS after the message's cause,
   * with one last attempt then.
   */
  private failed(message: ClaimedMessage, at: Date, status: number | null, error: string): AttemptOutcome {
    const deadline = message.createdAt.getTime() + this.config.webhookGiveUpAfterSeconds * 1000;
    const reason = error.slice(0, MAX_ERROR);
    if (at.getTime() >= deadline) {
      this.logger.warn(`webhook ${message.webhookId}, message ${message.id}: given up after ${message.attempt} attempts: ${reason}`);
      return { delivered: false, status, error: reason, at, retryAt: null };
    }
    const ceiling = Math.min(this.config.webhookRetryMaxMs, this.config.webhookRetryBaseMs * 2 ** (message.attempt - 1));
    const retryAt = new Date(Math.min(at.getTime() + Math.random() * ceiling, deadline));
    return { delivered: false, status, error: reason, at, retryAt };
  }
}
