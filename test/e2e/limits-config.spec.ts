import { spawnSync } from 'node:child_process';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { serviceEntry } from '../../tools/service.js';

/** Every bad setting stops the service with a message naming its variable. */

const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('configuration', () => {
  it.each([
    ['HOST', 'not a host!'],
    ['HOST', '999.1.1.1'],
    ['HOST', 'http://example.com'],
    ['HOST', '-leading-dash'],
    ['HOST', 'a..b'],
    ['DATABASE_URL', 'postgresql://'],
    ['DATABASE_URL', 'postgresql:///db'],
    ['DATABASE_URL', 'postgres://host:port/db'],
    ['DATABASE_URL', 'mysql://u@h/db'],
    ['DATABASE_URL', 'just words'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '*'],
    ['TRUST_PROXY', 'proxy.example.com'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'loopback,,10.0.0.1'],
    ['CREATE_QUOTA_PER_HOUR', '-1'],
    ['CREATE_QUOTA_PER_HOUR', 'lots'],
    ['MAX_SUBSCRIPTIONS_PER_CALLER', '1.5'],
    ['MAX_SUBSCRIPTIONS_PER_ADDRESS', 'x'],
    ['MAX_CONNECTIONS_PER_ADDRESS', '-3'],
    ['MAX_CONNECTIONS', '99999999'],
    ['MAX_EXPENSIVE_FIELDS', '0'],
    ['REQUEST_TIMEOUT_SECONDS', '0'],
    ['HEADERS_TIMEOUT_SECONDS', 'soon'],
    ['KEEP_ALIVE_TIMEOUT_SECONDS', '0'],
    ['RATE_LIMIT_PER_MINUTE', 'ten'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['CORS_ORIGINS', 'app.example.com'],
    ['ADDRESS_RATE_LIMIT_PER_MINUTE', '0'],
    ['ADDRESS_SEATS_RATE_LIMIT_PER_MINUTE', '0'],
    ['CORS_ORIGINS', 'https://app.example.com/path'],
  ])('%s=%j is refused, naming the variable', (name, value) => {
    expect(refusal({ [name]: value })).toContain(name);
  });

  it('a service started with a bad setting exits 2 with one JSON log line naming it', () => {
    const run = spawnSync(process.execPath, [serviceEntry()], { env: { ...process.env, NODE_ENV: 'production', PORT: '70000' }, encoding: 'utf8' });
    expect(run.status).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({ level: 'fatal', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), msg: 'configuration error', error: expect.stringContaining('PORT') });
  });

  it('refuses a headers timeout longer than the request timeout, naming both', () => {
    const message = refusal({ REQUEST_TIMEOUT_SECONDS: '5', HEADERS_TIMEOUT_SECONDS: '6' });
    expect(message).toContain('HEADERS_TIMEOUT_SECONDS');
    expect(message).toContain('REQUEST_TIMEOUT_SECONDS');
  });

  it('accepts host names, addresses, database URLs and proxy lists', () => {
    for (const host of ['localhost', '0.0.0.0', '::', '::1', 'arbiter-1.internal', '192.168.1.20']) expect(loadConfig({ HOST: host }).host).toBe(host);
    for (const url of ['postgresql://u:p@db:5432/arbiter', 'postgres://db/arbiter', 'postgresql:///arbiter?host=/var/run/postgresql', 'postgresql://[::1]:5432/x']) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1, fd00::/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '::1', 'fd00::/8']);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
  });

  it('has safe defaults: trust no proxy, every limit on', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      databaseUrl: null,
      trustProxy: [],
      rateLimitPerMinute: 600,
      createQuotaPerHour: 120,
      maxExpensiveFields: 5,
      maxSubscriptionsPerCaller: 20,
      maxSubscriptionsPerAddress: 100,
      maxConnectionsPerAddress: 100,
      maxConnections: 10_000,
      requestTimeoutSeconds: 30,
      headersTimeoutSeconds: 10,
      keepAliveTimeoutSeconds: 5,
    });
  });
});
