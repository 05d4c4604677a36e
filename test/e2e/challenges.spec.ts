import request from 'supertest';
import { ChallengeService } from '../../src/referee/application/challenges.js';
import { PlayerFeedStore } from '../../src/referee/store/player-feed-store.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import type { TestApp } from '../support/app.js';

/**
 * Challenges between players (issue 25): players made with createPlayer challenge each other,
 * accept, decline, cancel; an accepted challenge's game has both seats bound (each inbox lists
 * it); every refusal changes nothing; of two acceptances of one open challenge one wins; an
 * acceptance whose game a stopped process never created gets it. On PGlite, or on PostgreSQL
 * with TEST_DATABASE_URL.
 */
let t: TestApp;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startAppWithClock(clock);
});
afterAll(async () => {
  await t?.close();
});

const CHALLENGE = 'id status kind ruleset seat challengerMessage expiresAt gameId challengerSeat reason challenger { id name } challenged { id name } acceptedBy { id }';
const ISSUE = `mutation($input: IssueChallengeInput!) { issueChallenge(input: $input) { __typename ... on Challenge { ${CHALLENGE} } ... on Rejection { code message } } }`;
const ACCEPT = `mutation($id: ID!) { acceptChallenge(id: $id) { __typename
  ... on ChallengeAccepted { challenge { ${CHALLENGE} } game { id status seats { index name player } } }
  ... on Rejection { code message } } }`;
const DECLINE = `mutation($id: ID!, $reason: String) { declineChallenge(id: $id, reason: $reason) { __typename ... on Challenge { ${CHALLENGE} } ... on Rejection { code message } } }`;
const CANCEL = `mutation($id: ID!) { cancelChallenge(id: $id) { __typename ... on Challenge { ${CHALLENGE} } ... on Rejection { code message } } }`;
const ONE = `query($id: ID!) { challenge(id: $id) { ${CHALLENGE} } }`;
const LISTS = `query($status: ChallengeStatus) {
  incomingChallenges(status: $status) { nodes { id status } pageInfo { hasNextPage } }
  outgoingChallenges(status: $status) { nodes { id status } }
}`;
const OPEN = `query($first: Int, $after: String) { openChallenges(first: $first, after: $after) { edges { cursor node { id status } } pageInfo { hasNextPage endCursor } } }`;
const MY_GAMES = '{ myGames { edges { seat node { id } } } }';
const CREATE_PLAYER = `mutation($name: String!, $scopes: [Scope!]) { createPlayer(name: $name, scopes: $scopes) { __typename ... on PlayerCreated { player { id } key { secret } } ... on Rejection { code message } } }`;

const ruleset = { cards: 10, handSize: 3 };

async function newPlayer(name: string, scopes?: string[]): Promise<{ id: string; key: string }> {
  const res = await t.gql(CREATE_PLAYER, { name, scopes });
  expect(res.errors).toBeUndefined();
  return { id: res.data.createPlayer.player.id, key: res.data.createPlayer.key.secret };
}

/** A mutation's answer (its union member), or the request's error code. */
async function call(query: string, variables: Record<string, unknown>, key?: string): Promise<any> {
  const res = await t.gql(query, variables, key);
  if (res.errors) return { code: res.errors[0].extensions?.code, message: res.errors[0].message };
  return Object.values(res.data)[0];
}

const issue = (key: string, input: Record<string, unknown>) => call(ISSUE, { input: { kind: 'duel', ruleset, ...input } }, key);
const read = async (id: string, key: string) => (await t.gql(ONE, { id }, key)).data.challenge;

describe('a challenge between two players', () => {
  it('is issued, listed as incoming and outgoing, and accepted: the game has both seats bound, and each inbox lists it', async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const issued = await issue(ada.key, { to: bob.id, seat: 'SECOND', message: 'A game?', timeControl: { kind: 'FISCHER', baseSeconds: 600, incrementSeconds: 5 } });
    expect(issued).toMatchObject({
      __typename: 'Challenge',
      status: 'OPEN',
      seat: 'SECOND',
      challengerMessage: 'A game?',
      challenger: { id: ada.id, name: 'Ada' },
      challenged: { id: bob.id, name: 'Bob' },
    });
    expect(Date.parse(issued.expiresAt) - clock.now().getTime()).toBe(7 * 86_400_000);
    expect((await t.gql(LISTS, {}, bob.key)).data.incomingChallenges.nodes).toEqual([{ id: issued.id, status: 'OPEN' }]);
    expect((await t.gql(LISTS, {}, ada.key)).data.outgoingChallenges.nodes).toEqual([{ id: issued.id, status: 'OPEN' }]);

    const accepted = await call(ACCEPT, { id: issued.id }, bob.key);
    expect(accepted.__typename).toBe('ChallengeAccepted');
    expect(accepted.challenge).toMatchObject({ status: 'ACCEPTED', gameId: accepted.game.id, challengerSeat: 1, acceptedBy: { id: bob.id } });
    expect(accepted.game).toEqual({
      id: accepted.game.id,
      status: 'ACTIVE',
      seats: [
        { index: 0, name: 'Bob', player: bob.id },
        { index: 1, name: 'Ada', player: ada.id },
      ],
    });
    for (const [p, seat] of [
      [ada, 1],
      [bob, 0],
    ] as const)
      expect((await t.gql(MY_GAMES, {}, p.key)).data.myGames.edges).toEqual([{ seat, node: { id: accepted.game.id } }]);
    // The acceptor's retry answers the same game; nothing more is stored.
    const again = await call(ACCEPT, { id: issued.id }, bob.key);
    expect(again.game.id).toBe(accepted.game.id);
    expect((await t.gql(LISTS, { status: 'ACCEPTED' }, bob.key)).data.incomingChallenges.nodes).toEqual([{ id: issued.id, status: 'ACCEPTED' }]);
  });

  it("refuses, changing nothing: a challenge to oneself or to nobody, a bad ruleset, one's own acceptance, another player's answer or cancel", async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const cy = await newPlayer('Cy');
    expect(await issue(ada.key, { to: ada.id })).toMatchObject({ code: 'OWN_CHALLENGE' });
    expect(await issue(ada.key, { to: 'pl-nobody' })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await issue(ada.key, { to: bob.id, ruleset: { cards: 1 } })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await issue(ada.key, { to: bob.id, kind: 'chess' })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await issue(ada.key, { to: bob.id, timeControl: { kind: 'FISCHER' } })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await issue(ada.key, { to: bob.id, message: 'x'.repeat(501) })).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await t.gql(LISTS, {}, bob.key)).data.incomingChallenges.nodes).toEqual([]);

    const { id } = await issue(ada.key, { to: bob.id });
    expect(await call(ACCEPT, { id }, ada.key)).toMatchObject({ code: 'OWN_CHALLENGE' });
    expect(await call(ACCEPT, { id }, cy.key)).toMatchObject({ code: 'NOT_YOUR_CHALLENGE' });
    expect(await call(DECLINE, { id }, cy.key)).toMatchObject({ code: 'NOT_YOUR_CHALLENGE' });
    expect(await call(CANCEL, { id }, bob.key)).toMatchObject({ code: 'NOT_YOUR_CHALLENGE' });
    expect(await call(ACCEPT, { id: 'ch-nothing' }, bob.key)).toMatchObject({ code: 'NOT_FOUND' });
    // An app's key is no player: challenges need one.
    const app = (await t.gql('mutation { createApp(name: "Club") { __typename ... on AppCreated { key { secret } } ... on Rejection { code message } } }')).data.createApp.key.secret;
    expect(await issue(app, { to: bob.id })).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await read(id, bob.key)).toMatchObject({ status: 'OPEN', acceptedBy: null, gameId: null });
    // Nobody else reads a challenge between two players.
    expect((await t.gql(ONE, { id }, cy.key)).errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('needs a key with scope play to issue or answer, read to list', async () => {
    const bob = await newPlayer('Bob');
    const reader = await newPlayer('Reader', ['READ']);
    expect(await issue(reader.key, { to: bob.id })).toMatchObject({ code: 'SCOPE_MISSING' });
    expect((await t.gql(LISTS, {}, reader.key)).errors).toBeUndefined();
  });

  it('is declined with a reason, or cancelled by its challenger; then nothing more can be done with it', async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const declined = await issue(ada.key, { to: bob.id });
    expect(await call(DECLINE, { id: declined.id, reason: 'Busy this week' }, bob.key)).toMatchObject({ status: 'DECLINED', reason: 'Busy this week' });
    expect(await read(declined.id, ada.key)).toMatchObject({ status: 'DECLINED', reason: 'Busy this week' });
    expect(await call(ACCEPT, { id: declined.id }, bob.key)).toMatchObject({ code: 'CHALLENGE_CLOSED' });
    expect(await call(CANCEL, { id: declined.id }, ada.key)).toMatchObject({ code: 'CHALLENGE_CLOSED' });

    const cancelled = await issue(ada.key, { to: bob.id });
    expect(await call(CANCEL, { id: cancelled.id }, ada.key)).toMatchObject({ status: 'CANCELLED' });
    expect(await call(ACCEPT, { id: cancelled.id }, bob.key)).toMatchObject({ code: 'CHALLENGE_CLOSED' });
    expect(await call(DECLINE, { id: cancelled.id }, bob.key)).toMatchObject({ code: 'CHALLENGE_CLOSED' });
    expect((await t.gql(LISTS, { status: 'OPEN' }, bob.key)).data.incomingChallenges.nodes).toEqual([]);
    expect((await t.gql(MY_GAMES, {}, bob.key)).data.myGames.edges).toEqual([]);
  });

  it('expires: past expiresAt it reads EXPIRED, and accepting, declining or cancelling it is refused with CHALLENGE_EXPIRED', async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const { id } = await issue(ada.key, { to: bob.id, expiresInSeconds: 60 });
    expect(await issue(ada.key, { to: bob.id, expiresInSeconds: 59 })).toMatchObject({ code: 'INVALID_INPUT' });
    clock.advance(60_000);
    expect(await read(id, bob.key)).toMatchObject({ status: 'EXPIRED' });
    expect(await call(ACCEPT, { id }, bob.key)).toMatchObject({ code: 'CHALLENGE_EXPIRED' });
    expect(await call(DECLINE, { id }, bob.key)).toMatchObject({ code: 'CHALLENGE_EXPIRED' });
    expect(await call(CANCEL, { id }, ada.key)).toMatchObject({ code: 'CHALLENGE_EXPIRED' });
    expect((await t.gql(LISTS, { status: 'EXPIRED' }, bob.key)).data.incomingChallenges.nodes).toEqual([{ id, status: 'EXPIRED' }]);
    expect((await t.gql(LISTS, { status: 'OPEN' }, bob.key)).data.incomingChallenges.nodes).toEqual([]);
  });
});

describe('an open challenge', () => {
  it('is listed for anyone, and of two players accepting it at once one gets the game, the other CHALLENGE_CLOSED', async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const cy = await newPlayer('Cy');
    const open = await issue(ada.key, { seat: 'RANDOM' });
    expect(open).toMatchObject({ status: 'OPEN', challenged: null });
    const listed = (await t.gql(OPEN, { first: 100 }, cy.key)).data.openChallenges.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(listed).toContain(open.id);
    expect(await call(DECLINE, { id: open.id }, bob.key)).toMatchObject({ code: 'NOT_YOUR_CHALLENGE' });

    const answers = await Promise.all([call(ACCEPT, { id: open.id }, bob.key), call(ACCEPT, { id: open.id }, cy.key)]);
    const won = answers.filter((a) => a.__typename === 'ChallengeAccepted');
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.__typename === 'Rejection').map((a) => a.code)).toEqual(['CHALLENGE_CLOSED']);
    const winner = won[0].challenge.acceptedBy.id === bob.id ? bob : cy;
    const loser = winner === bob ? cy : bob;
    expect(won[0].game.seats.map((s: { player: string }) => s.player).sort()).toEqual([ada.id, winner.id].sort());
    expect((await t.gql(MY_GAMES, {}, loser.key)).data.myGames.edges).toEqual([]);
    expect((await t.gql(MY_GAMES, {}, ada.key)).data.myGames.edges).toEqual([expect.objectContaining({ node: { id: won[0].game.id } })]);
    expect((await t.gql(OPEN, { first: 100 }, cy.key)).data.openChallenges.edges.map((e: { node: { id: string } }) => e.node.id)).not.toContain(open.id);
  });
});

describe('an acceptance whose game was not created', () => {
  it('gets its game from the acceptor’s retry, and from the catch-up at start-up', async () => {
    const referee = t.app.get(RefereeService);
    const createGame = referee.createGame;
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { id } = await issue(ada.key, { to: bob.id });
      ids.push(id);
      // The process "stops" between the acceptance and the game.
      referee.createGame = async () => {
        throw new Error('stopped');
      };
      try {
        expect((await t.gql(ACCEPT, { id }, bob.key)).errors[0].extensions.code).toBe('INTERNAL');
      } finally {
        referee.createGame = createGame;
      }
      const accepted = await read(id, ada.key);
      expect(accepted).toMatchObject({ status: 'ACCEPTED', gameId: expect.any(String) });
      expect((await t.gql('query($id: ID!) { game(id: $id) { id } }', { id: accepted.gameId })).errors[0].extensions.code).toBe('NOT_FOUND');
    }
    const retried = await call(ACCEPT, { id: ids[0] }, bob.key);
    expect(retried.game).toMatchObject({ id: (await read(ids[0], ada.key)).gameId, status: 'ACTIVE' });
    await t.app.get(ChallengeService).catchUp();
    const caught = await read(ids[1], ada.key);
    const game = (await t.gql('query($id: ID!) { game(id: $id) { id seats { player } } }', { id: caught.gameId })).data.game;
    expect(game.seats.map((s: { player: string }) => s.player).sort()).toEqual([ada.id, bob.id].sort());
  });
});

describe('challenges over REST', () => {
  it('issues, lists, accepts, declines and cancels as GraphQL does, refusals as JSON errors', async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const http = () => request(t.app.getHttpServer());
    const as = (key: string) => ({ authorization: `Bearer ${key}` });
    const issued = await http()
      .post('/api/challenges')
      .set(as(ada.key))
      .send({ to: bob.id, kind: 'duel', ruleset, seat: 'FIRST', timeControl: { kind: 'correspondence', perMoveSeconds: 86_400 } })
      .expect(201);
    expect(issued.body).toMatchObject({ id: expect.stringMatching(/^ch-/), status: 'OPEN', seat: 'FIRST', timeControl: { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400 } });
    const incoming = await http().get('/api/challenges?list=incoming').set(as(bob.key)).expect(200);
    expect(incoming.body.challenges.map((c: { id: string }) => c.id)).toEqual([issued.body.id]);
    expect((await http().post(`/api/challenges/${issued.body.id}/accept`).set(as(ada.key)).expect(422)).body.error.code).toBe('OWN_CHALLENGE');
    const accepted = await http().post(`/api/challenges/${issued.body.id}/accept`).set(as(bob.key)).expect(200);
    expect(accepted.body).toMatchObject({ status: 'ACCEPTED', challengerSeat: 0, gameId: expect.any(String) });
    expect((await http().get(`/api/games/${accepted.body.gameId}`).expect(200)).body.status).toBe('ACTIVE');
    expect((await http().post(`/api/challenges/${issued.body.id}/decline`).set(as(bob.key)).send({}).expect(409)).body.error.code).toBe('CHALLENGE_CLOSED');

    const second = await http().post('/api/challenges').set(as(ada.key)).send({ to: bob.id, kind: 'duel' }).expect(201);
    expect((await http().post(`/api/challenges/${second.body.id}/decline`).set(as(bob.key)).send({ reason: 'No' }).expect(200)).body).toMatchObject({ status: 'DECLINED', reason: 'No' });
    const third = await http().post('/api/challenges').set(as(ada.key)).send({ to: bob.id, kind: 'duel' }).expect(201);
    expect((await http().post(`/api/challenges/${third.body.id}/cancel`).set(as(bob.key)).expect(403)).body.error.code).toBe('NOT_YOUR_CHALLENGE');
    expect((await http().post(`/api/challenges/${third.body.id}/cancel`).set(as(ada.key)).expect(200)).body.status).toBe('CANCELLED');
    expect((await http().post('/api/challenges').set(as(ada.key)).send({ to: ada.id, kind: 'duel' }).expect(422)).body.error.code).toBe('OWN_CHALLENGE');
  });
});

describe("the players' notices", () => {
  it('tell the player challenged of a challenge and its cancellation, the challenger of its acceptance and decline; an open challenge tells nobody', async () => {
    const feed = t.app.get(PlayerFeedStore);
    const notices = async (playerId: string) => (await feed.after(playerId, null, 100)).items.filter((i) => i.type.startsWith('challenge.')).map((i) => ({ type: i.type, ...i.data }));
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    const accepted = await issue(ada.key, { to: bob.id, message: 'A game?' });
    const game = (await call(ACCEPT, { id: accepted.id }, bob.key)).game;
    const declined = await issue(ada.key, { to: bob.id });
    await call(DECLINE, { id: declined.id, reason: 'Busy' }, bob.key);
    const cancelled = await issue(ada.key, { to: bob.id });
    await call(CANCEL, { id: cancelled.id }, ada.key);
    await issue(ada.key, {});
    // Refusals tell nobody.
    await call(CANCEL, { id: cancelled.id }, ada.key);
    const byAda = { id: ada.id, name: 'Ada' };
    const byBob = { id: bob.id, name: 'Bob' };
    expect(await notices(bob.id)).toEqual([
      { type: 'challenge.received', challengeId: accepted.id, kind: 'duel', by: byAda, message: 'A game?', expiresAt: accepted.expiresAt },
      { type: 'challenge.received', challengeId: declined.id, kind: 'duel', by: byAda, message: null, expiresAt: declined.expiresAt },
      { type: 'challenge.received', challengeId: cancelled.id, kind: 'duel', by: byAda, message: null, expiresAt: cancelled.expiresAt },
      { type: 'challenge.cancelled', challengeId: cancelled.id, kind: 'duel', by: byAda },
    ]);
    expect(await notices(ada.id)).toEqual([
      { type: 'challenge.accepted', challengeId: accepted.id, kind: 'duel', by: byBob, gameId: game.id },
      { type: 'challenge.declined', challengeId: declined.id, kind: 'duel', by: byBob, reason: 'Busy' },
    ]);
  });
});
