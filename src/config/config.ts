/**
 * Configuration comes from environment variables only, validated once at start-up: a bad value
 * stops the service with a message naming the variable, instead of surfacing later.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  databasePoolSize: number;
  rateLimitPerMinute: number;
  logLevel: LogLevel;
  maxBodyBytes: number;
  maxQueryDepth: number;
  maxQueryComplexity: number;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgresql:// URL');
  }
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: env.DATA_DIR?.trim() || './data',
    databaseUrl,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 20, 1, 200),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000),
    logLevel: logLevel as LogLevel,
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    maxQueryDepth: int(env, 'MAX_QUERY_DEPTH', 10, 2, 100),
    maxQueryComplexity: int(env, 'MAX_QUERY_COMPLEXITY', 1000, 10, 1_000_000),
  };
}

export const CONFIG = Symbol('CONFIG');
