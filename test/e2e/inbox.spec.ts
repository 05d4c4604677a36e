import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { KeyDirectory, type KeyHolder, type KeyScope, type PlayerCard } from '../../src/referee/application/key-holders.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { startApp, type TestApp } from '../support/app.js';
import { duelEngine } from '../support/duel-engine.js';
import { ACT, CREATE, EVENTS } from '../support/queries.js';

/**
 * Seats bound to players and the players' inbox (issue 25): two players play a game with their
 * keys; the inbox lists it for the one to act and not for the other, and follows every move.
 * The games are of a kind registered for this run, the players are new: a shared PostgreSQL's
 * other games are not in the way.
 */
let t: TestApp;
const kind = `inbox-${randomBytes(6).toString('hex')}`;
const players = new Map<string, { card: PlayerCard; scopes: KeyScope[] }>();

/** A player and its key, as the players module would give them. */
function newPlayer(name: string, scopes: KeyScope[] = ['read', 'play']): { id: string; key: string } {
  const id = `pl-${randomBytes(6).toString('hex')}`;
  const key = `arbk_${randomBytes(32).toString('base64url')}`;
  players.set(key, { card: { id, name, appId: null }, scopes });
  return { id, key };
}

/** The directory of the keys made here (the players module's stands in once it is there). */
const keys: Pick<KeyDirectory, 'holder' | 'player'> = {
  async holder(token: string): Promise<KeyHolder | null> {
    const p = players.get(token);
    return p ? { owner: 'player', ownerId: p.card.id, keyId: `k-${p.card.id}`, scopes: p.scopes } : null;
  },
  async player(id: string): Promise<PlayerCard | null> {
    return [...players.values()].find((p) => p.card.id === id)?.card ?? null;
  },
};

const MY_GAMES = `query($toAct: Boolean, $status: GameStatus, $kind: String, $first: Int, $after: String) {
  myGames(toAct: $toAct, status: $status, kind: $kind, first: $first, after: $after) {
    edges { cursor seat toAct deadline node { id status } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const JOIN = `mutation($gameId: ID!, $input: JoinGameInput) {
  joinGame(gameId: $gameId, input: $input) { __typename ... on SeatJoined { seat token game { seats { index taken player } } } ... on Rejection { code message } }
}`;
const GAME = `query($id: ID!) { game(id: $id) { id status toAct legalActions mySeat seats { index name taken player } } }`;

const codes = (res: { errors?: { extensions?: { code?: string } }[] }) => (res.errors ?? []).map((e) => e.extensions?.code);
/** A move's refusal: its Rejection, or the request's error when the key itself is refused before the move (an unknown key, a missing scope). */
const refusal = (res: { data?: { submitAction?: { code?: string } } | null; errors?: { extensions?: { code?: string } }[] }) => res.data?.submitAction?.code ?? codes(res)[0];

async function inbox(key: string, args: Record<string, unknown> = {}) {
  const res = await t.gql(MY_GAMES, args, key);
  expect(res.errors).toBeUndefined();
  return res.data.myGames as {
    edges: { cursor: string; seat: number; toAct: boolean; deadline: string | null; node: { id: string; status: string } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}
const ids = async (key: string, args: Record<string, unknown> = {}) => (await inbox(key, args)).edges.map((e) => e.node.id);

async function create(seats: unknown[], extra: Record<string, unknown> = {}) {
  const res = await t.gql(CREATE, { input: { kind, ruleset: { cards: 10, handSize: 3 }, seats, ...extra } });
  expect(res.errors).toBeUndefined();
  return res.data.createGame;
}

/** The player to act plays its lowest card with its key. */
async function play(gameId: string, key: string) {
  const game = (await t.gql(GAME, { id: gameId }, key)).data.game;
  const res = await t.gql(ACT, { gameId, moveId: randomBytes(6).toString('hex'), action: game.legalActions[0] }, key);
  expect(res.data.submitAction.__typename).toBe('MoveAccepted');
}

beforeAll(async () => {
  t = await startApp();
  t.app.get(EngineRegistry).register({ ...duelEngine, kind });
  Object.assign(t.app.get(KeyDirectory), keys);
});
afterAll(async () => {
  await t?.close();
});

describe('two players play a game with their keys', () => {
  const ann = newPlayer('Ann');
  const bob = newPlayer('Bob');
  let gameId = '';

  it('binds the seats at creation: no seat token for them, and the events name the players', async () => {
    const created = await create([
      { name: 'Ann', player: ann.id },
      { name: 'Bob', player: bob.id },
    ]);
    expect(created.__typename).toBe('GameCreated');
    expect(created.tokens).toEqual([]);
    gameId = created.game.id;
    const game = (await t.gql(GAME, { id: gameId }, ann.key)).data.game;
    expect(game.seats).toEqual([
      { index: 0, name: 'Ann', taken: true, player: ann.id },
      { index: 1, name: 'Bob', taken: true, player: bob.id },
    ]);
    expect(game.mySeat).toBe(0);
    const [first] = (await t.gql(EVENTS, { gameId })).data.gameEvents.nodes;
    expect(first.payload.seats).toEqual([
      { name: 'Ann', player: ann.id },
      { name: 'Bob', player: bob.id },
    ]);
  });

  it('lists the game for the player to act, not for the other, and moves it across after each move', async () => {
    for (let move = 0; move < 4; move++) {
      const game = (await t.gql(GAME, { id: gameId })).data.game;
      const [toAct, waiting] = game.toAct[0] === 0 ? [ann, bob] : [bob, ann];
      expect(await ids(toAct.key, { toAct: true })).toEqual([gameId]);
      expect(await ids(waiting.key, { toAct: true })).toEqual([]);
      expect(await ids(waiting.key, { toAct: false })).toEqual([gameId]);
      expect((await inbox(waiting.key)).edges).toEqual([expect.objectContaining({ seat: game.toAct[0] === 0 ? 1 : 0, toAct: false, node: { id: gameId, status: 'ACTIVE' } })]);
      await play(gameId, toAct.key);
    }
  });

  it('refuses a key acting for the other seat, and a key of a player without a seat here', async () => {
    const game = (await t.gql(GAME, { id: gameId })).data.game;
    const waiting = game.toAct[0] === 0 ? bob : ann;
    const res = await t.gql(ACT, { gameId, moveId: 'm-other', action: { type: 'play', card: 0 } }, waiting.key);
    expect(res.data.submitAction.code).toBe('NOT_YOUR_TURN');
    const stranger = newPlayer('Cy');
    expect((await t.gql(ACT, { gameId, moveId: 'm-stranger', action: { type: 'play', card: 0 } }, stranger.key)).data.submitAction.code).toBe('UNAUTHORIZED');
    expect(refusal(await t.gql(ACT, { gameId, moveId: 'm-unknown', action: { type: 'play', card: 0 } }, `arbk_${randomBytes(32).toString('base64url')}`))).toBe('UNAUTHORIZED');
    const readOnly = newPlayer('Dee', ['read']);
    const own = await create([{ player: readOnly.id }, { player: stranger.id }]);
    expect(refusal(await t.gql(ACT, { gameId: own.game.id, moveId: 'm-scope', action: { type: 'play', card: 0 } }, readOnly.key))).toBe('SCOPE_MISSING');
  });

  it("finishes: the game leaves the players' to-act lists and is FINISHED in both", async () => {
    for (let i = 0; i < 20; i++) {
      const game = (await t.gql(GAME, { id: gameId })).data.game;
      if (game.status === 'FINISHED') break;
      await play(gameId, game.toAct[0] === 0 ? ann.key : bob.key);
    }
    for (const p of [ann, bob]) {
      expect(await ids(p.key, { toAct: true })).toEqual([]);
      expect(await ids(p.key, { status: 'FINISHED' })).toEqual([gameId]);
      expect(await ids(p.key, { status: 'ACTIVE' })).toEqual([]);
    }
  });
});

describe('joining with a player key', () => {
  it('binds the open seat to the player, whose key then acts as it; anonymous tokens keep working', async () => {
    const eve = newPlayer('Eve');
    const created = await create([{ name: 'anon' }, { open: true }]);
    const gameId = created.game.id;
    const joined = (await t.gql(JOIN, { gameId, input: { name: 'Eve' } }, eve.key)).data.joinGame;
    expect(joined).toMatchObject({
      __typename: 'SeatJoined',
      seat: 1,
      game: {
        seats: [
          { index: 0, taken: true, player: null },
          { index: 1, taken: true, player: eve.id },
        ],
      },
    });
    const events = (await t.gql(EVENTS, { gameId })).data.gameEvents.nodes as { type: string; payload: Record<string, unknown> }[];
    expect(events.find((e) => e.type === 'SeatJoined')?.payload).toEqual({ seat: 1, name: 'Eve', player: eve.id });
    expect(await ids(eve.key)).toEqual([gameId]);
    // Seat 0 (the creator's token) moves first; then the game waits for Eve.
    await play(gameId, created.tokens[0].token);
    expect(await ids(eve.key, { toAct: true })).toEqual([gameId]);
    await play(gameId, eve.key);
    expect(await ids(eve.key, { toAct: true })).toEqual([]);
  });

  it('refuses a taken seat, and a second seat for the same player', async () => {
    const fay = newPlayer('Fay');
    const open = await create([{ player: fay.id }, { open: true }]);
    expect((await t.gql(JOIN, { gameId: open.game.id }, fay.key)).data.joinGame.code).toBe('PLAYER_ALREADY_SEATED');
    const full = await create([{ player: fay.id }, {}]);
    expect((await t.gql(JOIN, { gameId: full.game.id }, newPlayer('Gus').key)).data.joinGame.code).toBe('SEAT_TAKEN');
    expect(await create([{ player: fay.id }, { player: fay.id }])).toMatchObject({ code: 'PLAYER_ALREADY_SEATED' });
    expect((await t.gql(CREATE, { input: { kind, seats: [{ player: 'pl-nobody' }, {}] } })).data.createGame.code).toBe('NOT_FOUND');
  });
});

describe('the inbox', () => {
  const hal = newPlayer('Hal');
  const ivy = newPlayer('Ivy');
  const games: string[] = [];

  beforeAll(async () => {
    // Five games with a clock (Hal's deadlines differ: each created later), and one without.
    for (let i = 0; i < 5; i++) {
      const created = await create([{ player: hal.id }, { player: ivy.id }], { timeControl: { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400 * (5 - i) } });
      games.push(created.game.id);
    }
    games.push((await create([{ player: hal.id }, { player: ivy.id }])).game.id);
  });

  it('lists the games waiting for the player, the most pressing deadline first, those without a clock last', async () => {
    const page = await inbox(hal.key, { toAct: true, first: 100 });
    expect(page.edges.map((e) => e.node.id)).toEqual([...games.slice(0, 5).reverse(), games[5]]);
    expect(page.edges.map((e) => e.deadline === null)).toEqual([false, false, false, false, false, true]);
    expect(page.edges.every((e) => e.toAct && e.seat === 0)).toBe(true);
    expect(await ids(ivy.key, { toAct: true })).toEqual([]);
  });

  it('pages with first and after, to the end', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await inbox(hal.key, { toAct: true, first: 4, after });
      seen.push(...page.edges.map((e) => e.node.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual([...games.slice(0, 5).reverse(), games[5]]);
    const recent = [];
    after = null;
    for (;;) {
      const page = await inbox(ivy.key, { first: 2, after });
      recent.push(...page.edges.map((e) => e.node.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(recent).toEqual([...games].reverse());
  });

  it('filters by kind and status', async () => {
    expect(await ids(hal.key, { kind, status: 'ACTIVE', first: 100 })).toHaveLength(6);
    expect(await ids(hal.key, { kind: 'backgammon' })).toEqual([]);
    expect(await ids(hal.key, { status: 'WAITING' })).toEqual([]);
  });

  it('answers over REST: GET /api/me/games', async () => {
    const res = await request(t.app.getHttpServer()).get('/api/me/games?toAct=true&first=2').set('authorization', `Bearer ${hal.key}`);
    expect(res.status).toBe(200);
    expect(res.body.games.map((g: { gameId: string }) => g.gameId)).toEqual(games.slice(3, 5).reverse());
    expect(res.body.games[0]).toMatchObject({ seat: 0, kind, status: 'ACTIVE', toAct: true });
    expect(res.body.hasNextPage).toBe(true);
    const next = await request(t.app.getHttpServer()).get(`/api/me/games?toAct=true&after=${res.body.endCursor}`).set('authorization', `Bearer ${hal.key}`);
    expect(next.body.games.map((g: { gameId: string }) => g.gameId)).toEqual([...games.slice(0, 3).reverse(), games[5]]);
    expect((await request(t.app.getHttpServer()).get('/api/me/games')).status).toBe(401);
    expect((await request(t.app.getHttpServer()).get('/api/me/games?toAct=maybe').set('authorization', `Bearer ${hal.key}`)).status).toBe(400);
  });

  it('needs a player key', async () => {
    expect(codes(await t.gql(MY_GAMES, {}))).toEqual(['UNAUTHORIZED']);
    const seatToken = (await create([{}, {}])).tokens[0].token;
    expect(codes(await t.gql(MY_GAMES, {}, seatToken))).toEqual(['UNAUTHORIZED']);
    expect(codes(await t.gql(MY_GAMES, {}, `arbk_${randomBytes(32).toString('base64url')}`))).toEqual(['UNAUTHORIZED']);
    expect(codes(await t.gql(MY_GAMES, { after: 'nonsense' }, hal.key))).toEqual(['INVALID_INPUT']);
  });
});

describe('tournament games of participants who are players', () => {
  it("binds a paired game's seats to the participants' players: it is in their inboxes", async () => {
    const jo = newPlayer('Jo');
    const kim = newPlayer('Kim', ['read', 'play', 'tournaments']);
    const created = await t.gql(
      `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`,
      {
        input: { name: 'Players night', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 1, openRegistration: true },
      },
    );
    const { organizerToken, tournament } = created.data.createTournament;
    const REGISTER = `mutation($id: ID!, $name: String!, $player: ID) { registerParticipant(tournamentId: $id, name: $name, player: $player) { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }`;
    // The organizer registers Jo; Kim registers herself with her key (registration is open).
    expect((await t.gql(REGISTER, { id: tournament.id, name: 'Jo', player: jo.id }, organizerToken)).errors).toBeUndefined();
    expect((await t.gql(REGISTER, { id: tournament.id, name: 'Kim' }, kim.key)).errors).toBeUndefined();
    expect((await t.gql(REGISTER, { id: tournament.id, name: 'Jo again', player: jo.id }, organizerToken)).data.registerParticipant).toMatchObject({ code: 'PLAYER_ALREADY_SEATED' });
    expect((await t.gql(REGISTER, { id: tournament.id, name: 'Kim again' }, kim.key)).data.registerParticipant).toMatchObject({ code: 'PLAYER_ALREADY_SEATED' });
    expect((await t.gql(REGISTER, { id: tournament.id, name: 'Nobody', player: 'pl-nobody' }, organizerToken)).data.registerParticipant).toMatchObject({ code: 'NOT_FOUND' });
    const paired = await t.gql(
      `mutation($id: ID!) { pairRound(tournamentId: $id, round: 1) { __typename ... on Tournament { rounds { boards { games { gameId } } } } ... on Rejection { code message } } }`,
      { id: tournament.id },
      organizerToken,
    );
    expect(paired.errors).toBeUndefined();
    const gameId = paired.data.pairRound.rounds[0].boards[0].games[0].gameId;
    // The pairing is answered once its games are in the players' inboxes.
    expect([...(await ids(jo.key)), ...(await ids(kim.key))]).toEqual([gameId, gameId]);
    const game = (await t.gql(GAME, { id: gameId })).data.game;
    const bySeat = game.seats.map((s: { player: string }) => (s.player === jo.id ? jo : kim));
    expect(new Set(game.seats.map((s: { player: string }) => s.player))).toEqual(new Set([jo.id, kim.id]));
    for (const [seat, p] of bySeat.entries()) expect(await ids(p.key, { toAct: true })).toEqual(game.toAct.includes(seat) ? [gameId] : []);
    // The participant's player's key acts as its seat.
    const mover = bySeat[game.toAct[0]];
    expect((await t.gql(GAME, { id: gameId }, mover.key)).data.game.mySeat).toBe(game.toAct[0]);
  });
});

describe('a player created with createPlayer', () => {
  it('plays with the key createPlayer gave, and reads its inbox as me { games } too', async () => {
    // This suite's key directory stands in for the players module's (beforeAll): the new key is entered in it.
    const made = await t.gql('mutation { createPlayer(name: "Lu") { __typename ... on PlayerCreated { player { id } key { secret } } ... on Rejection { code message } } }');
    expect(made.errors).toBeUndefined();
    const { player, key } = made.data.createPlayer;
    players.set(key.secret, { card: { id: player.id, name: 'Lu', appId: null }, scopes: ['read', 'play'] });
    const created = await create([{ player: player.id }, {}]);
    const gameId = created.game.id;
    const me = await t.gql('{ me { player { id } games(toAct: true) { edges { seat toAct node { id } } } } }', {}, key.secret);
    expect(me.errors).toBeUndefined();
    expect(me.data.me).toEqual({ player: { id: player.id }, games: { edges: [{ seat: 0, toAct: true, node: { id: gameId } }] } });
    expect(await ids(key.secret, { toAct: true })).toEqual([gameId]);
    await play(gameId, key.secret);
    expect((await t.gql('{ me { games(toAct: true) { edges { node { id } } } } }', {}, key.secret)).data.me.games.edges).toEqual([]);
  });
});
