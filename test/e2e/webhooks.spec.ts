import { randomBytes } from 'node:crypto';
import { verifyWebhook } from '../../clients/typescript/src/webhooks.js';
import { loadConfig } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { RefereeError } from '../../src/referee/core/errors.js';
import { tokenHash } from '../../src/referee/application/seat-tokens.js';
import type { StoredEvent } from '../../src/referee/core/stream.js';
import { DeadlineStore } from '../../src/referee/store/deadline-store.js';
import { AppendConflict, EventStore } from '../../src/referee/store/event-store.js';
import { checkWebhookUrl } from '../../src/webhooks/url-policy.js';
import { startApp, type TestApp } from '../support/app.js';
import { eventually, WebhookReceiver } from '../support/webhook-receiver.js';
import { codeOf, DELETE, DELIVERIES, type Gql, joinDuel, log, newDuel, ofGame, play, QUICK, REGISTER, register, ROTATE } from '../support/webhook-games.js';

/**
 * Webhooks end to end, on PostgreSQL (TEST_DATABASE_URL) or a fresh embedded database: games
 * played through the API notify a local receiver (node:http), which checks every signature with
 * the standardwebhooks package. Retries are made quick by a test setting of the backoff (or
 * driven by a hand-moved clock); nothing waits seconds for time to pass.
 */

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
