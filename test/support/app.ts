import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { duelEngine } from './duel-engine.js';

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  dataDir: string | null;
  /** Which database: PostgreSQL (TEST_DATABASE_URL) or a fresh embedded PGlite. */
  backend: string;
  gql(query: string, variables?: Record<string, unknown>, token?: string): Promise<any>;
  close(): Promise<void>;
}

/**
 * Starts the whole service on a loopback port against PostgreSQL when TEST_DATABASE_URL is set
 * (and the overrides do not ask otherwise), else a fresh embedded PGlite in a temporary folder. The test-only duel game is registered.
 */
export async function startApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  // `databaseUrl: null` asks for a fresh embedded database even under TEST_DATABASE_URL.
  const url = 'databaseUrl' in overrides ? (overrides.databaseUrl ?? null) : process.env.TEST_DATABASE_URL || null;
  const dataDir = url ? null : mkdtempSync(join(tmpdir(), 'arbiter-test-'));
  const config = { ...loadConfig({ LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '0', CREATE_QUOTA_PER_HOUR: '0' }), databaseUrl: url, dataDir: dataDir ?? './data', ...overrides };
  const app = await createApp(config);
  const registry = app.get(EngineRegistry);
  if (!registry.get('duel')) registry.register(duelEngine);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    backend: url ? 'postgresql' : 'pglite',
    async gql(query, variables, token) {
      const req = request(app.getHttpServer()).post('/graphql').send({ query, variables });
      if (token) req.set('authorization', `Bearer ${token}`);
      const res = await req;
      return res.body;
    },
    async close() {
      await app.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A suite's service: started before its tests, closed after them (read `suite.app` inside the tests). */
export function serviceForSuite(overrides: Partial<Config> = {}): { app: TestApp } {
  const suite = {} as { app: TestApp };
  beforeAll(async () => {
    suite.app = await startApp(overrides);
  }, 120_000);
  afterAll(async () => {
    await suite.app?.close();
  }, 120_000);
  return suite;
}
