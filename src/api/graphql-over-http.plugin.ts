import type { ApolloServerPlugin } from '@apollo/server';
import Negotiator from 'negotiator';

const JSON_TYPE = 'application/json';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';

/**
 * The status the GraphQL-over-HTTP specification asks for when a request fails before it runs
 * (a document that does not parse or validate, variables that do not coerce): Apollo answers 400
 * to everyone, but a client that reads the answer as `application/json` (older clients, and any
 * without an Accept header) SHOULD get 200 with the errors, since for it the status alone says
 * nothing of GraphQL; `application/graphql-response+json` keeps its 4xx, and so does a request
 * that is not a well-formed GraphQL request (BAD_REQUEST). The media type is
 * chosen as Apollo chooses it, by the same negotiator and preference order.
 */
export function graphqlOverHttpStatusPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ request, response }) {
          if (response.http.status !== 400 || response.body.kind !== 'single' || response.body.singleResult.data !== undefined) return;
          // A request that is no well-formed GraphQL request at all (a query that is no string) stays a 400 for everyone.
          if (response.body.singleResult.errors?.some((e) => e.extensions?.code === 'BAD_REQUEST')) return;
          const accept = request.http?.headers.get('accept');
          const chosen = new Negotiator({ headers: { accept } }).mediaType([JSON_TYPE, GRAPHQL_RESPONSE_TYPE]);
          if (chosen === JSON_TYPE) response.http.status = 200;
        },
      };
    },
  };
}
