import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import { type GraphQLFormattedError, Kind, type OperationDefinitionNode } from 'graphql';
import { httpStatusOf } from '../api/error.filter.js';

type GraphqlOutcome = 'ok' | 'rejected' | 'error';

/** What one GraphQL request over HTTP was, for its metrics and its log line. */
export interface GraphqlOperation {
  /** The operation's name; an anonymous one goes by its first root field; `invalid` when none was resolved (unparsable, invalid, refused before Apollo). */
  operation: string;
  type: 'query' | 'mutation' | 'subscription' | 'unknown';
  /** `rejected`: the caller's doing (invalid, limited, a Rejection answered); `error`: the service failed. */
  outcome: GraphqlOutcome;
}

/** Longest operation name kept: GraphQL names have no limit of their own. */
const MAX_NAME_LENGTH = 64;

/** Whether an error is the service's failure rather than a refusal of the caller: no code, an internal one, or one REST answers with a 5xx. */
const isServiceFailure = (code: unknown): boolean => typeof code !== 'string' || code.startsWith('INTERNAL') || httpStatusOf(code) >= 500;

/** Per HTTP request (Fastify's request), what Apollo answered: read back by the request metrics and log once the response is sent. */
const operations = new WeakMap<object, GraphqlOperation>();

/**
 * Records each GraphQL operation Apollo answers over HTTP on its request, so the HTTP middleware
 * (src/ops/requests.ts) counts and times it and names it in the log line. Nothing per field: it
 * looks at the operation and the answer once.
 */
export function graphqlMetricsPlugin(): ApolloServerPlugin<{ req?: object }> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, operation, response }) {
          if (contextValue.req) operations.set(contextValue.req, { ...nameOf(operation), outcome: outcomeOf(response.body) });
        },
      };
    },
  };
}

/** The GraphQL operation of a request to /graphql; one that never reached Apollo (rate limited, a bad body) is `invalid`. */
export function graphqlOperationOf(req: object, status: number): GraphqlOperation {
  return operations.get(req) ?? { operation: 'invalid', type: 'unknown', outcome: status >= 500 ? 'error' : 'rejected' };
}

function nameOf(op: OperationDefinitionNode | undefined): Pick<GraphqlOperation, 'operation' | 'type'> {
  if (!op) return { operation: 'invalid', type: 'unknown' };
  // An anonymous operation's root field is one of the schema's: a bounded set of names.
  const name = op.name?.value ?? op.selectionSet.selections.find((s) => s.kind === Kind.FIELD)?.name.value ?? 'anonymous';
  return { operation: name.slice(0, MAX_NAME_LENGTH), type: op.operation };
}

function outcomeOf(body: GraphQLResponse['body']): GraphqlOutcome {
  const result = body.kind === 'single' ? body.singleResult : body.initialResult;
  if (result.errors?.length) {
    return result.errors.some((e: GraphQLFormattedError) => isServiceFailure(e.extensions?.code)) ? 'error' : 'rejected';
  }
  // Refusals are answered as a Rejection in a union, not as errors: seen by its `code` (only Rejection has one) or its `__typename`.
  const answers = Object.values(result.data ?? {});
  return answers.some((v) => typeof v === 'object' && v !== null && ('code' in v || (v as { __typename?: unknown }).__typename === 'Rejection')) ? 'rejected' : 'ok';
}
