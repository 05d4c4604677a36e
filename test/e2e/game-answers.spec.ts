import request from 'supertest';
import type { TestApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ACT, CREATE } from '../support/queries.js';

/**
 * GraphQL's Game and REST's GET /api/games/:id are built from one answer of the game for the
 * caller: they agree on every field REST has, for each seat and a spectator, while the game
 * runs (client seeds mixed in, hands hidden, a clock) and once it is over (the seed revealed).
 * The clock stands still, so both answers are of the same instant.
 */
const clock = new ManualClock();
let t: TestApp;

beforeAll(async () => {
  t = await startAppWithClock(clock);
});
afterAll(() => t?.close());

const GAME_FIELDS = `id kind status version headHash ruleset rulesetHash imported createdAt
  seats { index name taken player } tournamentId round board
  mySeat toAct view legalActions result
  fairness { seedCommitment randomSource serverSeed clientSeeds }
  clock { kind remainingMs running deadline paused pauseRequests timedOut autoPlayed vacationLeftMs
    control { kind perMoveSeconds bankCapSeconds vacationSeconds baseSeconds incrementSeconds } }`;

async function bothAnswers(id: string, token?: string): Promise<{ graphql: Record<string, unknown>; rest: Record<string, unknown> }> {
  const graphql = (await t.gql(`query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`, { id }, token)).data.game;
  const get = request(t.app.getHttpServer()).get(`/api/games/${id}`);
  if (token) get.set('authorization', `Bearer ${token}`);
  const rest = (await get.expect(200)).body;
  return { graphql, rest };
}

function expectSameFields(graphql: Record<string, unknown>, rest: Record<string, unknown>): void {
  expect(Object.keys(rest).sort()).toEqual(Object.keys(graphql).sort());
  for (const field of Object.keys(graphql)) expect({ field, value: rest[field] }).toEqual({ field, value: graphql[field] });
}

describe('a game answered over GraphQL and REST', () => {
  it('agrees field by field, fairness.clientSeeds included, for every seat and a spectator, running and finished', async () => {
    const input = {
      kind: 'duel',
      seats: [
        { name: 'ann', clientSeed: 'ann-seed' },
        { name: 'bob', clientSeed: 'bob-seed' },
      ],
      timeControl: { kind: 'FISCHER', baseSeconds: 600, incrementSeconds: 5 },
    };
    const created = (await t.gql(CREATE, { input })).data.createGame;
    expect(created.__typename).toBe('GameCreated');
    const id: string = created.game.id;
    const tokens: string[] = created.tokens.map((s: { token: string }) => s.token);

    const running = await bothAnswers(id, tokens[0]);
    expect(running.rest.fairness).toEqual({ seedCommitment: expect.any(String), randomSource: 'fair', serverSeed: null, clientSeeds: ['ann-seed', 'bob-seed'] });
    expect(running.rest.legalActions).not.toEqual([]);
    expect(running.rest.clock).not.toBeNull();
    expectSameFields(running.graphql, running.rest);

    // Seat 0 plays a card, the clock moves on: each seat and a spectator see their own view of the same game.
    clock.advance(7000);
    const card = (running.rest.legalActions as unknown[])[0];
    const moved = (await t.gql(ACT, { gameId: id, moveId: 'm1', action: card }, tokens[0])).data.submitAction;
    expect(moved.__typename).toBe('MoveAccepted');
    for (const token of [tokens[0], tokens[1], undefined]) {
      const { graphql, rest } = await bothAnswers(id, token);
      expectSameFields(graphql, rest);
    }

    const resigned = (await t.gql('mutation($id: ID!) { resignGame(gameId: $id, moveId: "r") { __typename } }', { id }, tokens[1])).data.resignGame;
    expect(resigned.__typename).toBe('MoveAccepted');
    const over = await bothAnswers(id);
    expect(over.rest.status).toBe('FINISHED');
    expect((over.rest.fairness as { serverSeed: string | null }).serverSeed).toEqual(expect.any(String));
    expectSameFields(over.graphql, over.rest);
  });
});
