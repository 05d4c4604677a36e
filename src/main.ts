import { Logger } from '@nestjs/common';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { DatabaseService } from './database/database.service.js';
import { RefereeService } from './referee/index.js';

/**
 * A start-up failure as one JSON line on stderr, shaped like every other log line (so a log
 * collector reads it too), then the exit code that says which kind: 2 for a setting to correct,
 * 1 for anything else (docs/operating.md, "Starting and stopping").
 */
function failStart(exitCode: 1 | 2, msg: string, error: string): never {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', time: new Date().toISOString(), msg, error })}\n`);
  process.exit(exitCode);
}

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) failStart(2, 'configuration error', err.message);
    throw err;
  }
  const app = await createApp(config);
  const logger = new Logger('Main');
  try {
    await app.listen(config.port, config.host);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      failStart(2, 'configuration error', `cannot listen on HOST=${config.host} PORT=${config.port}: ${code} (${(err as Error).message})`);
    }
    throw err;
  }
  const server = app.getHttpServer();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.log(`ready: GraphQL at http://${config.host}:${port}/graphql (database: ${app.get(DatabaseService).description})`);

  // Own handler (not enableShutdownHooks): finish in-flight moves, close HTTP, then the database.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: draining in-flight moves`);
    const timer = setTimeout(() => {
      logger.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    await app.get(RefereeService).drain();
    server.closeIdleConnections?.();
    await app.close();
    await app.get(DatabaseService).close();
    clearTimeout(timer);
    logger.log('stopped cleanly');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => failStart(1, 'start-up failed', String(err?.stack ?? err)));
