import { verifyWebhook } from '../../clients/typescript/src/webhooks.js';
import { startApp, type TestApp } from '../support/app.js';
import { ownStorage } from '../support/own-database.js';
import { ACT, CREATE } from '../support/queries.js';
import { type Received, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * A player's webhooks (issue 25): one registration, made with the player's key (or its app's),
 * covers every game where the player holds a seat, the ones created after it too; it is told
 * each game's notices for the player's seats, as the player's stream tells them; any of the
 * player's keys manages it. And a message can be sent again at once (issue 26). Every delivery
 * is checked with the standardwebhooks package.
 */

const REGISTER = `mutation($input: RegisterWebhookInput!) {
  registerWebhook(input: $input) { ... on WebhookSecret { id secret webhook { playerId gameId tournamentId seat participantId } } ... on Rejection { code message } }
}`;
const ROTATE_SECRET = `mutation($id: ID!) { rotateWebhookSecret(id: $id) { ... on WebhookSecret { secret } ... on Rejection { code } } }`;
const DELETE = `mutation($id: ID!) { deleteWebhook(id: $id) { __typename ... on Rejection { code } } }`;
const REDELIVER = `mutation($id: ID!, $messageId: ID!) {
  redeliverWebhookMessage(id: $id, messageId: $messageId) { ... on WebhookDelivery { messageId nextAttemptAt deliveredAt givenUpAt } ... on Rejection { code message } }
}`;
const DELIVERIES = `query($id: ID!) { webhookDeliveries(id: $id, first: 100) { edges { cursor node { messageId type attempts deliveredAt nextAttemptAt } } pageInfo { hasNextPage } } }`;
const PAUSE = `mutation($gameId: ID!) { pauseClock(gameId: $gameId) { __typename ... on Rejection { code message } } }`;
const ADD_TIME = `mutation($gameId: ID!, $seat: Int!, $seconds: Int!) { addTime(gameId: $gameId, seat: $seat, seconds: $seconds) { __typename ... on Rejection { code message } } }`;
const CHALLENGE = 'mutation($input: IssueChallengeInput!) { issueChallenge(input: $input) { ... on Challenge { id } ... on Rejection { code message } } }';
const LEGAL = `query($id: ID!) { game(id: $id) { version toAct legalActions } }`;

let receiver: WebhookReceiver;
let t: TestApp;
let storage: Awaited<ReturnType<typeof ownStorage>>;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  // A database of its own: on a shared one, this instance would take other suites' messages (and
  // retry them an hour later), and theirs could take this suite's, changing its counts of attempts.
  storage = await ownStorage('player_webhooks');
  // Retries an hour apart: a message refused once waits, unless redelivered.
  t = await startApp({ ...storage.settings, webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }], webhookPollMs: 50, webhookRetryBaseMs: 3_600_000, webhookRetryMaxMs: 3_600_000 });
});
afterAll(async () => {
  await t?.close();
  await receiver?.stop();
  await storage?.drop();
});
beforeEach(() => {
  receiver.status = 200;
});

async function data(query: string, variables: Record<string, unknown>, key?: string): Promise<any> {
  const res = await t.gql(query, variables, key);
  expect(res.errors).toBeUndefined();
  return res.data;
}

async function newPlayer(name: string, scopes?: string[], key?: string): Promise<{ id: string; key: string; keyId: string }> {
  const { createPlayer } = await data(
    'mutation($name: String!, $scopes: [Scope!], $externalId: String) { createPlayer(name: $name, scopes: $scopes, externalId: $externalId) { __typename ... on PlayerCreated { player { id } key { id secret } } ... on Rejection { code message } } }',
    { name, scopes, externalId: key ? `ext-${name}` : undefined },
    key,
  );
  return { id: createPlayer.player.id, key: createPlayer.key.secret, keyId: createPlayer.key.id };
}

/** A duel (a test-only game: 3 cards each, in turn) with both seats bound to players and a Fischer clock. */
async function duel(players: string[]): Promise<string> {
  const input = { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, seats: players.map((player) => ({ player })), timeControl: { kind: 'FISCHER', baseSeconds: 600 } };
  const created = (await data(CREATE, { input })).createGame;
  expect(created.__typename).toBe('GameCreated');
  return created.game.id;
}

/** Plays the first legal action of the seat to act, with that seat's player's key. */
async function playOnce(gameId: string, keys: string[]): Promise<void> {
  const game = (await data(LEGAL, { id: gameId }, keys[0])).game;
  const key = keys[game.toAct[0]];
  const legal = (await data(LEGAL, { id: gameId }, key)).game.legalActions;
  const res = await data(ACT, { gameId, moveId: `m${game.version}`, action: legal[0], expectedVersion: game.version }, key);
  expect(res.submitAction.__typename).toBe('MoveAccepted');
}

/** Whether a request was signed with `secret` (another registration's are not). */
const signedWith = (secret: string) => (r: Received) => {
  try {
    WebhookReceiver.verify(r, secret);
    return true;
  } catch {
    return false;
  }
};

describe("a player's webhook", () => {
  it("covers every game where the player holds a seat, later ones too, and tells each notice for the player's seat once", async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const registered = (await data(REGISTER, { input: { url: receiver.url, events: ['GAME_STARTED', 'YOUR_TURN', 'GAME_OVER', 'PAUSE_REQUESTED', 'TIME_GIVEN'] } }, ada.key)).registerWebhook;
    expect(registered.webhook).toEqual({ playerId: ada.id, gameId: null, tournamentId: null, seat: null, participantId: null });
    const mine = signedWith(registered.secret);

    // Created after the registration, with Ada at seat 0 (to act first): started, and her turn with its clock.
    const first = await duel([ada.id, bob.id]);
    const ofFirst = () => receiver.delivered().filter((r) => mine(r) && WebhookReceiver.body(r).data.gameId === first);
    await receiver.until(() => ofFirst().length === 2);
    const [started, turn] = ofFirst().map((r) => WebhookReceiver.verify(r, registered.secret));
    expect(started).toMatchObject({ type: 'game.started', data: { gameId: first, kind: 'duel', mySeat: 0, seat: 0 } });
    expect(turn).toMatchObject({ type: 'game.your_turn', data: { gameId: first, seat: 0, mySeat: 0, remainingMs: 600_000, game: { mySeat: 0 } } });
    expect(Date.parse(turn.data.deadline as string) - Date.parse(turn.timestamp)).toBe(600_000);

    // Ada plays: Bob's turn tells Ada nothing; Bob asks to pause (Ada is asked) and gives Ada time.
    await playOnce(first, [ada.key, bob.key]);
    expect((await data(PAUSE, { gameId: first }, bob.key)).pauseClock.__typename).toBe('MoveAccepted');
    expect((await data(ADD_TIME, { gameId: first, seat: 0, seconds: 60 }, bob.key)).addTime.__typename).toBe('MoveAccepted');
    await receiver.until(() => ofFirst().length === 4);
    expect(ofFirst().map((r) => WebhookReceiver.verify(r, registered.secret).type)).toEqual(['game.started', 'game.your_turn', 'game.pause_requested', 'game.time_given']);
    // As the TypeScript client types it: its type names its data's shape.
    const given = verifyWebhook(registered.secret, ofFirst()[3].body, ofFirst()[3].headers);
    if (given.type !== 'game.time_given') throw new Error(`not time given: ${given.type}`);
    expect(given.data).toMatchObject({ seat: 0, mySeat: 0, ms: 60_000, bySeat: 1 });

    // A second game, Ada at seat 1: started only (Bob acts first), then over when it ends.
    const second = await duel([bob.id, ada.id]);
    const ofSecond = () => receiver.delivered().filter((r) => mine(r) && WebhookReceiver.body(r).data.gameId === second);
    await receiver.until(() => ofSecond().length === 1);
    expect(WebhookReceiver.verify(ofSecond()[0], registered.secret)).toMatchObject({ type: 'game.started', data: { mySeat: 1 } });
    for (let i = 0; i < 6; i++) await playOnce(second, [bob.key, ada.key]);
    await receiver.until(() => ofSecond().some((r) => WebhookReceiver.body(r).type === 'game.over'));
    const types = ofSecond().map((r) => WebhookReceiver.verify(r, registered.secret).type);
    expect(types).toEqual(['game.started', 'game.your_turn', 'game.your_turn', 'game.your_turn', 'game.over']);
    expect(WebhookReceiver.verify(ofSecond().at(-1)!, registered.secret).data).toMatchObject({ reason: 'by_rule', result: { summary: expect.any(String) } });
    // Each message came once: all were answered 200 the first time.
    const ids = receiver.received.filter(mine).map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("is the player's: managed with any of its keys (a rotated one too) or its app's, by nobody else; refusals are typed and change nothing", async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const hook = (await data(REGISTER, { input: { url: receiver.url, events: ['YOUR_TURN'] } }, ada.key)).registerWebhook;
    // Ada's key rotated: the registration is still hers.
    const rotated = (await data('mutation($keyId: ID!) { rotateKey(keyId: $keyId) { __typename ... on IssuedKey { secret } ... on Rejection { code message } } }', { keyId: ada.keyId }, ada.key))
      .rotateKey.secret as string;
    expect((await data(ROTATE_SECRET, { id: hook.id }, rotated)).rotateWebhookSecret.secret).toMatch(/^whsec_/);
    expect((await data(ROTATE_SECRET, { id: hook.id }, bob.key)).rotateWebhookSecret).toEqual({ code: 'UNAUTHORIZED' });
    expect((await data(DELETE, { id: hook.id }, bob.key)).deleteWebhook).toEqual({ __typename: 'Rejection', code: 'UNAUTHORIZED' });

    // An app registers for a player it created, not for another's.
    const app = (await data('mutation { createApp(name: "Club") { __typename ... on AppCreated { key { secret } } ... on Rejection { code message } } }', {})).createApp.key.secret as string;
    const cy = await newPlayer('Cy', undefined, app);
    const forCy = (await data(REGISTER, { input: { url: receiver.url, events: ['GAME_OVER'], playerId: cy.id } }, app)).registerWebhook;
    expect(forCy.webhook.playerId).toBe(cy.id);
    expect((await data(DELETE, { id: forCy.id }, cy.key)).deleteWebhook.__typename).toBe('WebhookDeleted');
    const refusal = async (input: Record<string, unknown>, key?: string) => (await data(REGISTER, { input: { url: receiver.url, events: ['YOUR_TURN'], ...input } }, key)).registerWebhook;
    expect(await refusal({ playerId: ada.id }, app)).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal({}, app)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await refusal({ playerId: bob.id }, rotated)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await refusal({ gameId: await duel([ada.id, bob.id]) }, rotated)).toMatchObject({ code: 'INVALID_INPUT' });
    const reader = await newPlayer('Dee', ['READ']);
    const scoped = await t.gql(REGISTER, { input: { url: receiver.url, events: ['YOUR_TURN'] } }, reader.key);
    expect(scoped.errors?.[0]?.extensions?.code ?? scoped.data?.registerWebhook?.code).toBe('SCOPE_MISSING');
    const still = await data('query($id: ID!) { webhook(id: $id) { id playerId } }', { id: hook.id }, rotated);
    expect(still.webhook).toEqual({ id: hook.id, playerId: ada.id });
  });

  it("tells a player of its challenges: received, accepted (with the game), declined, cancelled; only a player's registration may ask", async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const hook = (await data(REGISTER, { input: { url: receiver.url, events: ['CHALLENGE_RECEIVED', 'CHALLENGE_ACCEPTED', 'CHALLENGE_DECLINED', 'CHALLENGE_CANCELLED'] } }, ada.key)).registerWebhook;
    const issue = async (key: string, to: string) => (await data(CHALLENGE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, to } }, key)).issueChallenge.id as string;
    const received = await issue(bob.key, ada.id);
    await data('mutation($id: ID!) { declineChallenge(id: $id, reason: "busy") { __typename } }', { id: received }, ada.key);
    const accepted = await issue(ada.key, bob.id);
    const game = (await data('mutation($id: ID!) { acceptChallenge(id: $id) { ... on ChallengeAccepted { game { id } } } }', { id: accepted }, bob.key)).acceptChallenge.game.id;
    const cancelled = await issue(bob.key, ada.id);
    await data('mutation($id: ID!) { cancelChallenge(id: $id) { __typename } }', { id: cancelled }, bob.key);

    const mine = signedWith(hook.secret);
    await receiver.until(() => receiver.delivered().filter(mine).length === 4);
    const told = receiver
      .delivered()
      .filter(mine)
      .map((r) => WebhookReceiver.verify(r, hook.secret));
    // Each challenge's messages in order; across challenges, in any.
    expect(told.map((m) => [m.type, m.data.challengeId]).sort()).toEqual(
      [
        ['challenge.received', received],
        ['challenge.received', cancelled],
        ['challenge.accepted', accepted],
        ['challenge.cancelled', cancelled],
      ].sort(),
    );
    expect(told.find((m) => m.type === 'challenge.accepted')!.data).toMatchObject({ challengeId: accepted, gameId: game, by: { id: bob.id, name: 'Bob' } });
    expect(told.some((m) => m.type === 'challenge.declined')).toBe(false);

    // A game's registration may not ask for a player's challenges.
    const seat = (await data(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, seats: [{ name: 'a' }, { name: 'b' }] } })).createGame.tokens[0].token;
    expect((await data(REGISTER, { input: { url: receiver.url, events: ['CHALLENGE_RECEIVED'] } }, seat)).registerWebhook).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('sends a message again at once on request: one waiting an hour for its next attempt, and one delivered already, with the same webhook-id', async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const hook = (await data(REGISTER, { input: { url: receiver.url, events: ['GAME_STARTED'] } }, ada.key)).registerWebhook;
    receiver.status = 503;
    const gameId = await duel([ada.id, bob.id]);
    const refused = () => receiver.received.filter((r) => r.status === 503 && WebhookReceiver.body(r).data.gameId === gameId);
    await receiver.until(() => refused().length === 1);
    const [{ node: waiting }] = (await data(DELIVERIES, { id: hook.id }, ada.key)).webhookDeliveries.edges;
    // Its next attempt is a random wait of up to an hour away (full jitter): the redelivery does not wait for it.
    expect(waiting).toMatchObject({ type: 'game.started', attempts: 1, deliveredAt: null, nextAttemptAt: expect.any(String) });

    receiver.status = 200;
    const again = (await data(REDELIVER, { id: hook.id, messageId: waiting.messageId }, ada.key)).redeliverWebhookMessage;
    expect(again).toMatchObject({ messageId: waiting.messageId, deliveredAt: null, givenUpAt: null });
    const arrivals = () => receiver.delivered().filter((r) => r.id === waiting.messageId);
    await receiver.until(() => arrivals().length === 1);
    expect(WebhookReceiver.verify(arrivals()[0], hook.secret).type).toBe('game.started');

    // Delivered, and sent again on request: the same id (a receiver deduplicates by it).
    const sent = receiver.received.filter((r) => r.id === waiting.messageId).length;
    await data(REDELIVER, { id: hook.id, messageId: waiting.messageId }, ada.key);
    await receiver.until(() => receiver.received.filter((r) => r.id === waiting.messageId).length === sent + 1);

    expect((await data(REDELIVER, { id: hook.id, messageId: `msg_${'0'.repeat(32)}` }, ada.key)).redeliverWebhookMessage).toMatchObject({ code: 'NOT_FOUND' });
    expect((await data(REDELIVER, { id: hook.id, messageId: waiting.messageId }, bob.key)).redeliverWebhookMessage).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
