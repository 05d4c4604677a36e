import 'reflect-metadata';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import type { NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import type { Express, NextFunction, Request, Response } from 'express';
import { AppModule } from './app.module.js';
import { isGraphqlPath, type TrustProxy } from './api/caller.js';
import { callerLimits, importQuota, rateLimiter } from './api/limits.js';
import type { Config } from './config/config.js';
import { createLogger, PinoLogger } from './ops/logger.js';
import { MetricsService } from './ops/metrics.service.js';
import { observeRequests } from './ops/requests.js';
import { RefereeService } from './referee/application/referee.service.js';

/**
 * Express on an HTTP server with the configured timeouts: a client has `headersTimeoutSeconds`
 * to send its headers and `requestTimeoutSeconds` for the whole request (a slow body is cut off
 * with 408), checked every second (Node checks every 30 s by default). Nest's own adapter would
 * create the server with Node's defaults (300 s a request).
 */
class TimedExpressAdapter extends ExpressAdapter {
  constructor(private readonly config: Config) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections || options?.return503OnClosing) {
      super.initHttpServer(options);
      return;
    }
    const server = createServer(
      {
        requestTimeout: this.config.requestTimeoutSeconds * 1000,
        headersTimeout: this.config.headersTimeoutSeconds * 1000,
        connectionsCheckingInterval: Math.min(1000, this.config.headersTimeoutSeconds * 500),
      },
      this.getInstance(),
    );
    server.keepAliveTimeout = this.config.keepAliveTimeoutSeconds * 1000;
    if (this.config.maxConnections > 0) server.maxConnections = this.config.maxConnections;
    this.setHttpServer(server);
  }
}

/** Builds the whole service (used by main.ts and by the end-to-end tests). */
export async function createApp(config: Config): Promise<NestExpressApplication> {
  const logger = createLogger(config.logLevel);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new TimedExpressAdapter(config), {
    logger: new PinoLogger(logger),
    bodyParser: false,
    // Throw start-up failures to main.ts, which prints them whatever LOG_LEVEL says (Nest would abort the process after logging through the possibly silent logger).
    abortOnError: false,
  });
  const metrics = app.get(MetricsService);
  const referee = app.get(RefereeService);
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names.
  app.set('trust proxy', config.trustProxy.length > 0 ? config.trustProxy : false);
  const trust = (app.getHttpAdapter().getInstance() as Express).get('trust proxy fn') as TrustProxy;
  const limits = callerLimits(config);
  limits.bind({
    tokenOwner: (token) => referee.tokenOwner(token),
    trust,
    schema: () => {
      try {
        return app.get(GraphQLSchemaHost).schema;
      } catch {
        return undefined; // not built yet
      }
    },
  });

  // Connections per client address (HTTP and WebSocket alike). A trusted proxy's socket carries
  // many clients: those are counted per request by the limits below, not per socket.
  app.getHttpServer().prependListener('connection', (socket: Socket) => {
    const remote = socket.remoteAddress ?? 'unknown';
    if (trust(remote, 0)) return;
    const release = limits.openConnection(remote);
    if (!release) {
      socket.destroy();
      return;
    }
    socket.once('close', release);
  });

  // First, so that every request (refused ones too) gets its request id, log line and metrics.
  app.use(observeRequests(logger, metrics));
  // Browser apps on the origins CORS_ORIGINS names; a preflight is answered before any limit counts it.
  if (config.corsOrigins === '*' || config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['authorization', 'content-type', 'if-none-match', 'x-request-id'],
      exposedHeaders: ['etag', 'retry-after', 'x-request-id', 'content-disposition'],
      maxAge: 600,
    });
  }
  app.use(rateLimiter(limits));
  app.use('/api/games/import', importQuota(limits));
  app.useBodyParser('json', { limit: config.maxBodyBytes });
  // A record's text, whatever the client calls it: curl sends form encoding unless told otherwise.
  app.useBodyParser('text', { limit: config.maxBodyBytes, type: ['text/*', 'application/octet-stream', 'application/x-www-form-urlencoded'] });
  // Body-parser failures (too large, malformed JSON) answer as JSON like every other refusal; on
  // /graphql as a GraphQL `errors` list, the one shape GraphQL clients read.
  app.use((err: { status?: number; type?: string; message?: string }, req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    const status = err.status ?? 400;
    const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_INPUT';
    const message = status === 413 ? `the request body is larger than ${config.maxBodyBytes} bytes` : `the request body is not valid: ${err.message}`;
    res.status(status).json(isGraphqlPath(req.path) ? { errors: [{ message, extensions: { code } }] } : { error: { code, message } });
  });
  return app;
}
