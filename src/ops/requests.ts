import { randomUUID } from 'node:crypto';
import { addressOf, isGraphqlPath, pathOf } from '../api/caller.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { graphqlOperationOf } from './graphql-metrics.plugin.js';
import type { MetricsService } from './metrics.service.js';

/** An incoming X-Request-Id is kept only if it is this tame (it goes into logs and a response header). */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Probes come every few seconds: logged at debug level only. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** Longest path logged: a hostile one may be kilobytes long. */
const MAX_LOGGED_PATH = 256;

/** A fixed set of routes: a label per unknown path would grow the metrics without bound. */
function routeOf(path: string): string {
  if (path.startsWith('/api/games')) return '/api/games';
  if (isGraphqlPath(path)) return '/graphql';
  return PROBES.has(path) ? path : 'other';
}

/**
 * The first `onRequest` hook: every HTTP request, once answered (or the client went away), is
 * counted and timed by route, and by GraphQL operation, name, type and outcome on /graphql; and
 * logged as one line: request
 * id, method, path, status, duration, the GraphQL operation, and the client's address
 * (X-Forwarded-For only through a trusted proxy), with `aborted` if the client left first. Never
 * a header, the query string or a body, which may carry a token. The request id is a well-formed
 * incoming X-Request-Id or a new UUID, echoed in the X-Request-Id response header. The line is
 * written straight on the one pino logger, and only built when its level is on: pino-http's
 * per-request child logger cost a quarter of the service's throughput even with the line
 * disabled (bench/load.ts).
 */
export function observeRequests(logger: Logger, metrics: MetricsService): (req: FastifyRequest, reply: FastifyReply, done: () => void) => void {
  return (req, reply, done) => {
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    // On the Node response: also sent by answers that take the response over (streams).
    const res = reply.raw;
    res.setHeader('X-Request-Id', requestId);
    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const path = pathOf(req);
      const route = routeOf(path);
      const graphql = route === '/graphql' ? graphqlOperationOf(req, res.statusCode) : undefined;
      // Metrics count answered requests only; the log also says when the client went away.
      if (res.writableFinished) {
        metrics.inc('arbiter_http_requests_total', { method: req.method, route, status: String(res.statusCode) });
        metrics.observe('arbiter_http_request_duration_seconds', { route }, seconds);
        if (graphql) metrics.graphqlOperation(graphql, seconds);
      }
      const level = PROBES.has(path) ? 'debug' : res.statusCode >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          requestId,
          method: req.method,
          path: path.slice(0, MAX_LOGGED_PATH),
          status: res.statusCode,
          durationMs: Math.round(seconds * 1000),
          operation: graphql?.operation,
          client: addressOf(req),
          aborted: res.writableFinished ? undefined : true,
        },
        'request',
      );
    });
    done();
  };
}
