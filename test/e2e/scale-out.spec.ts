import http from 'node:http';
import net from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startService, type RunningService } from '../../tools/service.js';
import { freePort } from '../support/net.js';
import { seededRandom } from '../../src/engines/kit/index.js';

/**
 * Three service processes on one PostgreSQL behind a round-robin proxy, as a load balancer
 * would run them: bots play whole games through the proxy (each request to the next instance),
 * and after every acknowledged move every instance must serve it; subscribers on every instance
 * must receive every event, in order, once, with each seat's own view; every game verifies.
 * The third instance reaches the database through a TCP proxy this test can cut, to show that
 * missed notifications are caught up once the connection is back.
 *
 * PostgreSQL only (TEST_DATABASE_URL): the embedded database is one process by design.
 * The bounds below are safety nets for a busy machine, not speed requirements: the measured
 * cross-instance staleness is reported by `bench/load.ts --instances 2`.
 */
const pgUrl = process.env.TEST_DATABASE_URL || null;
const FRESH_WITHIN_MS = 10_000;

interface Answer {
  status: number;
  body: { data?: any; errors?: { message: string; extensions?: { code?: string } }[] } | null;
}

async function gql(url: string, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<Answer> {
  try {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as Answer['body'] };
  } catch {
    return { status: 0, body: null };
  }
}

/** Retries a request the service could not answer (an instance without its database): each try goes to the next instance. */
async function answered(url: string, query: string, variables: Record<string, unknown>, token?: string): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    const a = await gql(url, query, variables, token);
    if (a.status === 200 && a.body?.data && !a.body.errors) return a.body.data;
    if (attempt >= 200) throw new Error(`no answer after ${attempt} tries: ${a.status} ${JSON.stringify(a.body)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** An HTTP proxy sending each request to the next instance in turn. */
async function roundRobin(targets: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length]);
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A TCP proxy to the database that can cut every connection through it and refuse new ones until restored. */
async function cuttable(host: string, port: number) {
  const open = new Set<net.Socket>();
  let cutOff = false;
  const server = net.createServer((client) => {
    if (cutOff) {
      client.destroy();
      return;
    }
    const upstream = net.connect(port, host);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      cutOff = true;
      for (const s of open) s.destroy();
    },
    restore: () => {
      cutOff = false;
    },
    get isCut() {
      return cutOff;
    },
    close: () => {
      for (const s of open) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

interface Served {
  seq: number;
  type: string;
  actor: number | null;
  payload: any;
}

/** A subscriber on one instance: every event of one game, as `token`'s seat (or a spectator) sees it. */
function subscriber(instanceUrl: string, gameId: string, token?: string) {
  const client: Client = createClient({
    url: `${instanceUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
  const events: Served[] = [];
  const errors: unknown[] = [];
  client.subscribe(
    { query: 'subscription($id: ID!) { gameEvents(gameId: $id, afterSeq: 0) { seq type actor payload } }', variables: { id: gameId } },
    { next: (msg) => events.push((msg.data as { gameEvents: Served }).gameEvents), error: (e) => errors.push(e), complete: () => undefined },
  );
  return { client, events, errors, instanceUrl, token };
}

async function until(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) {
  __typename ... on GameCreated { game { id version } tokens { seat token } } ... on Rejection { code message } } }`;
const STATE = `query($id: ID!, $v: Int) { game(id: $id, atLeastVersion: $v) { version status toAct legalActions } }`;
const VERSION = `query($id: ID!) { game(id: $id) { version } }`;
const ACT = `mutation($g: ID!, $m: String!, $a: JSON!, $v: Int) { submitAction(gameId: $g, moveId: $m, action: $a, expectedVersion: $v) {
  __typename ... on MoveAccepted { version status } ... on Rejection { code message } } }`;
const EVENTS = `query($id: ID!) { gameEvents(gameId: $id) { nodes { seq type actor payload } } }`;
const VERIFY = `query($id: ID!) { verifyGame(gameId: $id) { ok eventsChecked problem } }`;

const SETUPS = [
  { kind: 'backgammon', ruleset: { matchLength: 1, autoRoll: true } },
  { kind: 'chicken-foot', ruleset: { players: 2, gameEnd: { targetScore: 1 } } },
];
/** Legal but pointless for a random bot (a game of resignations and cube turns says little). */
const AVOID = ['resign', 'double'];

const describeOnPostgres = pgUrl ? describe : describe.skip;

describeOnPostgres('three instances on one PostgreSQL behind a round-robin proxy', () => {
  let instances: RunningService[] = [];
  let proxy: Awaited<ReturnType<typeof roundRobin>>;
  let database: Awaited<ReturnType<typeof cuttable>>;
  const subscribers: ReturnType<typeof subscriber>[] = [];

  beforeAll(async () => {
    const url = new URL(pgUrl!);
    database = await cuttable(url.hostname, Number(url.port || 5432));
    const throughProxy = new URL(pgUrl!);
    throughProxy.host = `127.0.0.1:${database.port}`;
    // Ports the OS says are free: a port of a fixed range may be one fetch refuses (4045).
    instances = await Promise.all([pgUrl!, pgUrl!, throughProxy.toString()].map(async (db) => startService({ DATABASE_URL: db }, await freePort())));
    proxy = await roundRobin(instances.map((s) => s.url));
  }, 300_000);

  afterAll(async () => {
    for (const s of subscribers) await s.client.dispose();
    await proxy?.close();
    for (const s of instances) s.process.kill('SIGTERM');
    await Promise.all(instances.map((s) => s.exited));
    await database?.close();
  }, 60_000);

  /** Waits until every instance (but one whose database is cut) serves the game at `version` or later; answers the slowest wait. */
  async function everyInstanceServes(gameId: string, version: number): Promise<number> {
    const started = Date.now();
    await Promise.all(
      instances.map(async (s, i) => {
        if (i === 2 && database.isCut) return;
        await until(async () => ((await gql(s.url, VERSION, { id: gameId })).body?.data?.game?.version ?? -1) >= version, `instance ${i} to serve ${gameId} at ${version}`, FRESH_WITHIN_MS);
      }),
    );
    return Date.now() - started;
  }

  /**
   * Plays a whole game through the proxy: each read asks for at least the version last
   * acknowledged (read-your-writes on whichever instance answers), each move is retried with
   * the same move id until some instance answers it, and each acknowledgement waits until every
   * instance serves it. `during(moves)` runs after each acknowledged move.
   */
  async function play(game: { id: string; tokens: string[] }, seed: number, during: (moves: number) => Promise<void> = async () => undefined) {
    const rand = seededRandom(seed);
    let version = 0;
    let moves = 0;
    let slowest = 0;
    for (;;) {
      const { game: g } = await answered(proxy.url, STATE, { id: game.id, v: version });
      expect(g.version).toBeGreaterThanOrEqual(version);
      if (g.status === 'FINISHED') break;
      const seat = g.toAct[0] as number;
      const { game: mine } = await answered(proxy.url, STATE, { id: game.id, v: g.version }, game.tokens[seat]);
      if (mine.version !== g.version) continue;
      const legal = mine.legalActions as { type?: string }[];
      const wanted = legal.filter((a) => !AVOID.includes(a.type ?? ''));
      const plays = wanted.filter((a) => a.type === 'play');
      const pool = plays.length > 0 ? plays : wanted.length > 0 ? wanted : legal;
      const action = pool[rand(pool.length)];
      const answer = (await answered(proxy.url, ACT, { g: game.id, m: `m${moves}`, a: action, v: mine.version }, game.tokens[seat])).submitAction;
      expect(answer).toMatchObject({ __typename: 'MoveAccepted' });
      version = answer.version;
      moves++;
      slowest = Math.max(slowest, await everyInstanceServes(game.id, version));
      await during(moves);
    }
    return { version, moves, slowest };
  }

  async function create(setup: (typeof SETUPS)[number]) {
    const created = (await answered(proxy.url, CREATE, { input: setup })).createGame;
    expect(created.__typename).toBe('GameCreated');
    return { id: created.game.id as string, tokens: (created.tokens as { token: string }[]).map((t) => t.token) };
  }

  /** Subscribes on every instance: as a spectator, and as each seat of a game with hidden information. */
  function watchEverywhere(game: { id: string; tokens: string[] }, hidden: boolean) {
    const mine = instances.flatMap((s) => [subscriber(s.url, game.id), ...(hidden ? game.tokens.map((token) => subscriber(s.url, game.id, token)) : [])]);
    subscribers.push(...mine);
    return mine;
  }

  /** Every subscriber received events 1..version, in order, once each; the same viewer saw the same events on every instance. */
  async function checkSubscribers(watchers: ReturnType<typeof subscriber>[], version: number) {
    await until(() => watchers.every((w) => (w.events.at(-1)?.seq ?? 0) >= version), 'every subscriber to receive the last event');
    for (const w of watchers) {
      expect(w.errors).toEqual([]);
      expect(w.events.map((e) => e.seq)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    }
    const byViewer = new Map<string, Served[]>();
    for (const w of watchers) {
      const key = w.token ?? 'spectator';
      const seen = byViewer.get(key);
      if (seen) expect(w.events).toEqual(seen);
      else byViewer.set(key, w.events);
    }
  }

  async function checkVerifiedEverywhere(gameId: string, version: number) {
    for (const s of instances) {
      const { verifyGame } = await answered(s.url, VERIFY, { id: gameId });
      expect(verifyGame).toMatchObject({ ok: true, eventsChecked: version });
    }
  }

  it('bots play whole games through the proxy; every instance serves each acknowledged move, subscribers everywhere get every event once, in order, with their own view', async () => {
    const games = await Promise.all(SETUPS.map(create));
    const watchers = games.map((g, i) => watchEverywhere(g, SETUPS[i].kind === 'chicken-foot'));
    const [backgammon, chickenFoot] = games;
    const results = await Promise.all([
      play(backgammon, 1),
      play(chickenFoot, 2, async (moves) => {
        if (moves !== 12) return;
        // Mid-game, hidden information: each seat reads the same events of its own on every instance,
        // and a spectator never a hidden draw's values.
        for (const token of [undefined, ...chickenFoot.tokens]) {
          const reads = await Promise.all(instances.map(async (s) => (await answered(s.url, EVENTS, { id: chickenFoot.id }, token)).gameEvents.nodes as Served[]));
          for (const r of reads) expect(r).toEqual(reads[0]);
          if (!token) for (const e of reads[0]) expect(e.payload.chance?.hidden ? e.payload.chance.values : undefined).toBeUndefined();
        }
      }),
    ]);
    for (const [i, r] of results.entries()) {
      expect(r.moves).toBeGreaterThan(0);
      await checkSubscribers(watchers[i], r.version);
      await checkVerifiedEverywhere(games[i].id, r.version);
    }
    // The spectators' Chicken Foot events while the game ran hid every draw's values.
    const spectator = watchers[1].find((w) => !w.token)!;
    const ended = spectator.events.findIndex((e) => e.type === 'GameEnded');
    for (const e of spectator.events.slice(0, ended)) if (e.payload.chance?.hidden) expect(e.payload.chance.values).toBeUndefined();
  }, 900_000);

  it('catches up what an instance missed while its database connection was cut, and its subscribers get every event in order', async () => {
    const games = await Promise.all(SETUPS.map(create));
    const watchers = games.map((g, i) => watchEverywhere(g, SETUPS[i].kind === 'chicken-foot'));
    const cutAt = 8;
    const restoreAt = 20;
    const results = await Promise.all(
      games.map((g, i) =>
        play(g, 10 + i, async (moves) => {
          if (i !== 0) return;
          if (moves === cutAt) database.cut();
          if (moves === restoreAt) database.restore();
        }),
      ),
    );
    database.restore();
    for (const [i, r] of results.entries()) {
      await everyInstanceServes(games[i].id, r.version);
      await checkSubscribers(watchers[i], r.version);
      await checkVerifiedEverywhere(games[i].id, r.version);
    }
    expect(instances[2].log()).toMatch(/checking stored versions until it is back/);
  }, 900_000);
});
