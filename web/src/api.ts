import { type Client, createClient } from 'graphql-ws';

/**
 * The page talks to the service only through its public GraphQL API: queries and mutations over
 * HTTP, live updates over graphql-ws on the same origin. A seat's token (from the URL fragment)
 * goes in the Authorization header and the connection parameters, never in a URL.
 */
export interface GqlError {
  message: string;
  extensions?: { code?: string };
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function gql<T>(query: string, variables: Record<string, unknown> = {}, token: string | null = null): Promise<T> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: GqlError[] };
  if (body.errors?.length) throw new ApiError(body.errors[0].extensions?.code ?? 'ERROR', body.errors[0].message);
  return body.data as T;
}

let client: Client | null = null;
let clientToken: string | null = null;

/** Calls `next` with each item the subscription streams until the returned function is called. */
export function subscribe<T>(query: string, variables: Record<string, unknown>, token: string | null, next: (data: T) => void): () => void {
  if (!client || clientToken !== token) {
    client?.dispose();
    clientToken = token;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
    client = createClient({ url, connectionParams: token ? { authorization: `Bearer ${token}` } : {}, lazy: true, retryAttempts: Number.POSITIVE_INFINITY });
  }
  return client.subscribe<T>({ query, variables }, { next: (r) => r.data && next(r.data), error: () => {}, complete: () => {} });
}

/** The seat token the URL fragment carries (`#token=…`): browsers never send fragments to the server. */
export function tokenFromFragment(): string | null {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  return token && /^[A-Za-z0-9_-]{1,200}$/.test(token) ? token : null;
}
