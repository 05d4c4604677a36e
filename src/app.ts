import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AppModule } from './app.module.js';
import { rateLimiter } from './api/limits.js';
import type { Config } from './config/config.js';
import { JsonLogger } from './ops/json-logger.js';
import { MetricsService } from './ops/metrics.service.js';

/** Builds the whole service (used by main.ts and by the end-to-end tests). */
export async function createApp(config: Config): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger: new JsonLogger(config.logLevel),
    bodyParser: false,
  });
  const metrics = app.get(MetricsService);
  app.set('trust proxy', 'loopback');
  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.on('finish', () => {
      const route = req.path.startsWith('/api/games') ? '/api/games' : req.path;
      metrics.inc('arbiter_http_requests_total', { method: req.method, route, status: String(res.statusCode) });
      metrics.observe('arbiter_http_request_duration_seconds', { route }, (performance.now() - started) / 1000);
    });
    next();
  });
  app.use(rateLimiter(config.rateLimitPerMinute));
  app.useBodyParser('json', { limit: config.maxBodyBytes });
  app.useBodyParser('text', { limit: config.maxBodyBytes, type: ['text/*', 'application/octet-stream'] });
  // Body-parser failures (too large, malformed JSON) answer as JSON like every other refusal.
  app.use((err: { status?: number; type?: string; message?: string }, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    const status = err.status ?? 400;
    const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_INPUT';
    res.status(status).json({ error: { code, message: status === 413 ? `the request body is larger than ${config.maxBodyBytes} bytes` : `the request body is not valid: ${err.message}` } });
  });
  return app;
}
