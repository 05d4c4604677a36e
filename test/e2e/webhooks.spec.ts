import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { verifyWebhook } from '../../clients/typescript/src/webhooks.js';
import { type RunningService, startService } from '../../tools/service.js';
import { loadConfig } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { RefereeError } from '../../src/referee/core/errors.js';
import { tokenHash } from '../../src/referee/application/seat-tokens.js';
import type { StoredEvent } from '../../src/referee/core/stream.js';
import { DeadlineStore } from '../../src/referee/store/deadline-store.js';
import { AppendConflict, EventStore } from '../../src/referee/store/event-store.js';
import { checkWebhookUrl } from '../../src/webhooks/url-policy.js';
import { startApp, type TestApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ownStorageEach } from '../support/own-database.js';
import { freePort } from '../support/net.js';
import { ACT, CREATE, GAME } from '../support/queries.js';
import { eventually, type Received, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Webhooks end to end, on PostgreSQL (TEST_DATABASE_URL) or a fresh embedded database: games
 * played through the API notify a local receiver (node:http), which checks every signature with
 * the standardwebhooks package. Retries are made quick by a test setting of the backoff (or
 * driven by a hand-moved clock); nothing waits seconds for time to pass.
 */

const REGISTER = `mutation($input: RegisterWebhookInput!) {
  registerWebhook(input: $input) {
    ... on WebhookSecret { id secret webhook { id url events lowTimeThresholdsSeconds gameId seat tournamentId participantId playerId } }
    ... on Rejection { code message }
  }
}`;
const ROTATE = `mutation($id: ID!) { rotateWebhookSecret(id: $id) { ... on WebhookSecret { id secret } ... on Rejection { code message } } }`;
const DELETE = `mutation($id: ID!) { deleteWebhook(id: $id) { __typename ... on WebhookDeleted { id } ... on Rejection { code message } } }`;
const DELIVERIES = `query($id: ID!, $first: Int, $after: String) {
  webhookDeliveries(id: $id, first: $first, after: $after) {
    nodes { messageId type gameId seq attempts lastAttemptAt lastStatus lastError nextAttemptAt deliveredAt givenUpAt }
    pageInfo { endCursor hasNextPage }
  }
}`;
const JOIN = `mutation($id: ID!) { joinGame(gameId: $id) { __typename ... on SeatJoined { seat token } ... on Rejection { code message } } }`;

/** Quick retries for the tests: at most 20 ms, 40 ms, ... 100 ms apart; a look every 50 ms. */
const QUICK = { webhookRetryBaseMs: 20, webhookRetryMaxMs: 100, webhookPollMs: 50, webhookTimeoutSeconds: 2 };

interface Delivery {
  messageId: string;
  type: string;
  gameId: string;
  seq: number;
  attempts: number;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  givenUpAt: string | null;
}

type Gql = (query: string, variables?: Record<string, unknown>, token?: string) => Promise<any>;

/** A refusal's code: a mutation's Rejection, or a query's error. */
const codeOf = (res: any): string | undefined => res.errors?.[0]?.extensions?.code ?? (Object.values(res.data ?? {})[0] as { code?: string } | null)?.code;

/** A two-seat duel (a test-only game: 3 cards each, in turn), seat 1 left open: it starts when someone joins. */
async function newDuel(gql: Gql): Promise<{ id: string; token0: string }> {
  const res = await gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, seats: [{ name: 'a' }, { open: true }] } });
  expect(res.data.createGame.__typename).toBe('GameCreated');
  return { id: res.data.createGame.game.id, token0: res.data.createGame.tokens[0].token };
}

async function joinDuel(gql: Gql, id: string): Promise<string> {
  const res = await gql(JOIN, { id });
  expect(res.data.joinGame.__typename).toBe('SeatJoined');
  return res.data.joinGame.token;
}

/** Plays up to `moves` moves (all, without), each the first legal action of the seat to act; answers the seats that moved. */
async function play(gql: Gql, id: string, tokens: string[], moves = Number.POSITIVE_INFINITY): Promise<number[]> {
  const seats: number[] = [];
  while (seats.length < moves) {
    const game = (await gql(GAME, { id }, tokens[0])).data.game;
    if (game.status !== 'ACTIVE') break;
    const seat = game.toAct[0] as number;
    const legal = (await gql(GAME, { id }, tokens[seat])).data.game.legalActions;
    const res = await gql(ACT, { gameId: id, moveId: `m${game.version}`, action: legal[0], expectedVersion: game.version }, tokens[seat]);
    expect(res.data.submitAction.__typename).toBe('MoveAccepted');
    seats.push(seat);
  }
  return seats;
}

async function register(gql: Gql, token: string, input: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const res = await gql(REGISTER, { input }, token);
  expect(res.errors).toBeUndefined();
  expect(res.data.registerWebhook.code).toBeUndefined();
  return res.data.registerWebhook;
}

/** The whole delivery log, oldest first. */
async function log(gql: Gql, webhookId: string, token: string): Promise<Delivery[]> {
  const all: Delivery[] = [];
  let after: string | null = null;
  for (;;) {
    const res = await gql(DELIVERIES, { id: webhookId, first: 2, after }, token);
    expect(res.errors).toBeUndefined();
    const page = res.data.webhookDeliveries;
    all.push(...page.nodes);
    if (!page.pageInfo.hasNextPage) return all.reverse();
    after = page.pageInfo.endCursor;
  }
}

const ofGame = (gameId: string) => (r: Received) => WebhookReceiver.body(r).data.gameId === gameId;

describe('webhooks', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let gql: Gql;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startApp({ webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }], ...QUICK });
    gql = (q, v, token) => t.gql(q, v, token);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });
  beforeEach(() => {
    receiver.status = 200;
  });

  it(`tells a game's turns and its end in order, signed, each message once (${process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'})`, async () => {
    const { id, token0 } = await newDuel(gql);
    const hook = await register(gql, token0, { url: receiver.url, gameId: id, events: ['YOUR_TURN', 'GAME_OVER'] });
    expect(hook.secret).toMatch(/^whsec_/);
    const token1 = await joinDuel(gql, id);
    const movers = await play(gql, id, [token0, token1]);
    expect(movers).toEqual([0, 1, 0, 1, 0, 1]);

    const expected = movers.length + 1;
    await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === expected);
    const got = receiver.received.filter(ofGame(id));
    // Every message verifies, and none came twice: each was answered 200 the first time.
    const bodies = got.map((r) => WebhookReceiver.verify(r, hook.secret));
    expect(new Set(got.map((r) => r.id)).size).toBe(got.length);
    // The join starts the game (seat 0 to act), then each move hands the turn over; the last ends it.
    expect(bodies.map((b) => [b.type, b.data.seat])).toEqual([
      ['game.your_turn', 0],
      ['game.your_turn', 1],
      ['game.your_turn', 0],
      ['game.your_turn', 1],
      ['game.your_turn', 0],
      ['game.your_turn', 1],
      ['game.over', null],
    ]);
    const seqs = bodies.map((b) => b.data.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(bodies.at(-1)!.data).toMatchObject({ gameId: id, kind: 'duel', result: { winners: expect.any(Array), summary: expect.any(String) } });
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(Number(r.timestamp)).toBeCloseTo(Date.now() / 1000, -2);
      // The TypeScript client's check reads each delivery as the standardwebhooks package does, from the request's own headers.
      expect(verifyWebhook(hook.secret, r.body, r.headers)).toEqual(WebhookReceiver.verify(r, hook.secret));
      expect(() => verifyWebhook(`whsec_${randomBytes(24).toString('base64')}`, r.body, r.headers)).toThrow(/signature/);
    }

    // The log: every message delivered at the first attempt.
    const entries = await log(gql, hook.id, token0);
    expect(entries.map((e) => e.messageId)).toEqual(got.map((r) => r.id));
    for (const e of entries) expect(e).toMatchObject({ gameId: id, attempts: 1, lastStatus: 200, lastError: null, nextAttemptAt: null, givenUpAt: null, deliveredAt: expect.any(String) });
  });

  it('keeps trying while the receiver is down (503, a redirect, the port closed), then delivers everything, in order', async () => {
    const { id, token0 } = await newDuel(gql);
    const hook = await register(gql, token0, { url: receiver.url, gameId: id, events: ['YOUR_TURN', 'GAME_OVER'] });
    receiver.status = 503;
    const token1 = await joinDuel(gql, id);
    await play(gql, id, [token0, token1], 2);
    const first = () => receiver.received.filter(ofGame(id));
    await receiver.until(() => first().length >= 3, 60_000, 'three refused attempts');
    // The next messages of the game wait for the first: only it was tried.
    expect(new Set(first().map((r) => r.id)).size).toBe(1);
    receiver.status = 307;
    await receiver.until(() => first().some((r) => r.status === 307), 60_000, 'an attempt answered with a redirect');
    await receiver.stop();
    await play(gql, id, [token0, token1]);
    const refused = await eventually(
      () => log(gql, hook.id, token0),
      (entries) => entries[0]?.lastError === 'could not connect',
    );
    expect(refused[0]).toMatchObject({ deliveredAt: null, nextAttemptAt: expect.any(String) });
    expect(refused[0].attempts).toBeGreaterThanOrEqual(5);
    expect(refused.slice(1).every((e) => e.attempts === 0)).toBe(true);

    receiver.status = 200;
    await receiver.start();
    const all = refused.length;
    expect(all).toBe(7);
    await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === all);
    const delivered = receiver.delivered().filter(ofGame(id));
    for (const r of delivered) WebhookReceiver.verify(r, hook.secret);
    const entries = await eventually(
      () => log(gql, hook.id, token0),
      (e) => e.every((d) => d.deliveredAt !== null),
    );
    // In the order they were caused, each received (at least) once.
    expect(delivered.map((r) => r.id)).toEqual(entries.map((e) => e.messageId));
    expect(WebhookReceiver.body(delivered.at(-1)!).type).toBe('game.over');
    expect(entries[0]).toMatchObject({ lastStatus: 200, lastError: null, nextAttemptAt: null });
    expect(entries[0].attempts).toBeGreaterThanOrEqual(6);
  });

  it('signs with a new secret from its rotation on; a seat registers for its own turns only', async () => {
    const { id, token0 } = await newDuel(gql);
    const old = await register(gql, token0, { url: receiver.url, events: ['YOUR_TURN'] });
    const token1 = await joinDuel(gql, id);
    await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === 1);
    WebhookReceiver.verify(receiver.delivered().filter(ofGame(id))[0], old.secret);

    const rotated = (await gql(ROTATE, { id: old.id }, token0)).data.rotateWebhookSecret;
    expect(rotated.id).toBe(old.id);
    expect(rotated.secret).not.toBe(old.secret);
    // Seat 0 moves, seat 1 (not this webhook's seat) moves, and it is seat 0's turn again.
    await play(gql, id, [token0, token1], 2);
    await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === 2);
    const [, next] = receiver.delivered().filter(ofGame(id));
    expect(WebhookReceiver.verify(next, rotated.secret).data).toMatchObject({ gameId: id, seat: 0 });
    expect(() => WebhookReceiver.verify(next, old.secret)).toThrow(/signature/);

    // Only the token it was made with manages it.
    expect(codeOf(await gql(ROTATE, { id: old.id }, token1))).toBe('UNAUTHORIZED');
    expect(codeOf(await gql(DELIVERIES, { id: old.id }, token1))).toBe('UNAUTHORIZED');
    expect((await gql(DELETE, { id: old.id }, token0)).data.deleteWebhook.__typename).toBe('WebhookDeleted');
    expect(codeOf(await gql(DELIVERIES, { id: old.id }, token0))).toBe('NOT_FOUND');
    // Deleted, it is told nothing more: its seat's next turn stores no message.
    await play(gql, id, [token0, token1], 2);
    const { rows } = await t.app.get(DatabaseService).pool.query('SELECT count(*)::int AS n FROM webhook_messages WHERE webhook_id = $1', [old.id]);
    expect(rows[0].n).toBe(0);
  });

  it('manages a game-wide registration with the token that made it only: the opponent gets no secret and cannot delete it', async () => {
    const { id, token0 } = await newDuel(gql);
    const token1 = await joinDuel(gql, id);
    const hook = await register(gql, token0, { url: receiver.url, gameId: id, events: ['GAME_OVER'] });
    const rotation = await gql(ROTATE, { id: hook.id }, token1);
    expect(codeOf(rotation)).toBe('UNAUTHORIZED');
    expect(JSON.stringify(rotation)).not.toContain('whsec_');
    expect(codeOf(await gql(DELETE, { id: hook.id }, token1))).toBe('UNAUTHORIZED');
    expect(codeOf(await gql(DELIVERIES, { id: hook.id }, token1))).toBe('UNAUTHORIZED');
    // Still registered, with the secret seat 0 was given: its notifications are signed with it.
    const { rows } = await t.app.get(DatabaseService).pool.query('SELECT secret FROM webhooks WHERE id = $1', [hook.id]);
    expect(rows[0].secret).toBe(hook.secret);
    expect((await gql(ROTATE, { id: hook.id }, token0)).data.rotateWebhookSecret.secret).not.toBe(hook.secret);
  });

  it('refuses URLs the operator did not allow, with a stable code, and malformed ones', async () => {
    const { token0 } = await newDuel(gql);
    const refusal = async (url: string) => codeOf(await gql(REGISTER, { input: { url, events: ['YOUR_TURN'] } }, token0));
    expect(await refusal('https://example.com/hooks')).toBe('WEBHOOK_NOT_ALLOWED');
    // The allowed host on another port is another receiver.
    expect(await refusal(`http://127.0.0.1:${receiver.port + 1}/hooks`)).toBe('WEBHOOK_NOT_ALLOWED');
    expect(await refusal(`http://localhost:${receiver.port}/hooks`)).toBe('WEBHOOK_NOT_ALLOWED');
    expect(await refusal(`ftp://127.0.0.1:${receiver.port}/hooks`)).toBe('INVALID_INPUT');
    expect(await refusal(`http://user:secret@127.0.0.1:${receiver.port}/hooks`)).toBe('INVALID_INPUT');
    expect(await refusal('not a url')).toBe('INVALID_INPUT');
    expect(codeOf(await gql(REGISTER, { input: { url: receiver.url, events: ['YOUR_TURN'] } }))).toBe('UNAUTHORIZED');
    expect(codeOf(await gql(REGISTER, { input: { url: receiver.url, events: [] } }, token0))).toBe('INVALID_INPUT');

    // Unset, no host is allowed: every registration is refused, and the message names the setting.
    const unset = loadConfig({});
    expect(unset.webhookAllowedHosts).toEqual([]);
    expect(() => checkWebhookUrl(receiver.url, unset.webhookAllowedHosts)).toThrow(RefereeError);
    expect(() => checkWebhookUrl(receiver.url, unset.webhookAllowedHosts)).toThrow(expect.objectContaining({ code: 'WEBHOOK_NOT_ALLOWED', message: expect.stringContaining('WEBHOOK_ALLOWED_HOSTS') }));
    expect(loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'hooks.example.com, 10.0.0.5:8080,[::1]:9000' }).webhookAllowedHosts).toEqual([
      { hostname: 'hooks.example.com', port: null },
      { hostname: '10.0.0.5', port: 8080 },
      { hostname: '[::1]', port: 9000 },
    ]);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'http://hooks.example.com' })).toThrow(/WEBHOOK_ALLOWED_HOSTS/);
  });
  it("scopes a registration by who its token is: a tournament's organizer or participant, a game's seat, a scheduled game's organizer", async () => {
    const created = (
      await gql(
        `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`,
        {
          input: { name: 'Hooks cup', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 1 },
        },
      )
    ).data.createTournament;
    const [tournamentId, organizer] = [created.tournament.id as string, created.organizerToken as string];
    const participants: { participantId: string; participantToken: string }[] = [];
    for (const name of ['Ann', 'Bob']) {
      participants.push(
        (
          await gql(
            `mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }`,
            { id: tournamentId, name },
            organizer,
          )
        ).data.registerParticipant,
      );
    }
    const paired = (
      await gql(
        `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { rounds { boards { games { gameId } } } } ... on Rejection { code message } } }`,
        { id: tournamentId },
        organizer,
      )
    ).data.pairRound;
    const scheduled: string = paired.rounds[0].boards[0].games[0].gameId;
    const scope = async (token: string, input: Record<string, unknown> = {}) => {
      const res = await gql(REGISTER, { input: { url: receiver.url, events: ['GAME_OVER'], ...input } }, token);
      if (codeOf(res)) return codeOf(res);
      const { gameId, seat, tournamentId, participantId } = res.data.registerWebhook.webhook;
      return { gameId, seat, tournamentId, participantId };
    };
    const none = { gameId: null, seat: null, tournamentId: null, participantId: null };

    expect(await scope(organizer)).toEqual({ ...none, tournamentId });
    expect(await scope(participants[0].participantToken)).toEqual({ ...none, tournamentId, participantId: participants[0].participantId });
    expect(await scope(participants[1].participantToken, { tournamentId })).toEqual({ ...none, tournamentId, participantId: participants[1].participantId });
    expect(await scope(organizer, { gameId: scheduled })).toEqual({ ...none, gameId: scheduled });
    // A participant plays the game, but registers for its tournament's games (its own seats), not for the game as a whole.
    expect(await scope(participants[0].participantToken, { gameId: scheduled })).toBe('UNAUTHORIZED');
    const { id: other, token0 } = await newDuel(gql);
    expect(await scope(token0)).toEqual({ ...none, gameId: other, seat: 0 });
    expect(await scope(token0, { tournamentId })).toBe('UNAUTHORIZED');
    expect(await scope(organizer, { gameId: other })).toBe('UNAUTHORIZED');
    expect(await scope(organizer, { gameId: 'nosuchgame' })).toBe('NOT_FOUND');
    expect(await scope(`arb_${randomBytes(24).toString('base64url')}`)).toBe('UNAUTHORIZED');
  });

  it("stores a message and the game's deadline row exactly with their events: of appends racing for one version, the loser stores none of them", async () => {
    const store = t.app.get(EventStore);
    const gameId = `race-${randomBytes(6).toString('hex')}`;
    const token = `arb_${randomBytes(24).toString('base64url')}`;
    const at = new Date().toISOString();
    // Rows written through the store alone (no referee holds this game): only the store's contract is at stake.
    const event = (seq: number, tag: string): StoredEvent => ({
      seq,
      type: 'Noted',
      actor: null,
      moveId: null,
      bodyHash: null,
      payload: { tag },
      createdAt: at,
      prevHash: `h${seq - 1}`,
      hash: `h${seq}${tag}`,
    });
    const head = (version: number) => ({ status: 'ACTIVE' as const, version, hash: `h${version}`, result: null });
    await store.createGame(
      {
        id: gameId,
        kind: 'duel',
        status: 'ACTIVE',
        version: 1,
        headHash: 'h1',
        ruleset: {},
        rulesetHash: 'r',
        seedCommitment: 'c',
        serverSeed: 's',
        randomSource: 'fair',
        suppliedChance: null,
        imported: false,
        result: null,
      },
      [{ index: 0, name: null, tokenHash: tokenHash(token), clientSeed: null }],
      [event(1, 'created')],
    );
    const hook = await register(gql, token, { url: receiver.url, gameId, events: ['GAME_OVER'] });
    const message = (seq: number, tag: string) => ({
      id: `msg_${tag}_${gameId}`,
      webhookId: hook.id,
      gameId,
      seq,
      n: 0,
      type: 'game.over',
      payload: { type: 'game.over', timestamp: at, data: { gameId, seq, seat: null } },
      createdAt: at,
    });
    // Far ahead, so that no deadline worker acts on this made-up game; each append's own.
    const ahead = Date.now() + 86_400_000;
    const dueAt = (seconds: number) => new Date(ahead + seconds * 1000);
    const deadline = (version: number, seconds: number) => ({ gameId, seat: 0, dueAt: dueAt(seconds), warnAt: dueAt(seconds - 60), version });
    // Each append's rows of the two projections, as the referee's consequence handlers derive them.
    const consequences = (m: ReturnType<typeof message>, d: ReturnType<typeof deadline>) => [
      { projection: 'webhook_messages', rows: [m] },
      { projection: 'deadlines', rows: [d] },
    ];
    // The first is written alone; the two racing for version 3 then go together in one statement
    // (one deadline row per game in it), which fails and is retried one by one.
    const results = await Promise.allSettled([
      store.append(gameId, [event(2, 'a')], head(2), consequences(message(2, 'a'), deadline(2, 100))),
      store.append(gameId, [event(3, 'b')], head(3), consequences(message(3, 'b'), deadline(3, 200))),
      store.append(gameId, [event(3, 'c')], head(3), consequences(message(3, 'c'), deadline(3, 300))),
    ]);
    expect(results[0].status).toBe('fulfilled');
    const lost = results.slice(1).filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(AppendConflict);
    const winner = (await store.events(gameId, 2)).map((e) => e.payload.tag);
    expect(winner).toHaveLength(1);
    const { rows } = await t.app.get(DatabaseService).pool.query('SELECT id FROM webhook_messages WHERE webhook_id = $1 ORDER BY seq', [hook.id]);
    expect(rows.map((r: { id: string }) => r.id)).toEqual([message(2, 'a').id, message(3, winner[0] as string).id]);
    const row = await t.app.get(DeadlineStore).get(gameId);
    expect(row).toMatchObject({ ...deadline(3, winner[0] === 'b' ? 200 : 300), claimedUntil: null });
    await t.app.get(DatabaseService).pool.query('DELETE FROM deadlines WHERE game_id = $1', [gameId]);
    expect((await gql(DELETE, { id: hook.id }, token)).data.deleteWebhook.__typename).toBe('WebhookDeleted');
  });
});

describe('webhooks on a hand-moved clock', () => {
  const storage = ownStorageEach('webhooks');
  it('retries when the clock says so, and gives a message up after 26 hours; the next one then goes', async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    // The default schedule (30 s, doubling to 1 h, given up after 26 h); only the looks are frequent.
    const t = await startAppWithClock(clock, { ...storage(), webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }], webhookPollMs: 20 });
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    try {
      receiver.status = 503;
      const { id, token0 } = await newDuel(gql);
      const hook = await register(gql, token0, { url: receiver.url, gameId: id, events: ['YOUR_TURN'] });
      /**
       * Waits until attempt `n` of the game's message `i` (oldest first) is recorded, stamped with
       * the standing clock: an outcome is judged by the clock's time when the answer came, so the
       * clock moves only once the worker has read it (on a busy machine the answer can be read
       * after the test's next step).
       */
      const recorded = (i: number, n: number) =>
        eventually(
          () => log(gql, hook.id, token0),
          (e) => e[i]?.attempts === n && e[i].lastAttemptAt !== null && Date.parse(e[i].lastAttemptAt!) === clock.now().getTime(),
        );
      const token1 = await joinDuel(gql, id);
      await receiver.until(() => receiver.received.length === 1);
      await recorded(0, 1);
      // The first retry is due within 30 s of clock time: none comes while the clock stands still.
      await new Promise((r) => setTimeout(r, 200));
      expect(receiver.received).toHaveLength(1);
      clock.advance(30_000);
      await receiver.until(() => receiver.received.length === 2);
      await recorded(0, 2);
      await play(gql, id, [token0, token1], 1);
      // Just past the first message's 26 hours (not yet the second's, caused 30 s later).
      clock.advance(26 * 3600_000 - 20_000);
      const entries = await recorded(0, 3);
      expect(entries[0]).toMatchObject({ attempts: 3, lastStatus: 503, nextAttemptAt: null, deliveredAt: null, givenUpAt: expect.any(String) });
      // Given up, the first no longer holds the second back: it is tried at once (refused too),
      // then again when its own time comes.
      expect((await recorded(1, 1))[1]).toMatchObject({ lastStatus: 503, givenUpAt: null });
      receiver.status = 200;
      clock.advance(30_000);
      await receiver.until(() => receiver.delivered().length === 1);
      expect(WebhookReceiver.body(receiver.delivered()[0]).data).toMatchObject({ gameId: id, seat: 1 });
      expect(receiver.delivered()[0].id).toBe(entries[1].messageId);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});

describe('webhooks of a game with a clock', () => {
  const storage = ownStorageEach('webhooks');
  /** Signatures are checked against the wall clock: each test's clock starts at it and moves less than four minutes. */
  const SECOND = 1000;
  const LOW = 'game.time_running_low';
  const hosts = (receiver: WebhookReceiver) => ({ ...storage(), webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }], ...QUICK });

  /** A duel with a Fischer clock, seat 1 left open: its clock starts when someone joins. */
  async function timedDuel(gql: Gql, baseSeconds: number): Promise<{ id: string; token0: string }> {
    const res = await gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, seats: [{ name: 'a' }, { open: true }], timeControl: { kind: 'FISCHER', baseSeconds } } });
    expect(res.data.createGame.__typename).toBe('GameCreated');
    return { id: res.data.createGame.game.id, token0: res.data.createGame.tokens[0].token };
  }

  /** The messages stored for a game (the outbox: what will be delivered), in delivery order. */
  async function stored(t: TestApp, gameId: string): Promise<{ type: string; seat: number | null; thresholdSeconds?: number; remainingMs?: number; rule?: string }[]> {
    const { rows } = await t.app.get(DatabaseService).pool.query('SELECT payload FROM webhook_messages WHERE game_id = $1 ORDER BY seq, n', [gameId]);
    return rows.map((r: { payload: { type: string; data: Record<string, any> } }) => ({ type: r.payload.type, ...r.payload.data }) as any);
  }

  it("tells a seat's time running low once per threshold as the worker reaches each, nothing once it moved, then its opponent's timeout and the end", async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    const t = await startAppWithClock(clock, hosts(receiver));
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    const worker = t.app.get(RefereeService).deadlines!;
    // The test ticks the worker itself, so that each tick is known to be done.
    await worker.stop();
    try {
      const { id, token0 } = await timedDuel(gql, 120);
      const hook = await register(gql, token0, { url: receiver.url, gameId: id, events: ['TIME_RUNNING_LOW', 'TIMED_OUT', 'GAME_OVER'], lowTimeThresholdsSeconds: [20, 60] });
      // The registration counts from the next move: the join, which starts seat 0's clock.
      const token1 = await joinDuel(gql, id);
      const rows = t.app.get(DeadlineStore);
      const started = await rows.get(id);
      expect(started).toMatchObject({ seat: 0, claimedUntil: null });
      expect(started!.warnAt!.getTime()).toBe(started!.dueAt!.getTime() - 60 * SECOND);
      const lows = async () => (await stored(t, id)).filter((m) => m.type === LOW);

      clock.advance(59 * SECOND);
      await worker.tick();
      expect(await lows()).toEqual([]);
      clock.advance(2 * SECOND);
      await worker.tick();
      await worker.tick();
      expect(await lows()).toEqual([expect.objectContaining({ seat: 0, thresholdSeconds: 60, remainingMs: 59 * SECOND })]);
      expect((await rows.get(id))!.warnAt!.getTime()).toBe(started!.dueAt!.getTime() - 20 * SECOND);
      clock.advance(40 * SECOND);
      await worker.tick();
      expect((await lows()).map((m) => [m.seat, m.thresholdSeconds, m.remainingMs])).toEqual([
        [0, 60, 59 * SECOND],
        [0, 20, 19 * SECOND],
      ]);

      // Seat 0 moves: its clock stops, seat 1's runs from 120 s (its thresholds are a minute off).
      expect(await play(gql, id, [token0, token1], 1)).toEqual([0]);
      clock.advance(30 * SECOND);
      await worker.tick();
      expect(await lows()).toHaveLength(2);
      clock.advance(31 * SECOND);
      await worker.tick();
      expect((await lows()).map((m) => [m.seat, m.thresholdSeconds])).toEqual([
        [0, 60],
        [0, 20],
        [1, 60],
      ]);
      // Past seat 1's deadline (and its 20 s threshold): only the timeout is told.
      clock.advance(60 * SECOND);
      expect(await worker.tick()).toBeGreaterThanOrEqual(1);
      expect(await rows.get(id)).toBeNull();

      const all = await stored(t, id);
      expect(all.map((m) => [m.type, m.seat])).toEqual([
        [LOW, 0],
        [LOW, 0],
        [LOW, 1],
        ['game.timed_out', 1],
        ['game.over', null],
      ]);
      await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === all.length);
      const bodies = receiver
        .delivered()
        .filter(ofGame(id))
        .map((r) => WebhookReceiver.verify(r, hook.secret));
      expect(bodies.map((b) => [b.type, b.data.seat, b.data.thresholdSeconds ?? b.data.rule ?? null])).toEqual([
        [LOW, 0, 60],
        [LOW, 0, 20],
        [LOW, 1, 60],
        ['game.timed_out', 1, 'concede'],
        ['game.over', null, null],
      ]);
      expect(bodies[4].data).toMatchObject({ result: { winners: [0] } });
      // Each was delivered at its first attempt: nothing came twice.
      expect(receiver.received.filter(ofGame(id))).toHaveLength(all.length);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  it("carries the game as REST answers the registrant's seat at that version (its clock and deadline included), without the view and legal actions", async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    const t = await startAppWithClock(clock, hosts(receiver));
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    try {
      const { id, token0 } = await timedDuel(gql, 120);
      const hook = await register(gql, token0, { url: receiver.url, events: ['YOUR_TURN'] });
      // Seat 0's own registration. The join starts its clock: its turn, told with the game as it stands, the clock not moved since.
      await joinDuel(gql, id);
      await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === 1);
      const told = WebhookReceiver.verify(receiver.delivered().filter(ofGame(id))[0], hook.secret).data;
      const rest = await request(t.app.getHttpServer()).get(`/api/games/${id}`).set('authorization', `Bearer ${token0}`).expect(200);
      const { view: _view, legalActions: _legal, ...shown } = rest.body;
      expect(told.game).toEqual(shown);
      expect(told.game).toMatchObject({ version: told.seq, mySeat: 0, toAct: [0], clock: { running: [0], deadline: expect.any(String), remainingMs: [120 * SECOND, 120 * SECOND] } });
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  it('delivers a low-time warning at once, not at the next poll of the outbox', async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    // A poll far longer than the test may wait: only the warning's own wake-up delivers it.
    const t = await startAppWithClock(clock, { ...hosts(receiver), webhookPollMs: 3_600_000 });
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    const worker = t.app.get(RefereeService).deadlines!;
    await worker.stop();
    try {
      const { id, token0 } = await timedDuel(gql, 120);
      const hook = await register(gql, token0, { url: receiver.url, gameId: id, events: ['TIME_RUNNING_LOW'], lowTimeThresholdsSeconds: [60] });
      await joinDuel(gql, id);
      clock.advance(61 * SECOND);
      await worker.tick();
      await receiver.until(() => receiver.delivered().filter(ofGame(id)).length === 1);
      expect(WebhookReceiver.verify(receiver.delivered().filter(ofGame(id))[0], hook.secret).data).toMatchObject({ seat: 0, thresholdSeconds: 60 });
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  it('tells at start-up, once, a warning whose time came while no instance ran; a deadline that came too is only a timeout', async () => {
    const receiver = await WebhookReceiver.start();
    const clock = new ManualClock();
    // The same (own) database across the restart.
    const settings = hosts(receiver);
    let t = await startAppWithClock(clock, settings);
    const gql: Gql = (q, v, token) => t.gql(q, v, token);
    try {
      const warned = await timedDuel(gql, 120);
      const hook = await register(gql, warned.token0, { url: receiver.url, gameId: warned.id, events: ['TIME_RUNNING_LOW'], lowTimeThresholdsSeconds: [30, 60] });
      await joinDuel(gql, warned.id);
      const late = await timedDuel(gql, 60);
      await register(gql, late.token0, { url: receiver.url, gameId: late.id, events: ['TIME_RUNNING_LOW', 'TIMED_OUT'], lowTimeThresholdsSeconds: [30] });
      await joinDuel(gql, late.id);
      await t.close();

      // While no instance runs, both of the first game's thresholds pass (the lowest is told), and the second game's deadline.
      clock.advance(100 * SECOND);
      t = await startAppWithClock(clock, settings);
      // The start-up scan runs in the background; a tick waits for it, and finds nothing more to do.
      await t.app.get(RefereeService).deadlines!.tick();
      await t.app.get(RefereeService).deadlines!.tick();
      expect(await stored(t, warned.id)).toEqual([expect.objectContaining({ type: LOW, seat: 0, thresholdSeconds: 30, remainingMs: 20 * SECOND })]);
      expect((await stored(t, late.id)).map((m) => m.type)).toEqual(['game.timed_out']);
      expect((await t.app.get(DeadlineStore).get(warned.id))!.warnAt).toBeNull();

      await receiver.until(() => receiver.delivered().filter(ofGame(warned.id)).length === 1);
      const [told] = receiver.delivered().filter(ofGame(warned.id));
      expect(WebhookReceiver.verify(told, hook.secret).data).toMatchObject({ gameId: warned.id, seat: 0, thresholdSeconds: 30, remainingMs: 20 * SECOND });
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});

describe('webhooks across a crash', () => {
  /** The service as its own process, on PostgreSQL (TEST_DATABASE_URL) or an embedded database in a temporary folder. */
  const url = process.env.TEST_DATABASE_URL;

  async function gqlAt(service: RunningService, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const res = await fetch(`${service.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    return res.json();
  }

  it('loses no message when the service is killed with SIGKILL while they wait: restarted, it delivers them all, in order', async () => {
    const receiver = await WebhookReceiver.start();
    const dataDir = url ? null : mkdtempSync(join(tmpdir(), 'arbiter-webhooks-'));
    const env = {
      ...(url ? { DATABASE_URL: url } : { DATA_DIR: dataDir! }),
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_MAX_MS: '200',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_TIMEOUT_SECONDS: '1',
    };
    const port = await freePort();
    let service = await startService(env, port);
    try {
      const gql: Gql = (q, v, token) => gqlAt(service, q, v, token);
      receiver.status = 503;
      const created = (await gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 } } })).data.createGame;
      const id = created.game.id as string;
      const tokens = created.tokens.map((x: { token: string }) => x.token);
      const hook = await register(gql, tokens[0], { url: receiver.url, gameId: id, events: ['YOUR_TURN', 'GAME_OVER'] });
      await play(gql, id, tokens, 8);
      const resigned = await gql(`mutation($id: ID!) { resignGame(gameId: $id, moveId: "r") { __typename } }`, { id }, tokens[0]);
      expect(resigned.data.resignGame.__typename).toBe('MoveAccepted');
      const stored = await log(gql, hook.id, tokens[0]);
      expect(stored.length).toBeGreaterThanOrEqual(3);
      expect(stored.at(-1)!.type).toBe('game.over');
      await receiver.until(() => receiver.received.length >= 2, 60_000, 'two refused attempts');

      service.process.kill('SIGKILL');
      await service.exited;
      expect(receiver.delivered()).toEqual([]);
      receiver.status = 200;
      service = await startService(env, port);

      await receiver.until(() => receiver.delivered().length === stored.length, 60_000, 'every message after the restart');
      const delivered = receiver.delivered();
      expect(delivered.map((r) => r.id)).toEqual(stored.map((e) => e.messageId));
      for (const r of delivered) expect(WebhookReceiver.verify(r, hook.secret).data.gameId).toBe(id);
      const entries = await eventually(
        () => log(gql, hook.id, tokens[0]),
        (e) => e.every((d) => d.deliveredAt !== null),
      );
      expect(entries.map((e) => e.messageId)).toEqual(stored.map((e) => e.messageId));
    } finally {
      service.process.kill('SIGTERM');
      await service.exited;
      await receiver.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
