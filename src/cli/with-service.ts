import type { INestApplication } from '@nestjs/common';
import { createApp } from '../app.js';
import { ConfigError, loadConfig } from '../config/config.js';

/**
 * Runs a command on the service's database as the service is configured (DATABASE_URL, or PGlite
 * in DATA_DIR: stop the service first, PGlite has one user): starts the application without
 * listening and without its background work, runs `work` and exits with its code; 2 on a
 * configuration error, 1 on a failure.
 */
export function runWithService(work: (app: INestApplication) => Promise<number>): void {
  const main = async (): Promise<number> => {
    let config;
    try {
      // Only reads: no deadline, scheduled step, catch-up, checkpoint or delivery is taken meanwhile.
      config = { ...loadConfig(), logLevel: 'warn' as const, backgroundWork: false };
    } catch (err) {
      if (err instanceof ConfigError) {
        process.stderr.write(`configuration error: ${err.message}\n`);
        return 2;
      }
      throw err;
    }
    const app = await createApp(config);
    await app.init();
    try {
      return await work(app);
    } finally {
      await app.close();
    }
  };
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      process.stderr.write(`${err.stack ?? err.message}\n`);
      process.exit(1);
    },
  );
}
