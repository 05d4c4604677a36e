import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { type Bot, gql } from './bot.js';

const REGISTER = `mutation($input: RegisterWebhookInput!) { registerWebhook(input: $input) { ... on WebhookSecret { id } ... on Rejection { code message } } }`;

/** Webhook messages through a failover: stored in the outbox (expected) against received at the receiver. */
export interface WebhookCount {
  /** Messages the outbox holds: each was stored with the move that caused it. */
  expected: number;
  /** Expected messages received at least once (distinct webhook-id). */
  delivered: number;
  /** Expected messages never received (must be 0). */
  lost: number;
  /** Receipts of a message already received (allowed: at-least-once, deduplicated by webhook-id). */
  duplicates: number;
  /** Messages the service gave up on (WEBHOOK_GIVE_UP_AFTER_SECONDS). */
  givenUp: number;
}

/**
 * A receiver for the failover check: the bots register it on each of their games (YOUR_TURN,
 * GAME_OVER); it answers every POST 204 and counts each webhook-id it is sent. Afterwards, once
 * the outbox has nothing left to deliver, every message the outbox holds must have been received.
 */
export class WebhookTally {
  private readonly received = new Map<string, number>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookTally> {
    const server = createServer();
    const tally = new WebhookTally(server);
    server.on('request', (req, res) => {
      const id = req.headers['webhook-id'];
      req.resume();
      req.on('end', () => {
        if (typeof id === 'string') tally.received.set(id, (tally.received.get(id) ?? 0) + 1);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return tally;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The service's settings that let it deliver here soon, and retry soon after a failover. */
  serviceEnv(): Record<string, string> {
    return { WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${this.port}`, WEBHOOK_RETRY_BASE_MS: '500', WEBHOOK_RETRY_MAX_MS: '5000', WEBHOOK_POLL_MS: '250' };
  }

  /** Registers the receiver on the bot's game (every seat), through the instance the bot uses; throws if refused. */
  async register(bot: Bot): Promise<void> {
    const input = { url: `http://127.0.0.1:${this.port}/hook`, gameId: bot.gameId, events: ['YOUR_TURN', 'GAME_OVER'] };
    const answer = await gql(bot.url, REGISTER, { input }, bot.token(0));
    if (answer.errors || answer.data?.registerWebhook?.code) throw new Error(`registering a webhook failed: ${JSON.stringify(answer.errors ?? answer.data.registerWebhook).slice(0, 200)}`);
  }

  /** Waits until the outbox has nothing left to deliver (or `timeoutMs`), then compares it with what was received. */
  async settle(databaseUrl: string, timeoutMs: number): Promise<WebhookCount> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const end = Date.now() + timeoutMs;
      const pending = async () => (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_messages WHERE delivered_at IS NULL AND failed_at IS NULL')).rows[0].n;
      while ((await pending()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 500));
      const stored = (await client.query<{ id: string; failed: boolean }>('SELECT id, failed_at IS NOT NULL AS failed FROM webhook_messages')).rows;
      const delivered = stored.filter((m) => this.received.has(m.id)).length;
      const receipts = [...this.received.values()].reduce((a, b) => a + b, 0);
      return { expected: stored.length, delivered, lost: stored.length - delivered, duplicates: receipts - this.received.size, givenUp: stored.filter((m) => m.failed).length };
    } finally {
      await client.end();
    }
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
