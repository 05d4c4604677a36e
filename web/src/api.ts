import { type Client, createClient } from 'graphql-ws';

/**
 * The page talks to the service only through its public GraphQL API: queries and mutations over
 * HTTP, live updates over graphql-ws on the same origin. A seat's token (from the URL fragment) or
 * the signed-in player's key (from this origin's storage) goes in the Authorization header and the
 * connection parameters, never in a URL.
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

/** Where the live connection stands: none wanted, open, or cut and being opened again. */
export type Live = 'idle' | 'live' | 'reconnecting';
let live: Live = 'idle';
/** Subscriptions the page follows now: a connection closed while any is wanted is a cut. */
let following = 0;

/** The live connection's state and words as the frame shows them (layout.ts); kept current on the page. */
export const liveState = (): { state: Live; text: string } => ({ state: live, text: { idle: '', live: 'live', reconnecting: 'reconnecting…' }[live] });
function setLive(next: Live): void {
  live = next;
  for (const el of document.querySelectorAll<HTMLElement>('[data-connection]')) {
    el.textContent = liveState().text;
    el.dataset.connection = next;
  }
}

/** Waits between attempts to open a cut connection again: 1 s, 2 s, 4 s, then every 8 s. */
const retryWait = (retries: number) => new Promise<void>((r) => setTimeout(r, 1000 * 2 ** Math.min(retries, 3)));

/**
 * Calls `next` with each item the subscription streams until the returned function is called.
 * A cut connection shows "reconnecting…" in the frame and is opened again, each subscription
 * sent again as it was first (from the same seq), so a view gets what it missed.
 */
export function subscribe<T>(query: string, variables: Record<string, unknown>, token: string | null, next: (data: T) => void): () => void {
  if (!client || clientToken !== token) {
    client?.dispose();
    clientToken = token;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
    client = createClient({
      url,
      connectionParams: token ? { authorization: `Bearer ${token}` } : {},
      lazy: true,
      retryAttempts: Number.POSITIVE_INFINITY,
      retryWait,
      shouldRetry: () => true,
      on: {
        connected: () => setLive('live'),
        closed: () => setLive(following > 0 ? 'reconnecting' : 'idle'),
      },
    });
  }
  following++;
  let stopped = false;
  const release = () => {
    stopped = true;
    following--;
    if (following === 0) setLive('idle');
  };
  // A stream the service completes (a finished tournament's) is no longer followed: the socket
  // it leaves closes, and that is not a cut to reconnect.
  const stop = client.subscribe<T>({ query, variables }, { next: (r) => r.data && next(r.data), error: () => {}, complete: () => !stopped && release() });
  return () => {
    if (stopped) return;
    release();
    stop();
  };
}

/** The seat token the URL fragment carries (`#token=…`): browsers never send fragments to the server. */
export function tokenFromFragment(): string | null {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  return token && /^[A-Za-z0-9_-]{1,200}$/.test(token) ? token : null;
}

/** Where the signed-in player's key is kept: this origin's localStorage, so no other site reads it. */
const KEY_STORE = 'arbiter.playerKey';

/** The signed-in player's key, or null. */
export function playerKey(): string | null {
  try {
    return localStorage.getItem(KEY_STORE);
  } catch {
    return null;
  }
}

/** Keeps the player's key after a sign-in; null signs out (the key is forgotten). */
export function keepPlayerKey(key: string | null): void {
  if (key) localStorage.setItem(KEY_STORE, key);
  else localStorage.removeItem(KEY_STORE);
}

/** The token a game's page acts with: the fragment's seat token, else the signed-in player's key. */
export const actingToken = (): string | null => tokenFromFragment() ?? playerKey();

/** One line of the player's stream (GET /api/me/stream). */
export interface Notice {
  id: string;
  type: string;
  createdAt: string;
  data: { gameId?: string } & Record<string, unknown>;
}

/** How long to wait before reconnecting a cut stream. */
const RECONNECT_MS = 2000;

/**
 * Follows the player's stream (newline-delimited JSON) with the key in the Authorization header,
 * calling `notice` with each notice and `live` as the connection opens or drops; a cut
 * connection is opened again after the last notice received (`?after=`), so none is missed or
 * seen twice. A refused key (401, 403) stops it. Answers how to stop following.
 */
export function followMyStream(key: string, notice: (n: Notice) => void, live: (open: boolean) => void): () => void {
  let after: string | null = null;
  let stopped = false;
  const abort = new AbortController();
  const run = async () => {
    while (!stopped) {
      try {
        const res = await fetch(`/api/me/stream${after ? `?after=${encodeURIComponent(after)}` : ''}`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
        if (res.status === 401 || res.status === 403) return live(false);
        if (res.ok && res.body) {
          live(true);
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let text = '';
          for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
            const lines = (text + chunk.value).split('\n');
            text = lines.pop() ?? '';
            for (const line of lines.filter((l) => l.trim())) {
              const n = JSON.parse(line) as Notice;
              after = n.id;
              notice(n);
            }
          }
        }
      } catch {
        // Cut (or stopped): reconnect below unless stopped.
      }
      if (stopped) return;
      live(false);
      await new Promise((r) => setTimeout(r, RECONNECT_MS));
    }
  };
  void run();
  return () => {
    stopped = true;
    abort.abort();
  };
}
