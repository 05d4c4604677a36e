/**
 * A small typed client for Arbiter's GraphQL API: queries and mutations over HTTP (fetch), the
 * `gameEvents` subscription over graphql-ws (the `ws` package in Node). Every operation is a
 * TypedDocumentNode generated from the committed schema (npm run client:generate), so variables
 * and results are typed:
 *
 *   const arbiter = new ArbiterClient({ url: 'http://127.0.0.1:3000' });
 *   const created = await arbiter.request(CreateGameDocument, { input: { kind: 'backgammon', ruleset: { matchLength: 1 } } });
 *   const seat0 = arbiter.withToken(token);                    // Authorization: Bearer <token>
 *   const { game } = await seat0.request(TurnDocument, { id }); // game.legalMoves is typed per game
 *   for await (const event of seat0.subscribe(OnGameEventsDocument, { gameId })) { ... }
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { type Client as WsClient, createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface ArbiterClientOptions {
  /** The service's base URL (the GraphQL endpoint is `<url>/graphql`); default ARBITER_URL or http://127.0.0.1:3000. */
  url?: string;
  /** A seat token: sent as `Authorization: Bearer <token>` (and as `authorization` in the graphql-ws connection params). None: a spectator. */
  token?: string;
  /** The fetch to use (default: the global one, Node 18+). */
  fetch?: typeof fetch;
  /** Milliseconds before an HTTP request is abandoned (default 30 s). */
  timeoutMs?: number;
  /**
   * How many times a request refused with RATE_LIMITED (HTTP 429, before anything ran) is sent
   * again after the Retry-After the service names (at most 60 s each); default 2, 0 to throw at once.
   */
  rateLimitRetries?: number;
  /** Called before each such wait (for a log line). */
  onRateLimited?: (waitMs: number, message: string) => void;
}

/** One error of a GraphQL answer; `extensions.code` is the referee's stable code (QUERY_TOO_DEEP, NOT_FOUND, ...). */
export interface GraphQLErrorItem {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/** An answer with `errors` (a field failed, or the operation was refused), or an HTTP failure. */
export class ArbiterError extends Error {
  constructor(
    message: string,
    /** The first error's code, or HTTP_<status> for an answer that is not GraphQL. */
    readonly code: string,
    readonly errors: readonly GraphQLErrorItem[] = [],
    readonly status?: number,
    /** For RATE_LIMITED over HTTP: the Retry-After the service named, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ArbiterError';
  }
}

/** Variables may be left out when the operation has none (or only optional ones). */
type VariablesArg<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

const printed = new WeakMap<object, string>();
const sourceOf = (document: TypedDocumentNode<unknown, unknown>): string => {
  let source = printed.get(document);
  if (source === undefined) printed.set(document, (source = print(document)));
  return source;
};

export class ArbiterClient {
  readonly url: string;
  readonly token: string | undefined;
  private readonly options: ArbiterClientOptions;
  private ws: WsClient | undefined;

  constructor(options: ArbiterClientOptions = {}) {
    this.options = options;
    this.url = (options.url ?? process.env.ARBITER_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
    this.token = options.token;
  }

  /** The same service and options, acting for the seat this token holds (the WebSocket connection is not shared). */
  withToken(token: string | undefined): ArbiterClient {
    return new ArbiterClient({ ...this.options, url: this.url, token });
  }

  /** Runs a query or mutation over HTTP; answers its typed `data`, or throws an ArbiterError. */
  async request<R, V>(document: TypedDocumentNode<R, V>, ...[variables]: VariablesArg<V>): Promise<R> {
    const retries = this.options.rateLimitRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.send(document, variables);
      } catch (err) {
        if (!(err instanceof ArbiterError) || err.code !== 'RATE_LIMITED' || attempt >= retries || err.retryAfterMs === undefined) throw err;
        const wait = Math.min(err.retryAfterMs, 60_000);
        this.options.onRateLimited?.(wait, err.message);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  private async send<R, V>(document: TypedDocumentNode<R, V>, variables: V | undefined): Promise<R> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const res = await (this.options.fetch ?? fetch)(`${this.url}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: sourceOf(document as TypedDocumentNode<unknown, unknown>), variables: variables ?? {} }),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    const retryAfter = Number(res.headers.get('retry-after'));
    const retryAfterMs = res.status === 429 && Number.isFinite(retryAfter) ? Math.max(retryAfter, 1) * 1000 : undefined;
    let body: { data?: R | null; errors?: GraphQLErrorItem[]; error?: { code?: string; message?: string } };
    try {
      body = JSON.parse(text);
    } catch {
      throw new ArbiterError(`HTTP ${res.status} from ${this.url}/graphql: ${text.slice(0, 200)}`, `HTTP_${res.status}`, [], res.status);
    }
    if (body.errors?.length) {
      const first = body.errors[0];
      throw new ArbiterError(body.errors.map((e) => e.message).join('; '), first.extensions?.code ?? 'GRAPHQL_ERROR', body.errors, res.status, retryAfterMs);
    }
    // REST-style refusals before GraphQL runs (body too large, ...): { error: { code, message } }.
    if (body.error) throw new ArbiterError(body.error.message ?? `HTTP ${res.status}`, body.error.code ?? `HTTP_${res.status}`, [], res.status, retryAfterMs);
    if (body.data === undefined || body.data === null) throw new ArbiterError(`HTTP ${res.status}: no data in the answer`, `HTTP_${res.status}`, [], res.status);
    return body.data;
  }

  /**
   * Subscribes over graphql-ws (`ws://<host>/graphql`); each value is the operation's typed `data`.
   * Stop with `break` in a `for await` loop (or the iterator's `return()`); `close()` ends the connection.
   */
  subscribe<R, V>(document: TypedDocumentNode<R, V>, ...[variables]: VariablesArg<V>): AsyncIterableIterator<R> {
    const ws = this.webSocket();
    const iterator = ws.iterate<R>({ query: sourceOf(document as TypedDocumentNode<unknown, unknown>), variables: (variables ?? {}) as Record<string, unknown> });
    const values: AsyncIterableIterator<R> = {
      async next() {
        const step = await iterator.next();
        if (step.done) return { done: true, value: undefined };
        const { data, errors } = step.value;
        if (errors?.length) {
          const first = errors[0] as GraphQLErrorItem;
          throw new ArbiterError(errors.map((e) => e.message).join('; '), first.extensions?.code ?? 'GRAPHQL_ERROR', errors as GraphQLErrorItem[]);
        }
        return { done: false, value: data as R };
      },
      async return() {
        await iterator.return?.();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return values;
      },
    };
    return values;
  }

  /** Closes the WebSocket connection, if one was opened. */
  async close(): Promise<void> {
    const ws = this.ws;
    this.ws = undefined;
    await ws?.dispose();
  }

  private webSocket(): WsClient {
    if (!this.ws) {
      const token = this.token;
      this.ws = createClient({
        url: `${this.url.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: token ? { authorization: `Bearer ${token}` } : {},
        lazy: true,
        retryAttempts: 3,
      });
    }
    return this.ws;
  }
}

/** The `__typename` of a union answer narrowed: `expectTypename(result, 'MoveAccepted')` or a thrown error naming the refusal. */
export function expectTypename<T extends { __typename?: string }, N extends NonNullable<T['__typename']>>(value: T, typename: N): Extract<T, { __typename?: N }> {
  if (value.__typename !== typename) {
    const refusal = value as { code?: string; message?: string };
    throw new ArbiterError(`expected ${typename}, got ${value.__typename}${refusal.code ? ` ${refusal.code}: ${refusal.message}` : ''}`, refusal.code ?? 'UNEXPECTED_TYPE');
  }
  return value as Extract<T, { __typename?: N }>;
}
