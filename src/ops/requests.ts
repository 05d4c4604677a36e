import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { graphqlOperationOf } from './graphql-metrics.plugin.js';
import type { MetricsService } from './metrics.service.js';

/** An incoming X-Request-Id is kept only if it is this tame (it goes into logs and a response header). */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Probes come every few seconds: logged at debug level only. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** Longest path logged: a hostile one may be kilobytes long. */
const MAX_LOGGED_PATH = 256;

/** The path without the query string (which may hold a `token=`); `originalUrl`, as mounted middleware rewrites `url`. */
const pathOf = (req: Request): string => req.originalUrl.split('?', 1)[0];

/** A fixed set of routes: a label per unknown path would grow the metrics without bound. */
function routeOf(path: string): string {
  if (path.startsWith('/api/games')) return '/api/games';
  return ['/graphql', '/healthz', '/readyz', '/metrics'].includes(path) ? path : 'other';
}

/**
 * One log line per request once it is answered (or the client went away: `aborted`): request id,
 * method, path, status, duration, the GraphQL operation on /graphql, and the client's address
 * (X-Forwarded-For only through a trusted proxy). Never a header, the query string or a body,
 * which may carry a token. The request id is a well-formed incoming X-Request-Id or a new UUID,
 * echoed in the X-Request-Id response header.
 */
export function requestLog(logger: Logger): RequestHandler {
  const fields = (req: Request, res: Response, { durationMs }: { durationMs: number }) => {
    const path = pathOf(req);
    return {
      method: req.method,
      path: path.slice(0, MAX_LOGGED_PATH),
      status: res.statusCode,
      durationMs,
      operation: path === '/graphql' ? graphqlOperationOf(req, res.statusCode).operation : undefined,
      client: req.ip ?? req.socket.remoteAddress,
      aborted: res.writableFinished ? undefined : true,
    };
  };
  return pinoHttp<Request, Response>({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // Only the request id is bound to req.log; the line's own fields come from `fields`, not pino-http's serializers (they log every header).
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    customLogLevel: (req, res, err) => (PROBES.has(pathOf(req)) ? 'debug' : err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: fields,
    customErrorObject: (req, res, _err, val) => fields(req, res, val),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
  });
}

/** Counts and times every HTTP request by route, and every GraphQL operation by name, type and outcome. */
export function requestMetrics(metrics: MetricsService): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const route = routeOf(pathOf(req));
    res.on('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      metrics.inc('arbiter_http_requests_total', { method: req.method, route, status: String(res.statusCode) });
      metrics.observe('arbiter_http_request_duration_seconds', { route }, seconds);
      if (route === '/graphql') metrics.graphqlOperation(graphqlOperationOf(req, res.statusCode), seconds);
    });
    next();
  };
}
