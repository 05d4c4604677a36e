import { ArgumentsHost, Catch, HttpException, Inject, Logger, type ExceptionFilter } from '@nestjs/common';
import type { GqlContextType } from '@nestjs/graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { CONFIG, type Config } from '../config/config.js';
import { isUnavailable, STORAGE_UNAVAILABLE } from '../database/storage-errors.js';
import { RefereeError } from '../referee/index.js';
import { bodyFailure } from './body.js';
import { isGraphqlPath, pathOf } from './caller.js';
import { refusalError } from './rate-budgets.js';

/**
 * One place that turns failures into answers: a RefereeError becomes a GraphQL error with its
 * code, or a JSON body with a matching HTTP status; anything unexpected is logged and answered
 * as INTERNAL without details. A body that cannot be read (too large, malformed JSON) answers as
 * JSON like every other refusal; on /graphql as a GraphQL `errors` list, the one shape GraphQL
 * clients read.
 */
/** Seconds a client is asked to wait (Retry-After) before sending again what STORAGE_UNAVAILABLE refused. */
const UNAVAILABLE_RETRY_AFTER_S = 1;

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  catch(err: unknown, host: ArgumentsHost) {
    const body = bodyFailure(err, this.config.maxBodyBytes);
    const { code, message, status } = body ?? this.describe(err);
    // A refusal that passes in time (a quota a command charged as it went) answers as the limits' own do: 429 with Retry-After.
    // The database out of reach (a failover takes Patroni's TTL, about 10 s) passes in time too: come back in a second.
    const retryAfter = err instanceof RefereeError ? err.retryAfter : code === STORAGE_UNAVAILABLE ? UNAVAILABLE_RETRY_AFTER_S : undefined;
    if (host.getType<GqlContextType>() === 'graphql') {
      if (code === 'RATE_LIMITED') return refusalError({ code, message, retryAfter });
      return new GraphQLError(message, { extensions: retryAfter === undefined ? { code } : { code, retryAfter } });
    }
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent || reply.raw.headersSent) return reply.raw.end();
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    const graphql = body !== null && isGraphqlPath(pathOf(http.getRequest<FastifyRequest>()));
    return reply.code(status).send(graphql ? { errors: [{ message, extensions: { code } }] } : { error: { code, message } });
  }

  private describe(err: unknown): { code: string; message: string; status: number } {
    if (err instanceof RefereeError) return { code: err.code, message: err.message, status: httpStatusOf(err.code) };
    if (isUnavailable(err)) {
      this.logger.warn(`refused, the database cannot store now: ${err instanceof Error ? err.message : String(err)}`);
      return { code: STORAGE_UNAVAILABLE, message: 'the service cannot store anything right now; try again later', status: 503 };
    }
    if (err instanceof HttpException) {
      const status = err.getStatus();
      const code = status === 404 ? 'NOT_FOUND' : status === 413 ? 'PAYLOAD_TOO_LARGE' : status < 500 ? 'INVALID_INPUT' : 'INTERNAL';
      return { code, message: err.message, status };
    }
    if (err instanceof GraphQLError) return { code: String(err.extensions?.code ?? 'INVALID_INPUT'), message: err.message, status: 400 };
    this.logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    return { code: 'INTERNAL', message: 'internal error; it has been logged', status: 500 };
  }
}

/**
 * For field resolvers (a Game's view, legalActions, ...): Nest runs no exception filter there, so
 * a refusal would reach Apollo as an unknown error and be answered INTERNAL_SERVER_ERROR. This
 * gives it its code, as the filter does for queries and mutations.
 */
export function asGraphQLError(err: unknown): unknown {
  return err instanceof RefereeError ? new GraphQLError(err.message, { extensions: { code: err.code } }) : err;
}

/** The HTTP status a refusal's code answers on REST (and says whether it is the service's failure: 5xx). */
export function httpStatusOf(code: string): number {
  switch (code) {
    case 'NOT_FOUND':
      return 404;
    case 'UNAUTHORIZED':
      return 401;
    case 'FORBIDDEN':
    case 'SCOPE_MISSING':
    case 'NOT_YOUR_CHALLENGE':
    case 'NOT_YOUR_BOARD':
    case 'REPORTS_NOT_ALLOWED':
      return 403;
    case 'VERSION_CONFLICT':
    case 'GAME_NOT_FINISHED':
    case 'NOT_IN_LOG_YET':
    case 'MOVE_ID_REUSED':
    case 'EXTERNAL_ID_TAKEN':
    case 'KEY_REVOKED':
    case 'TOO_MANY_KEYS':
    case 'CHALLENGE_CLOSED':
    case 'CHALLENGE_EXPIRED':
    case 'DISPUTE_OPEN':
      return 409;
    case 'RATE_LIMITED':
      return 429;
    case 'SHUTTING_DOWN':
    case 'STORAGE_UNAVAILABLE':
      return 503;
    case 'INVALID_INPUT':
      return 400;
    default:
      return 422;
  }
}
