import { connect, type Socket } from 'node:net';
import { type Client, createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { callerLimits } from '../../src/api/connection-limits.js';
import { CONFIG, type Config } from '../../src/config/config.js';
import { startApp, type TestApp } from '../support/app.js';
import { CREATE } from '../support/queries.js';

/**
 * Subscriptions and connections are counted and capped per caller and per address, and a client
 * that sends its request slowly is cut off. Waits poll a condition with a generous deadline: they
 * never measure speed.
 */

async function until(done: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

const statsOf = (t: TestApp) => callerLimits(t.app.get<Config>(CONFIG)).stats();

function wsClient(t: TestApp, token: string | null): Client {
  return createClient({
    url: `${t.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
}

/** Subscribes to a game's live events (none yet: it stays open); `refused` fills if the server says no. */
function subscribe(client: Client, gameId: string, afterSeq: number) {
  const state: { refused: any[] | null; done: boolean; unsubscribe: () => void } = { refused: null, done: false, unsubscribe: () => undefined };
  state.unsubscribe = client.subscribe(
    { query: 'subscription($id: ID!, $after: Int) { gameEvents(gameId: $id, afterSeq: $after) { seq } }', variables: { id: gameId, after: afterSeq } },
    {
      next: () => undefined,
      error: (e) => {
        state.refused = Array.isArray(e) ? e : [e];
        state.done = true;
      },
      complete: () => {
        state.done = true;
      },
    },
  );
  return state;
}

describe('subscriptions per caller and per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ maxSubscriptionsPerCaller: 2, maxSubscriptionsPerAddress: 3 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the subscription past the cap with TOO_MANY_SUBSCRIPTIONS, and frees the slots of a closed connection', async () => {
    const created = (await t.gql(CREATE, { input: { kind: 'duel' } })).data.createGame;
    const { id, version } = created.game;
    const [seat0, seat1] = created.tokens.map((x: { token: string }) => x.token);
    const base = statsOf(t).subscriptions;

    const mine = wsClient(t, seat0);
    const s1 = subscribe(mine, id, version);
    const s2 = subscribe(mine, id, version);
    await until(() => statsOf(t).subscriptions === base + 2, 'two subscriptions');
    const s3 = subscribe(mine, id, version);
    await until(() => s3.done, 'the third subscription to be refused');
    expect(s3.refused![0].extensions.code).toBe('TOO_MANY_SUBSCRIPTIONS');
    expect(s1.done || s2.done).toBe(false);

    // A second connection with the same token does not get more.
    const again = wsClient(t, seat0);
    const s4 = subscribe(again, id, version);
    await until(() => s4.done, 'the subscription on another connection to be refused');
    expect(s4.refused![0].extensions.code).toBe('TOO_MANY_SUBSCRIPTIONS');

    // Another seat from the same address: one more fits under the address cap of 3, then no more.
    const other = wsClient(t, seat1);
    subscribe(other, id, version);
    await until(() => statsOf(t).subscriptions === base + 3, 'the other seat subscribed');
    const s6 = subscribe(other, id, version);
    await until(() => s6.done, 'the address cap');
    expect(s6.refused![0].extensions.code).toBe('TOO_MANY_SUBSCRIPTIONS');

    // Completing a subscription frees its slot at once, with no move needed to end its wait.
    s2.unsubscribe();
    await until(() => statsOf(t).subscriptions === base + 2, 'the completed subscription to free its slot');

    // Closing a connection frees its slots at once.
    await mine.dispose();
    await until(() => statsOf(t).subscriptions === base + 1, "the closed connection's slots to be freed");
    expect(s1.done).toBe(true);
    const s7 = subscribe(again, id, version);
    const s8 = subscribe(again, id, version);
    await until(() => statsOf(t).subscriptions === base + 3, 'the freed slots to be taken');
    expect(s7.done || s8.done).toBe(false);
    await Promise.all([again.dispose(), other.dispose()]);
    await until(() => statsOf(t).subscriptions === base, 'every slot to be freed');
  });

  it('a made-up token gets no slots of its own: it counts as its address', async () => {
    const created = (await t.gql(CREATE, { input: { kind: 'duel' } })).data.createGame;
    const { id, version } = created.game;
    const base = statsOf(t).subscriptions;
    const anonymous = wsClient(t, null);
    const madeUp = wsClient(t, 'made-up-token');
    try {
      subscribe(anonymous, id, version);
      subscribe(anonymous, id, version);
      await until(() => statsOf(t).subscriptions === base + 2, 'two anonymous subscriptions');
      // The made-up token is counted under the address, whose two slots are taken.
      const s = subscribe(madeUp, id, version);
      await until(() => s.done, 'the made-up token to be refused');
      expect(s.refused![0].extensions.code).toBe('TOO_MANY_SUBSCRIPTIONS');
    } finally {
      await Promise.all([anonymous.dispose(), madeUp.dispose()]);
    }
  });
});

describe('connections per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Long request timeouts: the idle sockets below must be closed by the cap, not by a timeout.
    t = await startApp({ maxConnectionsPerAddress: 3, requestTimeoutSeconds: 600, headersTimeoutSeconds: 600 });
  });
  afterAll(async () => {
    await t?.close();
  });

  const open = (): Promise<{ socket: Socket; closed: Promise<string> }> =>
    new Promise((resolve, reject) => {
      const { port } = new URL(t.url);
      const socket = connect(Number(port), '127.0.0.1');
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      const closed = new Promise<string>((r) => socket.on('close', () => r(data)));
      socket.once('connect', () => resolve({ socket, closed }));
      socket.once('error', reject);
    });

  it('closes the connection past the cap, and takes new ones once others close', async () => {
    const base = statsOf(t).connections;
    expect(base).toBe(0);
    const held = [await open(), await open(), await open()];
    await until(() => statsOf(t).connections === 3, 'three connections counted');
    const extra = await open();
    expect(await extra.closed).toBe('');
    for (const h of held) h.socket.destroy();
    await until(() => statsOf(t).connections === 0, 'the connections to be released');
    expect((await request(t.app.getHttpServer()).get('/healthz')).status).toBe(200);
  });
});

describe('slow requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ requestTimeoutSeconds: 2, headersTimeoutSeconds: 1 });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Sends `text` over a raw socket and nothing more; answers what came back once the server closed it. */
  const stall = (text: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const { port } = new URL(t.url);
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(data);
      });
      // Generous: the server cuts the request off after 2 s, checked every second.
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('the server kept a stalled request open for 90 s'));
      }, 90_000);
    });

  it('cuts off a request whose body never finishes', async () => {
    const answer = await stall('POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"{ __typ');
    expect(answer.startsWith('HTTP/1.1 408') || answer === '').toBe(true);
  });

  it('cuts off a request whose headers never finish', async () => {
    const answer = await stall('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(answer.startsWith('HTTP/1.1 408') || answer === '').toBe(true);
  });

  it('still serves whole requests', async () => {
    expect((await t.gql('{ __typename }')).data.__typename).toBe('Query');
  });
});
