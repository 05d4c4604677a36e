import { isIP } from 'node:net';
import { isPublicAddress, namedAddress } from './addresses.js';

/**
 * Configuration comes from environment variables only, validated once at start-up: a bad value
 * stops the service with a message naming the variable, instead of surfacing later.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /**
   * A direct connection to the same database, set when DATABASE_URL goes through a pooler in
   * transaction mode (PgBouncer): LISTEN and the migrations' session lock need a session of
   * their own, and the pool then prepares no named statements (a transaction-mode pooler does
   * not keep them from one transaction to the next).
   */
  databaseListenUrl: string | null;
  databasePoolSize: number;
  /** Requests a minute per seat token (and as many moves); 0 turns every request limit off. */
  rateLimitPerMinute: number;
  /** Requests a minute per client address, for callers without a real token; null: twice rateLimitPerMinute. */
  addressRateLimitPerMinute: number | null;
  /** Requests a minute from one client address over all the seat tokens it uses, together (so minting tokens cannot multiply an address's budget); null: ten times rateLimitPerMinute. */
  addressSeatsRateLimitPerMinute: number | null;
  logLevel: LogLevel;
  maxBodyBytes: number;
  maxQueryDepth: number;
  /** The most one GraphQL operation may cost: 1 a field, more for the expensive ones. */
  maxQueryComplexity: number;
  /** The most expensive fields (verifyGame, gameStateAt, imports, record exports) one operation may select. */
  maxExpensiveFields: number;
  /** Proxies whose X-Forwarded-For is believed (addresses, CIDRs, `loopback`, ...); empty: none. */
  trustProxy: string[];
  /** Games one address may create or import an hour; 0 is off. */
  createQuotaPerHour: number;
  /** Open subscriptions per seat token (per address for callers without one); 0 is off. */
  maxSubscriptionsPerCaller: number;
  /** Open subscriptions per address, whatever the tokens; 0 is off. */
  maxSubscriptionsPerAddress: number;
  /** Open connections (HTTP and WebSocket) per client address; 0 is off. */
  maxConnectionsPerAddress: number;
  /** Open connections in all; 0 is off. */
  maxConnections: number;
  /** Seconds a client has to send a whole request (headers and body). */
  requestTimeoutSeconds: number;
  /** Seconds a client has to send a request's headers. */
  headersTimeoutSeconds: number;
  /** Seconds an idle keep-alive connection stays open. */
  keepAliveTimeoutSeconds: number;
  /** Browser origins allowed to call the API (CORS): a list, `*` for any, empty for none. */
  corsOrigins: string[] | '*';
  /** Serve GraphiQL at /graphiql (GRAPHIQL=on|off; off by default under NODE_ENV=production). */
  graphiql: boolean;
  /** Most milliseconds between two looks for due deadlines (time controls); sooner when one is due sooner. */
  deadlinePollMs: number;
  /** Milliseconds between two sweeps that recompute lost deadlines from the games. */
  deadlineSweepMs: number;
  /** Hosts webhooks may be sent to (`host` any port, `host:port` that one), `*` any public one; empty: no webhook may be registered. */
  webhookAllowedHosts: WebhookHost[] | '*';
  /** Seconds one delivery attempt may take (connecting, sending, the answer's status). */
  webhookTimeoutSeconds: number;
  /** The first retry's longest wait; each later one doubles it, up to webhookRetryMaxMs (full jitter). */
  webhookRetryBaseMs: number;
  webhookRetryMaxMs: number;
  /** A message not delivered within this many seconds of its cause is given up. */
  webhookGiveUpAfterSeconds: number;
  /** Most milliseconds between two looks for due webhook messages (and registrations changed by other instances). */
  webhookPollMs: number;
  /** The transparency log's origin: the first line of its checkpoints, and its key's name when the key is generated (docs/transparency.md). */
  logOrigin: string;
  /** The log's signer key (`PRIVATE+KEY+<name>+<id>+<base64>`, golang.org/x/mod/sumdb/note's form); null: generated once into the data folder. */
  logSigningKey: string | null;
  /** Milliseconds between two checkpoints (one is signed only when the log grew). */
  logCheckpointMs: number;
  /** The witnesses asked to cosign each checkpoint (c2sp.org/tlog-witness): each one's URL and verifier key. */
  logWitnesses: { url: string; key: string }[];
  /**
   * Whether this process takes the service's own steps in the background: deadlines, scheduled
   * tournament steps and catch-ups, the rating queue, checkpoints, webhook deliveries. Off for the
   * commands that only read a database (verify:all, ratings:recompute): reads never write.
   */
  backgroundWork: boolean;
}

/** An allowed webhook host: its name (lower case, as a URL spells it) and, if given, its one port. */
export interface WebhookHost {
  hostname: string;
  port: number | null;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A host name (RFC 1123 labels) or an IPv4/IPv6 address. */
function host(env: NodeJS.ProcessEnv): string {
  const raw = env.HOST;
  if (raw === undefined || raw.trim() === '') return '127.0.0.1';
  const value = raw.trim();
  const label = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
  if (isIP(value)) return value;
  // A dotted quad that is not an address (999.1.1.1) is a typo, not a host name.
  if (!/^[\d.]+$/.test(value) && value.length <= 253 && value.split('.').every((l) => label.test(l))) return value;
  throw new ConfigError(`HOST must be a host name or an IP address (e.g. 127.0.0.1, 0.0.0.0, ::), got "${raw}"`);
}

/** postgresql://user:pass@host:port/db (or a Unix socket folder in ?host=). */
function databaseUrl(env: NodeJS.ProcessEnv, name: 'DATABASE_URL' | 'DATABASE_LISTEN_URL' = 'DATABASE_URL'): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  const example = 'postgresql://user:pass@host:5432/db';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL like ${example}; it does not parse`);
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new ConfigError(`${name} must be a postgresql:// URL like ${example}, got the scheme "${url.protocol}"`);
  }
  if (!url.hostname && !url.searchParams.get('host')) {
    throw new ConfigError(`${name} must name a host, like ${example} (or a socket folder: ?host=/var/run/postgresql)`);
  }
  return raw;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** Comma-separated proxies: loopback, linklocal, uniquelocal, addresses and CIDRs (proxy-addr's, as Fastify's `trustProxy` takes them). */
function trustProxy(env: NodeJS.ProcessEnv): string[] {
  const raw = env.TRUST_PROXY;
  if (raw === undefined || raw.trim() === '') return [];
  const items = raw.split(',').map((s) => s.trim());
  for (const item of items) {
    const [addr, bits, extra] = item.split('/');
    const family = isIP(addr);
    const cidrOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (PROXY_NAMES.includes(item) || (family !== 0 && cidrOk && extra === undefined)) continue;
    throw new ConfigError(
      `TRUST_PROXY must be a comma-separated list of the proxies in front of the service (${PROXY_NAMES.join(', ')}, IP addresses or CIDRs such as 10.0.0.0/8), got "${item}" in "${raw}"`,
    );
  }
  return items;
}

/** CORS_ORIGINS: `*`, or comma-separated origins such as https://app.example.com or http://localhost:5173. */
function corsOrigins(env: NodeJS.ProcessEnv): string[] | '*' {
  const raw = env.CORS_ORIGINS;
  if (raw === undefined || raw.trim() === '') return [];
  if (raw.trim() === '*') return '*';
  return raw.split(',').map((item) => {
    const origin = item.trim();
    let url: URL | null = null;
    try {
      url = new URL(origin);
    } catch {
      /* refused below */
    }
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
      throw new ConfigError(`CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example.com (scheme, host and port only), got "${origin}"`);
    }
    return url.origin;
  });
}

/** GRAPHIQL: `on` or `off`; unset, on except under NODE_ENV=production. */
function graphiql(env: NodeJS.ProcessEnv): boolean {
  const raw = env.GRAPHIQL;
  if (raw === undefined || raw.trim() === '') return env.NODE_ENV?.trim() !== 'production';
  const value = raw.trim().toLowerCase();
  if (value === 'on' || value === 'off') return value === 'on';
  throw new ConfigError(`GRAPHIQL must be on or off, got "${raw}"`);
}

/**
 * WEBHOOK_ALLOWED_HOSTS: `*` (any public host), or comma-separated host names or addresses, each
 * with an optional port (`hooks.example.com`, `10.0.0.5:8080`, `[::1]:9000`). Only an entry with
 * a port reaches an address that is not public (url-policy.ts), so a non-public address or
 * `localhost` without one is refused. Unset: none, so the service sends nothing anywhere its
 * operator did not name.
 */
function webhookAllowedHosts(env: NodeJS.ProcessEnv): WebhookHost[] | '*' {
  const raw = env.WEBHOOK_ALLOWED_HOSTS;
  if (raw === undefined || raw.trim() === '') return [];
  if (raw.trim() === '*') return '*';
  return raw.split(',').map((item) => {
    const entry = item.trim();
    const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(entry);
    let hostname: string | null = null;
    try {
      if (m) hostname = new URL(`http://${m[1]}`).hostname;
    } catch {
      /* refused below */
    }
    const port = m?.[2] === undefined ? null : Number(m[2]);
    if (!m || !hostname || (port !== null && (port < 1 || port > 65535))) {
      throw new ConfigError(`WEBHOOK_ALLOWED_HOSTS must be * or a comma-separated list of host names or addresses, each with an optional port (hooks.example.com, 10.0.0.5:8080), got "${entry}"`);
    }
    const address = namedAddress(hostname);
    if (port === null && address !== null && !isPublicAddress(address)) {
      throw new ConfigError(
        `WEBHOOK_ALLOWED_HOSTS: "${entry}" is not a public address (loopback, private, link-local or the like): name the one port webhooks may reach on it (${entry}:8080), not all of them`,
      );
    }
    return { hostname, port };
  });
}

/** LOG_ORIGIN: a name for the log, conventionally its URL without the scheme (c2sp.org/tlog-checkpoint); printable, no spaces or `+`. */
function logOrigin(env: NodeJS.ProcessEnv): string {
  const raw = env.LOG_ORIGIN?.trim();
  if (!raw) return 'arbiter.localhost/log';
  if (!/^[\x21-\x2a\x2c-\x7e]{1,200}$/.test(raw)) throw new ConfigError(`LOG_ORIGIN must be printable ASCII without spaces or "+", such as arbiter.example.com/log, got "${raw}"`);
  return raw;
}

/** LOG_WITNESSES: `<witness URL> <witness key>` pairs, separated by commas (the key's syntax is checked by the log at start). */
function logWitnesses(env: NodeJS.ProcessEnv): { url: string; key: string }[] {
  const raw = env.LOG_WITNESSES?.trim();
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const [url, key, ...rest] = entry.trim().split(/\s+/);
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {}
    if (!parsed || !/^https?:$/.test(parsed.protocol) || !key || rest.length > 0) {
      throw new ConfigError(`LOG_WITNESSES lists "<witness URL> <witness key>" pairs separated by commas, such as "https://w1.example ${'witness.example/w1+1a2b3c4d+BASE64'}", got "${entry.trim()}"`);
    }
    return { url: url.replace(/\/+$/, ''), key };
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = (env.LOG_LEVEL ?? 'info').trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const requestTimeoutSeconds = int(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1, 3600);
  const headersTimeoutSeconds = int(env, 'HEADERS_TIMEOUT_SECONDS', Math.min(10, requestTimeoutSeconds), 1, 3600);
  if (headersTimeoutSeconds > requestTimeoutSeconds) {
    throw new ConfigError(`HEADERS_TIMEOUT_SECONDS (${headersTimeoutSeconds}) must not exceed REQUEST_TIMEOUT_SECONDS (${requestTimeoutSeconds})`);
  }
  const listenUrl = databaseUrl(env, 'DATABASE_LISTEN_URL');
  if (listenUrl && !databaseUrl(env)) throw new ConfigError('DATABASE_LISTEN_URL is the direct connection beside a pooled DATABASE_URL: set DATABASE_URL too');
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: host(env),
    dataDir: env.DATA_DIR?.trim() || './data',
    databaseUrl: databaseUrl(env),
    databaseListenUrl: listenUrl,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 20, 1, 200),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000),
    addressRateLimitPerMinute: env.ADDRESS_RATE_LIMIT_PER_MINUTE?.trim() ? int(env, 'ADDRESS_RATE_LIMIT_PER_MINUTE', 0, 1, 1_000_000) : null,
    addressSeatsRateLimitPerMinute: env.ADDRESS_SEATS_RATE_LIMIT_PER_MINUTE?.trim() ? int(env, 'ADDRESS_SEATS_RATE_LIMIT_PER_MINUTE', 0, 1, 10_000_000) : null,
    logLevel: logLevel as LogLevel,
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    maxQueryDepth: int(env, 'MAX_QUERY_DEPTH', 10, 2, 100),
    maxQueryComplexity: int(env, 'MAX_QUERY_COMPLEXITY', 1000, 10, 1_000_000),
    maxExpensiveFields: int(env, 'MAX_EXPENSIVE_FIELDS', 5, 1, 1000),
    trustProxy: trustProxy(env),
    createQuotaPerHour: int(env, 'CREATE_QUOTA_PER_HOUR', 120, 0, 1_000_000),
    maxSubscriptionsPerCaller: int(env, 'MAX_SUBSCRIPTIONS_PER_CALLER', 20, 0, 100_000),
    maxSubscriptionsPerAddress: int(env, 'MAX_SUBSCRIPTIONS_PER_ADDRESS', 100, 0, 1_000_000),
    maxConnectionsPerAddress: int(env, 'MAX_CONNECTIONS_PER_ADDRESS', 100, 0, 1_000_000),
    maxConnections: int(env, 'MAX_CONNECTIONS', 10_000, 0, 1_000_000),
    requestTimeoutSeconds,
    headersTimeoutSeconds,
    keepAliveTimeoutSeconds: int(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', 5, 1, 3600),
    corsOrigins: corsOrigins(env),
    graphiql: graphiql(env),
    deadlinePollMs: int(env, 'DEADLINE_POLL_MS', 1000, 10, 60_000),
    deadlineSweepMs: int(env, 'DEADLINE_SWEEP_MS', 60_000, 1000, 86_400_000),
    webhookAllowedHosts: webhookAllowedHosts(env),
    webhookTimeoutSeconds: int(env, 'WEBHOOK_TIMEOUT_SECONDS', 5, 1, 60),
    webhookRetryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 30_000, 1, 3_600_000),
    webhookRetryMaxMs: int(env, 'WEBHOOK_RETRY_MAX_MS', 3_600_000, 1, 86_400_000),
    webhookGiveUpAfterSeconds: int(env, 'WEBHOOK_GIVE_UP_AFTER_SECONDS', 93_600, 1, 30 * 86_400),
    webhookPollMs: int(env, 'WEBHOOK_POLL_MS', 1000, 10, 60_000),
    logOrigin: logOrigin(env),
    logSigningKey: env.LOG_SIGNING_KEY?.trim() || null,
    logCheckpointMs: int(env, 'LOG_CHECKPOINT_MS', 10_000, 10, 3_600_000),
    logWitnesses: logWitnesses(env),
    backgroundWork: true,
  };
}

export const CONFIG = Symbol('CONFIG');
