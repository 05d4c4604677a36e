import type { Logger } from '@nestjs/common';
import pg from 'pg';

/** Connection failures worth another try at start-up: the database is not up (yet), or not reachable (yet). */
const TRANSIENT = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EPIPE',
  'ENOENT', // a Unix socket not created yet
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
  '08001',
  '08006',
]);

/** Whether a failed connection is worth another try (the database may come up or become reachable). */
export function isTransient(err: unknown): boolean {
  const e = err as { code?: string; message?: string; errors?: { code?: string }[] };
  const code = e?.code ?? e?.errors?.[0]?.code;
  return (code !== undefined && TRANSIENT.has(code)) || /timeout expired|Connection terminated|connection timeout/i.test(e?.message ?? '');
}

/** A connection failure in a few words (pg's message names no password). */
export function connectFailure(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: { code?: string; message?: string }[] };
  const first = e?.errors?.[0];
  const code = e?.code ?? first?.code;
  const message = e?.message || first?.message || String(err);
  return code && !message.includes(code) ? `${code} ${message}` : message;
}

/** Connects to PostgreSQL, retrying with backoff while it is unreachable, for up to `timeoutMs`. */
export async function reach(url: string, where: string, timeoutMs: number, logger: Logger): Promise<pg.Client> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: Math.max(1000, Math.min(10_000, deadline - Date.now())) });
    try {
      await client.connect();
      if (attempt > 1) logger.log(`database at ${where} reached at attempt ${attempt}`);
      return client;
    } catch (err) {
      await client.end().catch(() => undefined);
      const why = connectFailure(err);
      if (!isTransient(err)) throw new Error(`DATABASE_URL: the database at ${where} refused the connection: ${why}`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`DATABASE_URL: the database at ${where} could not be reached within ${Math.round(timeoutMs / 1000)} s (${attempt} attempts; last: ${why})`);
      }
      const wait = Math.min(5000, 250 * 2 ** (attempt - 1), left);
      logger.warn(`database at ${where} not reachable (attempt ${attempt}: ${why}); retrying in ${wait} ms`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
