import { Logger } from '@nestjs/common';
import pg from 'pg';
import type { AppendWatcher } from './event-store.js';

/** The channel the `games_appended` trigger notifies on (prisma/migrations/*_append_notify). */
export const APPENDED_CHANNEL = 'arbiter_appended';
/** The channel the `events_altered` triggers notify on (prisma/migrations/*_altered_notify): "<stream id>". */
export const ALTERED_CHANNEL = 'arbiter_altered';

/** Waits between reconnection attempts: short at first, then no more often than this. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 2000;
/** A silent connection is probed this often, and given up when the probe takes longer than its timeout. */
const PROBE_EVERY_MS = 5000;
const PROBE_TIMEOUT_MS = 5000;

/**
 * One connection that LISTENs for the triggers' notifications ("<game id> <version>", sent when
 * an append commits; "<stream id>" when a stored event was updated or deleted) and tells the
 * watcher. When the connection is lost (the database restarted,
 * the network cut), notifications sent meanwhile are lost with it: the watcher is told `lost`,
 * the connection is made again with backoff, and `restored` once it listens again. A connection
 * that goes silent without closing (a half-open TCP connection) is found by a periodic probe.
 */
export class AppendListener {
  private readonly logger = new Logger('Notifications');
  private client: pg.Client | null = null;
  private stopped = false;
  private isLost = false;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | null = null;
  private probe: NodeJS.Timeout | null = null;

  constructor(
    private readonly clientConfig: () => pg.ClientConfig,
    private readonly watcher: AppendWatcher,
  ) {}

  /** Listens from now on (or, if the database cannot be reached now, tells `lost` and keeps trying). */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.probe) clearInterval(this.probe);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.retry = null;
    const client = new pg.Client({ ...this.clientConfig(), keepAlive: true, query_timeout: PROBE_TIMEOUT_MS });
    // Errors end the connection; 'end' below handles both.
    client.on('error', () => void client.end().catch(() => undefined));
    try {
      await client.connect();
      await client.query(`LISTEN ${APPENDED_CHANNEL}; LISTEN ${ALTERED_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      this.lose(`cannot listen for appends: ${(err as Error).message}`);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    client.on('notification', (n) => {
      if (n.channel === ALTERED_CHANNEL) {
        if (n.payload) this.watcher.altered(n.payload);
        return;
      }
      const [gameId, version] = (n.payload ?? '').split(' ');
      const v = Number(version);
      if (gameId && Number.isSafeInteger(v)) this.watcher.appended(gameId, v);
    });
    client.once('end', () => {
      if (this.client !== client) return;
      this.client = null;
      if (this.probe) clearInterval(this.probe);
      this.lose('the connection listening for appends closed');
    });
    this.probe = setInterval(() => {
      // A half-open connection would not even finish a polite end(): cut it.
      client.query('SELECT 1').catch(() => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy());
    }, PROBE_EVERY_MS);
    this.probe.unref();
    if (this.isLost) {
      this.isLost = false;
      this.logger.log('listening for appends again; catching up what was missed');
      this.watcher.restored();
    }
  }

  private lose(why: string): void {
    if (this.stopped) return;
    if (!this.isLost) {
      this.isLost = true;
      this.logger.warn(`${why}; checking stored versions until it is back`);
      this.watcher.lost();
    }
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }
}
