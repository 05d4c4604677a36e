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
