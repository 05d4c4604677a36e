import 'reflect-metadata';
import { createServer, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import proxyaddr from 'proxy-addr';
import { AppModule } from './app.module.js';
import { holderOf, isGraphqlPath, pathOf, type TrustProxy } from './api/caller.js';
import { browserOnGraphql } from './api/graphiql.controller.js';
import { bodyParsers } from './api/body.js';
import { callerLimits } from './api/connection-limits.js';
import { importQuota, rateLimiter } from './api/rate-budgets.js';
import type { Config } from './config/config.js';
import { createLogger, PinoLogger } from './ops/logger.js';
import { MetricsService } from './ops/metrics.service.js';
import { observeRequests } from './ops/requests.js';
import { isKey, KeyDirectory, sha256Hex, TokenDirectory } from './referee/index.js';

/** Longer than any URL Node's default 16 KiB header limit lets through. */
const MAX_PARAM_LENGTH = 16 * 1024;

/**
 * Apollo answers only GET and POST on /graphql (and Fastify adds HEAD to GET); its route takes
 * those and OPTIONS, so any other method is answered here as Apollo answers one.
 */
function graphqlMethodNotAllowed(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (!GRAPHQL_METHODS.has(req.method) && isGraphqlPath(pathOf(req))) {
    reply
      .code(405)
      .header('allow', 'GET, POST')
      .send({ errors: [{ message: 'Apollo Server supports only GET/POST requests.', extensions: { code: 'BAD_REQUEST' } }] });
    return;
  }
  done();
}
const GRAPHQL_METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);

/** Builds the whole service (used by main.ts and by the end-to-end tests). */
export async function createApp(config: Config): Promise<NestFastifyApplication> {
  const logger = createLogger(config.logLevel);
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (Fastify compiles it with proxy-addr, as does this).
  const trust: TrustProxy = config.trustProxy.length > 0 ? proxyaddr.compile(config.trustProxy) : () => false;
  const adapter = new FastifyAdapter({
    // Node's HTTP server with the configured timeouts: a client has `headersTimeoutSeconds` to
    // send its headers and `requestTimeoutSeconds` for the whole request (a slow body is cut off
    // with 408), checked every second (Node checks every 30 s by default).
    serverFactory: (handler: RequestListener) => {
      const server = createServer(
        {
          requestTimeout: config.requestTimeoutSeconds * 1000,
          headersTimeout: config.headersTimeoutSeconds * 1000,
          connectionsCheckingInterval: Math.min(1000, config.headersTimeoutSeconds * 500),
        },
        handler,
      );
      server.keepAliveTimeout = config.keepAliveTimeoutSeconds * 1000;
      if (config.maxConnections > 0) server.maxConnections = config.maxConnections;
      return server;
    },
    trustProxy: config.trustProxy.length > 0 ? trust : false,
    bodyLimit: config.maxBodyBytes,
    // Paths route as they did on Express: any case, a trailing slash or not, parameters of any
    // length (Fastify's default of 100 characters would answer a long game id with 414).
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // A path the router cannot decode is refused like any other bad input.
    frameworkErrors: (error: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode ?? 500;
      reply.code(status).send({ error: { code: status < 500 ? 'INVALID_INPUT' : 'INTERNAL', message: error.message } });
    },
    // The service logs through pino itself (src/ops/requests.ts): no Fastify logger.
    logger: false,
    // No Nest middleware: the hooks below do their work.
    skipMiddie: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(await AppModule.forRoot(config), adapter, {
    logger: new PinoLogger(logger),
    bodyParser: false,
    // Throw start-up failures to main.ts, which prints them whatever LOG_LEVEL says (Nest would abort the process after logging through the possibly silent logger).
    abortOnError: false,
  });
  const metrics = app.get(MetricsService);
  const keys = app.get(KeyDirectory);
  const tokens = app.get(TokenDirectory);
  const limits = callerLimits(config);
  limits.bind({
    // Each credential its own budget: a seat's, a participant's or organizer's token, a player's or an app's key.
    tokenOwner: (token, request) => {
      if (!isKey(token)) return tokens.roleOf(sha256Hex(token));
      // Over HTTP the holder is kept on the request: the scopes guard reads it there, with no second lookup.
      return request ? holderOf(request, keys).catch(() => null) : keys.holder(token);
    },
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

  // First of all hooks, so that every request (refused ones too) gets its request id, log line and metrics.
  adapter.setOnRequestHook(observeRequests(logger, metrics));
  // Browser apps on the origins CORS_ORIGINS names; a preflight is answered (by the adapter's hook, which runs before those below) before any limit counts it.
  if (config.corsOrigins === '*' || config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['authorization', 'content-type', 'if-none-match', 'x-request-id'],
      exposedHeaders: ['etag', 'retry-after', 'x-request-id', 'content-disposition'],
      maxAge: 600,
    });
  }
  const fastify = app.getHttpAdapter().getInstance();
  // Every answer (JSON, NDJSON, pages, refusals) is read as the type it says it is, never sniffed.
  fastify.addHook('onRequest', (_req, reply, done) => {
    reply.raw.setHeader('X-Content-Type-Options', 'nosniff');
    done();
  });
  fastify.addHook('onRequest', rateLimiter(limits));
  fastify.addHook('onRequest', importQuota(limits));
  fastify.addHook('onRequest', browserOnGraphql(config));
  fastify.addHook('onRequest', graphqlMethodNotAllowed);
  bodyParsers(fastify, config.maxBodyBytes);
  return app;
}
