import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import type { TestApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ownStorage } from '../support/own-database.js';
import { CREATE } from '../support/queries.js';

/**
 * One stream per player (issue 25): GET /api/me/stream and the myEvents subscription serve the
 * notices meant for the player whose key calls, in order and each once, resumable after any
 * notice's id. Time is a hand-moved clock and timeouts happen when a test ticks the deadline
 * worker; on PostgreSQL the suite has a database of its own (test/e2e/clocks.spec.ts says why).
 */
const clock = new ManualClock();
let storage: Awaited<ReturnType<typeof ownStorage>>;
let t: TestApp;

beforeAll(async () => {
  storage = await ownStorage('player_stream');
  t = await startAppWithClock(clock, storage.settings);
  await t.app.get(RefereeService).deadlines!.stop();
});
afterAll(async () => {
  await t?.close();
  await storage?.drop();
});

interface Notice {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, any>;
}

/** A player and its key, from createPlayer (`scopes`: the key's, all by default). */
async function newPlayer(name: string, scopes?: string[]): Promise<{ id: string; key: string }> {
  const res = await t.gql('mutation($name: String!, $scopes: [Scope!]) { createPlayer(name: $name, scopes: $scopes) { player { id } key { secret } } }', { name, scopes });
  expect(res.errors).toBeUndefined();
  return { id: res.data.createPlayer.player.id, key: res.data.createPlayer.key.secret };
}

/** GET /api/me/stream kept open: its notices as they come (keep-alive lines skipped). */
function openStream(key: string | null, { after, lastEventId }: { after?: string; lastEventId?: string } = {}) {
  const abort = new AbortController();
  const notices: Notice[] = [];
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const answered = fetch(`${t.url}/api/me/stream${after ? `?after=${encodeURIComponent(after)}` : ''}`, { headers, signal: abort.signal });
  const read = answered.then(async (res) => {
    if (res.status !== 200) return;
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        const lines = text.split('\n');
        text = lines.pop()!;
        for (const line of lines) if (line.trim()) notices.push(JSON.parse(line));
      }
    } catch {
      // Closed by the test.
    }
  });
  return {
    answered,
    notices,
    /** The notices once there are `n` of them. */
    async first(n: number): Promise<Notice[]> {
      await until(() => notices.length >= n, `${n} notices (have ${JSON.stringify(notices)})`);
      return notices.slice(0, n);
    },
    async close() {
      abort.abort();
      await read.catch(() => undefined);
    },
  };
}

/** Polls until `done`; the deadline is a safety net, not a speed requirement. */
async function until(done: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

async function refusal(key: string | null, options: { after?: string; lastEventId?: string } = {}) {
  const stream = openStream(key, options);
  const res = await stream.answered;
  const body = await res.json();
  await stream.close();
  return { status: res.status, code: body.error?.code };
}

describe("a player's stream refuses whoever is not the player", () => {
  it('refuses an anonymous caller and a seat token (UNAUTHORIZED), and a key without the scope read (SCOPE_MISSING)', async () => {
    expect(await refusal(null)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    const created = (await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 } } })).data.createGame;
    expect(await refusal(created.tokens[0].token)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    const player = await newPlayer('Pia', ['PLAY']);
    expect(await refusal(player.key)).toEqual({ status: 403, code: 'SCOPE_MISSING' });
  });

  it('refuses a cursor that is no notice id, as after or as Last-Event-ID (INVALID_INPUT)', async () => {
    const player = await newPlayer('Quin');
    expect(await refusal(player.key, { after: 'nonsense' })).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(await refusal(player.key, { lastEventId: '12-x' })).toEqual({ status: 400, code: 'INVALID_INPUT' });
  });

  it('refuses myEvents without a player key (UNAUTHORIZED)', async () => {
    const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: {} });
    try {
      // The refusal comes as the subscription's one result, or as its error.
      const errors = await new Promise<unknown>((resolve) => {
        client.subscribe({ query: 'subscription { myEvents { id } }' }, { next: (msg) => resolve(msg.errors), error: resolve, complete: () => resolve(null) });
      });
      expect(JSON.stringify(errors)).toContain('UNAUTHORIZED');
    } finally {
      await client.dispose();
    }
  });
});
