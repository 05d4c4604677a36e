import { createHash } from 'node:crypto';
import request from 'supertest';
import { startApp, type TestApp } from '../support/app.js';
import { ACT, CREATE, EVENTS, GAME, VERIFY } from '../support/queries.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

async function newDuel(seats?: unknown[]) {
  const res = await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 12, handSize: 3 }, seats } });
  expect(res.data.createGame.__typename).toBe('GameCreated');
  return res.data.createGame as { game: { id: string; status: string; version: number }; tokens: { seat: number; token: string }[] };
}

const game = async (id: string, token?: string) => (await t.gql(GAME, { id }, token)).data.game;

/** Plays the duel to its end with each seat's own token, choosing its first legal action. */
async function playToEnd(id: string, tokens: string[]) {
  for (let i = 0; i < 20; i++) {
    const spectator = await game(id);
    if (spectator.status === 'FINISHED') return spectator;
    const seat = spectator.toAct[0];
    const mine = await game(id, tokens[seat]);
    const res = await t.gql(ACT, { gameId: id, moveId: `m${i}`, action: mine.legalActions[0], expectedVersion: mine.version }, tokens[seat]);
    expect(res.data.submitAction.__typename).toBe('MoveAccepted');
  }
  throw new Error('the duel did not end');
}

describe(`game lifecycle over GraphQL`, () => {
  it('creates a game with a token per seat, plays it to the end and reveals the seed that matches the commitment', async () => {
    const { game: created, tokens } = await newDuel();
    expect(created.status).toBe('ACTIVE');
    expect(tokens.map((x) => x.seat)).toEqual([0, 1]);
    const before = await game(created.id);
    expect(before.fairness.serverSeed).toBeNull();
    expect(before.fairness.seedCommitment).toMatch(/^[0-9a-f]{64}$/);

    const end = await playToEnd(
      created.id,
      tokens.map((x) => x.token),
    );
    expect(end.result.winners.length).toBeGreaterThan(0);
    expect(end.fairness.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(createHash('sha256').update(end.fairness.serverSeed).digest('hex')).toBe(end.fairness.seedCommitment);

    const verdict = (await t.gql(VERIFY, { gameId: created.id })).data.verifyGame;
    expect(verdict).toMatchObject({ ok: true, badSeq: null, fairnessChecked: true });
    expect(verdict.drawsRecomputed).toBeGreaterThan(0);
  });

  it('shows each seat only its own hand, and spectators no hand, in views and events', async () => {
    const { game: created, tokens } = await newDuel();
    const seat0 = await game(created.id, tokens[0].token);
    const seat1 = await game(created.id, tokens[1].token);
    const spectator = await game(created.id);
    expect(seat0.mySeat).toBe(0);
    expect(Array.isArray(seat0.view.hands[0])).toBe(true);
    expect(seat0.view.hands[1]).toBe(3);
    expect(spectator.view.hands).toEqual([3, 3]);
    expect(spectator.legalActions).toEqual([]);

    const theirCards: number[] = seat1.view.hands[1];
    const events0 = (await t.gql(EVENTS, { gameId: created.id }, tokens[0].token)).data.gameEvents.nodes;
    const shuffle = events0.find((e: { type: string }) => e.type === 'CardsShuffled');
    expect(shuffle.payload.chance.values).toBeUndefined();
    expect(shuffle.payload.chance.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(shuffle.payload.view.hand).toEqual(seat0.view.hands[0]);
    for (const card of theirCards) expect(shuffle.payload.view.hand).not.toContain(card);
    const spectatorEvents = (await t.gql(EVENTS, { gameId: created.id })).data.gameEvents.nodes;
    expect(spectatorEvents.find((e: { type: string }) => e.type === 'CardsShuffled').payload.view.hand).toBeNull();

    // REST serves the same per-seat view.
    const rest = await request(t.app.getHttpServer()).get(`/api/games/${created.id}`).set('authorization', `Bearer ${tokens[1].token}`);
    expect(rest.status).toBe(200);
    expect(rest.body.view.hands[1]).toEqual(theirCards);
    expect(rest.body.view.hands[0]).toBe(3);
  });

  it('stores exactly one of 20 moves racing at the same version and answers the rest VERSION_CONFLICT', async () => {
    const { game: created, tokens } = await newDuel();
    const g = await game(created.id, tokens[0].token);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.gql(ACT, { gameId: created.id, moveId: `race-${i}`, action: g.legalActions[i % g.legalActions.length], expectedVersion: g.version }, tokens[0].token)),
    );
    const kinds = results.map((r) => (r.data.submitAction.__typename === 'MoveAccepted' ? 'accepted' : r.data.submitAction.code));
    expect(kinds.filter((k) => k === 'accepted')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'VERSION_CONFLICT')).toHaveLength(19);
    const events = (await t.gql(EVENTS, { gameId: created.id }, tokens[0].token)).data.gameEvents.nodes;
    expect(events.filter((e: { type: string }) => e.type === 'ActionTaken')).toHaveLength(1);
  });

  it('answers a retried move id with the original result, and refuses the id for another move', async () => {
    const { game: created, tokens } = await newDuel();
    const g = await game(created.id, tokens[0].token);
    const first = (await t.gql(ACT, { gameId: created.id, moveId: 'once', action: g.legalActions[0] }, tokens[0].token)).data.submitAction;
    const again = (await t.gql(ACT, { gameId: created.id, moveId: 'once', action: g.legalActions[0] }, tokens[0].token)).data.submitAction;
    expect(first.__typename).toBe('MoveAccepted');
    expect(again).toEqual(first);
    const other = (await t.gql(ACT, { gameId: created.id, moveId: 'once', action: g.legalActions[1] }, tokens[0].token)).data.submitAction;
    expect(other).toMatchObject({ __typename: 'Rejection', code: 'MOVE_ID_REUSED' });
    expect((await game(created.id)).version).toBe(first.version);
  });

  it('lets a token act only for its own seat and game, and changes nothing when it refuses', async () => {
    const { game: created, tokens } = await newDuel();
    const other = await newDuel();
    const g = await game(created.id, tokens[0].token);
    const seat1Card = (await game(created.id, tokens[1].token)).view.hands[1][0];
    const cases = [
      { token: tokens[1].token, action: { type: 'play', card: seat1Card }, code: 'NOT_YOUR_TURN' },
      { token: other.tokens[0].token, action: g.legalActions[0], code: 'UNAUTHORIZED' },
      { token: undefined, action: g.legalActions[0], code: 'UNAUTHORIZED' },
      { token: 'arb_forged', action: g.legalActions[0], code: 'UNAUTHORIZED' },
      { token: tokens[0].token, action: { type: 'play', card: seat1Card }, code: 'ILLEGAL_MOVE' },
      { token: tokens[0].token, action: { type: 'dance' }, code: 'INVALID_INPUT' },
      { token: tokens[0].token, action: 'nonsense', code: 'INVALID_INPUT' },
    ];
    for (const [i, c] of cases.entries()) {
      const res = (await t.gql(ACT, { gameId: created.id, moveId: `bad-${i}`, action: c.action }, c.token)).data.submitAction;
      expect({ i, code: res.code, type: res.__typename }).toEqual({ i, code: c.code, type: 'Rejection' });
    }
    const after = await game(created.id, tokens[0].token);
    expect(after.version).toBe(g.version);
    expect(after.view).toEqual(g.view);
  });

  it('opens seats for joining, mixes the client seeds in, and starts when the last seat is taken', async () => {
    const { game: created, tokens } = await newDuel([{ name: 'Ada', clientSeed: 'ada-seed' }, { open: true }]);
    expect(created.status).toBe('WAITING');
    expect(tokens).toHaveLength(1);
    const early = await t.gql(ACT, { gameId: created.id, moveId: 'early', action: { type: 'play', card: 0 } }, tokens[0].token);
    expect(early.data.submitAction.code).toBe('GAME_NOT_STARTED');
    const join = `mutation($id: ID!, $input: JoinGameInput) { joinGame(gameId: $id, input: $input) {
      __typename ... on SeatJoined { seat token game { status } } ... on Rejection { code message } } }`;
    const joined = (await t.gql(join, { id: created.id, input: { name: 'Bo', clientSeed: 'bo-seed' } })).data.joinGame;
    expect(joined).toMatchObject({ __typename: 'SeatJoined', seat: 1, game: { status: 'ACTIVE' } });
    const again = (await t.gql(join, { id: created.id, input: {} })).data.joinGame;
    expect(again).toMatchObject({ __typename: 'Rejection', code: 'SEAT_TAKEN' });
    const g = await game(created.id, joined.token);
    expect(g.mySeat).toBe(1);
    expect(g.seats.map((s: { name: string }) => s.name)).toEqual(['Ada', 'Bo']);
    expect(g.fairness.clientSeeds).toEqual(['ada-seed', 'bo-seed']);
    await playToEnd(created.id, [tokens[0].token, joined.token]);
    expect((await t.gql(VERIFY, { gameId: created.id })).data.verifyGame.ok).toBe(true);
  });

  it('refuses bad input with typed codes, never a 500', async () => {
    const unknownKind = (await t.gql(CREATE, { input: { kind: 'chess' } })).data.createGame;
    expect(unknownKind).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
    expect(unknownKind.message).toContain('duel');
    const badRules = (await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 1 } } })).data.createGame;
    expect(badRules).toMatchObject({ code: 'INVALID_INPUT', message: 'cards must be 2-52' });
    const wrongSeats = (await t.gql(CREATE, { input: { kind: 'duel', seats: [{}] } })).data.createGame;
    expect(wrongSeats.message).toMatch(/exactly 2 seats/);
    const missing = await t.gql(GAME, { id: 'nope' });
    expect(missing.errors[0].extensions.code).toBe('NOT_FOUND');
    const rest = await request(t.app.getHttpServer()).get('/api/games/nope');
    expect(rest.status).toBe(404);
    expect(rest.body.error.code).toBe('NOT_FOUND');
    const malformed = await request(t.app.getHttpServer()).post('/graphql').set('content-type', 'application/json').send('{"query": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].extensions.code).toBe('INVALID_INPUT');
    const badMoveId = (await t.gql(ACT, { gameId: 'nope', moveId: '', action: {} })).data.submitAction;
    expect(badMoveId.code).toBe('INVALID_INPUT');
  });

  it('replays the state at any sequence number and pages through games', async () => {
    const { game: created, tokens } = await newDuel();
    const g = await game(created.id, tokens[0].token);
    await t.gql(ACT, { gameId: created.id, moveId: 'one', action: g.legalActions[0] }, tokens[0].token);
    const at = `query($id: ID!, $seq: Int!) { gameStateAt(gameId: $id, seq: $seq) { seq view } }`;
    const past = (await t.gql(at, { id: created.id, seq: g.version }, tokens[0].token)).data.gameStateAt;
    expect(past.view).toEqual(g.view);
    const outOfRange = await t.gql(at, { id: created.id, seq: 999 });
    expect(outOfRange.errors[0].extensions.code).toBe('INVALID_INPUT');

    const list = `query($after: String) { games(first: 2, after: $after, filter: { kind: "duel" }) { nodes { id } pageInfo { endCursor hasNextPage } } }`;
    const seen = new Set<string>();
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const res: any = (await t.gql(list, { after })).data.games;
      for (const n of res.nodes) {
        expect(seen.has(n.id)).toBe(false);
        seen.add(n.id);
      }
      if (!res.pageInfo.hasNextPage) break;
      after = res.pageInfo.endCursor;
    }
    expect(seen.has(created.id)).toBe(true);
    expect(seen.size).toBeGreaterThanOrEqual(2);
  });
});
