import { Notifications } from '../../src/webhooks/notifications.js';
import { startApp, type TestApp } from '../support/app.js';
import { ownStorage } from '../support/own-database.js';
import { type Notice, openStream, until } from '../support/player-stream.js';
import { eventually, type Received, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * A paired tournament round tells each first mover exactly once (issue 25): a round of four
 * participants who are players, one correspondence backgammon match per board. Each player
 * follows its stream (GET /api/me/stream) and has a player webhook; each participant has a
 * tournament webhook of its own token. The first movers are told game.your_turn once each, by
 * the stream and by every webhook; the others only that their game started. Once on one
 * instance (either database), and on two instances over one PostgreSQL database: paired on
 * one, streams followed and registrations made on the other, messages delivered by whichever
 * instance claims them. Each suite has a database of its own, so no other suite's instance
 * claims its messages.
 */

/** Quick retries and looks (as test/e2e/webhooks.spec.ts): a failed attempt would show, not stall the test. */
const QUICK = { webhookRetryBaseMs: 20, webhookRetryMaxMs: 100, webhookPollMs: 50, webhookTimeoutSeconds: 2 };
const DAY_MS = 86_400_000;

const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!, $player: ID) { registerParticipant(tournamentId: $id, name: $name, player: $player) { __typename ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id, round: 1) { __typename ... on Tournament { rounds { boards { games { gameId seats { id } } } } } ... on Rejection { code message } } }`;
const GAME = `query($id: ID!) { game(id: $id) { status toAct seats { index player } } }`;
const HOOK = `mutation($input: RegisterWebhookInput!) {
  registerWebhook(input: $input) { ... on WebhookSecret { id secret } ... on Rejection { code message } } }`;
const DELIVERIES = `query($id: ID!, $after: String) {
  webhookDeliveries(id: $id, first: 100, after: $after) { nodes { messageId type gameId attempts deliveredAt } pageInfo { endCursor hasNextPage } } }`;

interface Delivery {
  messageId: string;
  type: string;
  gameId: string;
  attempts: number;
  deliveredAt: string | null;
}

/** A participant who is a player: the player's key, the participant's token, and its webhooks' ids and secrets. */
interface Entrant {
  name: string;
  playerId: string;
  key: string;
  participantId: string;
  participantToken: string;
  playerHook: { id: string; secret: string };
  participantHook: { id: string; secret: string };
}

/** A player's stream on `on`, once it answered. */
async function follow(on: TestApp, key: string) {
  const stream = openStream(on.url, key);
  expect((await stream.answered).status).toBe(200);
  return stream;
}

async function gqlOk(on: TestApp, query: string, variables: Record<string, unknown>, token?: string): Promise<any> {
  const res = await on.gql(query, variables, token);
  expect(res.errors).toBeUndefined();
  return res.data;
}

async function registerHook(on: TestApp, token: string, input: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const answer = (await gqlOk(on, HOOK, { input }, token)).registerWebhook;
  expect(answer.code).toBeUndefined();
  return answer;
}

/** A webhook's whole delivery log. */
async function deliveries(on: TestApp, webhookId: string, token: string): Promise<Delivery[]> {
  const all: Delivery[] = [];
  let after: string | null = null;
  for (;;) {
    const page: { nodes: Delivery[]; pageInfo: { endCursor: string; hasNextPage: boolean } } = (await gqlOk(on, DELIVERIES, { id: webhookId, after }, token)).webhookDeliveries;
    all.push(...page.nodes);
    if (!page.pageInfo.hasNextPage) return all;
    after = page.pageInfo.endCursor;
  }
}

/** The requests signed with `secret` (a registration's own), each verified by the standardwebhooks package. */
function signedWith(receiver: WebhookReceiver, secret: string): { request: Received; body: ReturnType<typeof WebhookReceiver.verify> }[] {
  return receiver.received.flatMap((request) => {
    try {
      return [{ request, body: WebhookReceiver.verify(request, secret) }];
    } catch {
      return [];
    }
  });
}

/**
 * Pairs round 1 of a four-player Swiss on `pairOn` while the players follow their streams and
 * register their webhooks on `followOn`, then checks that each first mover was told once.
 */
async function pairedRoundTellsFirstMoversOnce(pairOn: TestApp, followOn: TestApp, receiver: WebhookReceiver): Promise<void> {
  const created = (
    await gqlOk(pairOn, CREATE, {
      input: {
        name: 'First movers',
        kind: 'backgammon',
        ruleset: { matchLength: 1 },
        format: 'SWISS',
        rounds: 1,
        timeControl: { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, bankCapSeconds: 3 * 86_400 },
      },
    })
  ).createTournament;
  const tournamentId: string = created.tournament.id;
  const entrants: Entrant[] = [];
  for (const name of ['Ann', 'Bob', 'Cid', 'Dee']) {
    const made = (
      await gqlOk(pairOn, 'mutation($name: String!) { createPlayer(name: $name) { __typename ... on PlayerCreated { player { id } key { secret } } ... on Rejection { code message } } }', { name })
    ).createPlayer;
    const registered = (await gqlOk(pairOn, REGISTER, { id: tournamentId, name, player: made.player.id }, created.organizerToken)).registerParticipant;
    const playerHook = await registerHook(followOn, made.key.secret, { url: receiver.url, events: ['GAME_STARTED', 'YOUR_TURN'] });
    const participantHook = await registerHook(followOn, registered.participantToken, { url: receiver.url, tournamentId, events: ['YOUR_TURN'] });
    entrants.push({ name, playerId: made.player.id, key: made.key.secret, ...registered, playerHook, participantHook });
  }
  // Another instance reads the registrations' changes at its next poll (WEBHOOK_POLL_MS): the
  // test takes that poll now, rather than waiting for it, so that the pairing instance knows them.
  if (pairOn !== followOn) await pairOn.app.get(Notifications).refresh();
  const streams = new Map<string, Awaited<ReturnType<typeof follow>>>();
  for (const e of entrants) streams.set(e.name, await follow(followOn, e.key));

  try {
    const paired = (await gqlOk(pairOn, PAIR, { id: tournamentId }, created.organizerToken)).pairRound;
    const games: { gameId: string }[] = paired.rounds[0].boards.map((b: { games: { gameId: string }[] }) => b.games[0]);
    expect(games).toHaveLength(2);

    // Each entrant's game and seat, and whether it moves first, as the game itself says.
    const seating = new Map<string, { gameId: string; seat: number; first: boolean }>();
    for (const { gameId } of games) {
      const game = (await gqlOk(pairOn, GAME, { id: gameId })).game;
      expect(game.status).toBe('ACTIVE');
      // Backgammon's opening roll is drawn at once: one seat moves first, the other waits.
      expect(game.toAct).toHaveLength(1);
      for (const s of game.seats as { index: number; player: string }[]) {
        const e = entrants.find((x) => x.playerId === s.player)!;
        seating.set(e.name, { gameId, seat: s.index, first: game.toAct[0] === s.index });
      }
    }
    expect([...seating.values()].filter((s) => s.first)).toHaveLength(2);

    const expectedStream = (e: Entrant) => (seating.get(e.name)!.first ? ['game.started', 'game.your_turn'] : ['game.started']);
    // The streams also carry the tournament's own notices (registered, round paired: tournament-notifications.spec.ts).
    const gameNotices = (stream: { notices: Notice[] }) => stream.notices.filter((n) => n.type.startsWith('game.'));
    /** Per registration: the types of the messages it is to receive, and its token (to read its log). */
    const hooks = entrants.flatMap((e) => [
      { hook: e.playerHook, token: e.key, entrant: e, types: expectedStream(e) },
      { hook: e.participantHook, token: e.participantToken, entrant: e, types: seating.get(e.name)!.first ? ['game.your_turn'] : [] },
    ]);

    // Everything arrives: the streams' notices, and every registration's messages recorded delivered.
    await until(() => entrants.every((e) => gameNotices(streams.get(e.name)!).length >= expectedStream(e).length), 'the streams', 30_000);
    for (const h of hooks) {
      await eventually(
        () => deliveries(followOn, h.hook.id, h.token),
        (log) => log.length >= h.types.length && log.every((d) => d.deliveredAt !== null),
      );
    }
    await receiver.until(() => hooks.every((h) => signedWith(receiver, h.hook.secret).length >= h.types.length));
    // And no more comes: a bounded look after everything settled.
    await new Promise((r) => setTimeout(r, 500));

    for (const e of entrants) {
      const { gameId, seat, first } = seating.get(e.name)!;
      const told = gameNotices(streams.get(e.name)!);
      expect(told.map((n) => n.type)).toEqual(expectedStream(e));
      for (const n of told) expect(n.data).toMatchObject({ gameId, kind: 'backgammon', mySeat: seat });
      if (first) {
        const turn = told[1];
        expect(turn.data.seat).toBe(seat);
        expect(turn.data.remainingMs).toBeGreaterThan(0);
        expect(turn.data.remainingMs).toBeLessThanOrEqual(DAY_MS);
        expect(Date.parse(turn.data.deadline)).toBe(Date.parse(turn.createdAt) + turn.data.remainingMs);
      }
      // A stream opened now serves the same notices from the start: they were stored once.
      const again = await follow(followOn, e.key);
      await until(() => gameNotices(again).length >= told.length, `${e.name}'s notices again`);
      await again.close();
      expect(gameNotices(again)).toEqual(told);
    }

    for (const h of hooks) {
      const { gameId, seat } = seating.get(h.entrant.name)!;
      const log = await deliveries(followOn, h.hook.id, h.token);
      // Stored once each, and delivered at the first attempt: the receiver answered 2xx to all.
      expect(log.map((d) => d.type).sort()).toEqual([...h.types].sort());
      for (const d of log) expect(d).toMatchObject({ gameId, attempts: 1, deliveredAt: expect.any(String) });
      const got = signedWith(receiver, h.hook.secret);
      // Each message arrived exactly once (no second delivery of an id, nor another id for the same notice).
      expect(got.map((g) => g.request.id).sort()).toEqual(log.map((d) => d.messageId).sort());
      expect(got.every((g) => g.request.status === 200)).toBe(true);
      expect(got.map((g) => g.body.type).sort()).toEqual([...h.types].sort());
      for (const { body } of got) expect(body.data).toMatchObject({ gameId, mySeat: seat, seat, tournamentId });
      const turn = got.find((g) => g.body.type === 'game.your_turn')?.body.data as { remainingMs: number; deadline: string } | undefined;
      if (turn) {
        expect(turn.remainingMs).toBeGreaterThan(0);
        expect(turn.remainingMs).toBeLessThanOrEqual(DAY_MS);
        expect(turn.deadline).toEqual(expect.any(String));
      }
    }
  } finally {
    for (const s of streams.values()) await s.close();
  }
}

describe('a paired tournament round, on one instance', () => {
  let receiver: WebhookReceiver;
  let storage: Awaited<ReturnType<typeof ownStorage>>;
  let t: TestApp;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    storage = await ownStorage('first_mover');
    t = await startApp({ ...storage.settings, webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }], ...QUICK });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await storage?.drop();
    await receiver?.stop();
  }, 120_000);

  it(`tells each first mover once, by its stream, its player webhook and its participant webhook (${process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'})`, async () => {
    await pairedRoundTellsFirstMoversOnce(t, t, receiver);
  });
});

// Two processes share a database only on PostgreSQL: the embedded one belongs to one process.
(process.env.TEST_DATABASE_URL ? describe : describe.skip)('a paired tournament round, on two instances over one database (PostgreSQL)', () => {
  let receiver: WebhookReceiver;
  let storage: Awaited<ReturnType<typeof ownStorage>>;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    storage = await ownStorage('first_mover_two');
    // Both deliver: a message goes out from whichever instance claims it first.
    const settings = { ...storage.settings, webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }], ...QUICK };
    a = await startApp(settings);
    b = await startApp(settings);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await storage?.drop();
    await receiver?.stop();
  }, 120_000);

  it('tells each first mover once: paired on one instance, streams and registrations on the other', async () => {
    await pairedRoundTellsFirstMoversOnce(a, b, receiver);
  });
});
