import request from 'supertest';
import { TournamentService } from '../../src/referee/application/tournament.service.js';
import { CORRECTION_LIMIT, PARTICIPANT_LIMIT } from '../../src/referee/core/tournament/decider.js';
import { startApp, type TestApp } from '../support/app.js';
import { CREATE } from '../support/queries.js';

/**
 * What a tournament creates is charged to its caller like any other creation (the creation quota
 * per address): a pairing pays for every game it schedules, a result with a record for the game
 * it imports; a refusal answers RATE_LIMITED with Retry-After and stores nothing. A tournament
 * takes at most PARTICIPANT_LIMIT participants (P2.8), a board at most CORRECTION_LIMIT
 * corrections (R3.8). On PostgreSQL (TEST_DATABASE_URL) or a fresh embedded database.
 */

const QUOTA = 6;
const backend = process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite';

const TOURNAMENT = 'id version games rounds { round boards { board games { gameId seats { id } result { source recordGameId } } } }';
const CREATE_TOURNAMENT = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER =
  'mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }';
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { ${TOURNAMENT} } ... on Rejection { code message } } }`;
const RECORD = `mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { ${TOURNAMENT} } ... on Rejection { code message } } }`;
const READ = `query($id: ID!) { tournament(id: $id) { ${TOURNAMENT} } }`;
const RESIGN = 'mutation($g: ID!) { resignGame(gameId: $g, moveId: "r") { __typename } }';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ createQuotaPerHour: QUOTA, trustProxy: ['loopback'] });
});
afterAll(async () => {
  await t?.close();
});

/** A GraphQL request as sent from `address` (through the trusted loopback proxy), with a token or none. */
function gql(address: string, query: string, variables: Record<string, unknown> = {}, token?: string) {
  const req = request(t.app.getHttpServer()).post('/graphql').set('x-forwarded-for', address);
  if (token) req.set('authorization', `Bearer ${token}`);
  return req.send({ query, variables });
}

/** Why a request was refused: its error's code (a quota spent while the command ran), or the Rejection the mutation answered. */
const codeOf = (res: request.Response): string | undefined => res.body.errors?.[0]?.extensions?.code ?? (Object.values(res.body.data ?? {}) as ({ code?: string } | null)[]).find((v) => v?.code)?.code;

/** A duel Swiss of `players` participants over `rounds` rounds, created from `address` (one creation). */
async function swiss(address: string, players: number, rounds = 1): Promise<{ id: string; organizer: string }> {
  const created = await gql(address, CREATE_TOURNAMENT, { input: { name: 'Limits', kind: 'duel', format: 'SWISS', rounds } });
  expect(created.body.errors).toBeUndefined();
  const { organizerToken: organizer, tournament } = created.body.data.createTournament;
  for (let i = 1; i <= players; i++) expect((await gql(address, REGISTER, { id: tournament.id, name: `p${i}` }, organizer)).body.errors).toBeUndefined();
  return { id: tournament.id, organizer };
}

/** Creates games from `address` until one is refused: how many were created. */
async function creationsLeft(address: string): Promise<number> {
  for (let n = 0; ; n++) {
    const res = await gql(address, CREATE, { input: { kind: 'duel' } });
    if (res.status === 429) return n;
    expect(res.body.data.createGame.__typename).toBe('GameCreated');
  }
}

describe(`tournaments and the creation quota (${backend})`, () => {
  it('charges a pairing every game it schedules, and refuses one the quota cannot pay with RATE_LIMITED, storing nothing', async () => {
    const address = '10.24.3.1';
    const six = await swiss(address, 6); // 1 creation
    const paired = await gql(address, PAIR, { id: six.id }, six.organizer); // 3 games
    expect(paired.body.errors).toBeUndefined();
    expect(paired.body.data.pairRound.games).toHaveLength(3);

    const four = await swiss(address, 4); // 1 creation: 1 left, and this round has 2 games
    const before = (await gql(address, READ, { id: four.id })).body.data.tournament;
    const refused = await gql(address, PAIR, { id: four.id }, four.organizer);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    // Refused while it ran (not before, as a createGame past the quota): GraphQL's 200 with the error, and Retry-After.
    expect(refused.body.errors[0].extensions.retryAfter).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const after = (await gql(address, READ, { id: four.id })).body.data.tournament;
    expect(after).toEqual(before);
    expect(after.rounds).toEqual([]);

    // The refused pairing took nothing: the one creation left is still there.
    expect(await creationsLeft(address)).toBe(1);
  });

  it('charges a result with a record the game it imports, and refuses it when the quota is spent; a result without one costs nothing', async () => {
    // A finished duel's record, and a two-round Swiss of four, made from an address of their own.
    const setup = '10.24.4.1';
    const game = (await gql(setup, CREATE, { input: { kind: 'duel' } })).body.data.createGame;
    expect((await gql(setup, RESIGN, { g: game.game.id }, game.tokens[0].token)).body.data.resignGame.__typename).toBe('MoveAccepted');
    const record = (await request(t.app.getHttpServer()).get(`/api/games/${game.game.id}/record`).set('x-forwarded-for', setup)).text;
    const { id, organizer } = await swiss(setup, 4, 2);
    const boards = (await gql(setup, PAIR, { id }, organizer)).body.data.pairRound.rounds[0].boards;
    expect(boards).toHaveLength(2);

    // From an address whose quota is spent: the record is refused and nothing is stored; the same result without it is recorded.
    const spent = '10.24.4.2';
    expect(await creationsLeft(spent)).toBe(QUOTA);
    const refused = await gql(spent, RECORD, { id, input: { round: 1, board: boards[0].board, record } }, organizer);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect(refused.body.errors[0].extensions.retryAfter).toBeGreaterThan(0);
    expect((await gql(setup, READ, { id })).body.data.tournament.rounds[0].boards[0].games[0].result).toBeNull();
    const plain = await gql(spent, RECORD, { id, input: { round: 1, board: boards[0].board, outcome: 'WIN_SEAT1', gamePoints: ['0', '1'] } }, organizer);
    expect(plain.body.errors).toBeUndefined();

    // From a fresh address: the record is imported, and costs one creation.
    const fresh = '10.24.4.3';
    const recorded = await gql(fresh, RECORD, { id, input: { round: 1, board: boards[1].board, record } }, organizer);
    expect(recorded.body.errors).toBeUndefined();
    expect(recorded.body.data.recordResult.rounds[0].boards[1].games[0].result.recordGameId).toEqual(expect.any(String));
    expect(await creationsLeft(fresh)).toBe(QUOTA - 1);
  });
});

describe(`a tournament's bounds (${backend})`, () => {
  it(`corrects a board's result ${CORRECTION_LIMIT} times, then refuses with TOO_MANY_CORRECTIONS and stores nothing (R3.8)`, async () => {
    const address = '10.24.5.1';
    const { id, organizer } = await swiss(address, 2, 2);
    const board = (await gql(address, PAIR, { id }, organizer)).body.data.pairRound.rounds[0].boards[0].board;
    const outcomes = ['WIN_SEAT0', 'WIN_SEAT1'];
    const enter = (i: number, correction: boolean) =>
      gql(address, RECORD, { id, input: { round: 1, board, outcome: outcomes[i % 2], gamePoints: i % 2 ? ['0', '1'] : ['1', '0'], correction, reason: `entry ${i}` } }, organizer);
    expect((await enter(0, false)).body.errors).toBeUndefined();
    for (let i = 1; i <= CORRECTION_LIMIT; i++) expect((await enter(i, true)).body.errors).toBeUndefined();
    const before = (await gql(address, READ, { id })).body.data.tournament.version;
    const refused = await enter(CORRECTION_LIMIT + 1, true);
    expect(codeOf(refused)).toBe('TOO_MANY_CORRECTIONS');
    expect((await gql(address, READ, { id })).body.data.tournament.version).toBe(before);
  });

  it(`takes ${PARTICIPANT_LIMIT} participants, then refuses with TOO_MANY_PARTICIPANTS (P2.8)`, async () => {
    const address = '10.24.6.1';
    const { id, organizer } = await swiss(address, 0, 3);
    const service = t.app.get(TournamentService);
    for (let i = 1; i <= PARTICIPANT_LIMIT; i++) await service.register(id, organizer, { name: `p${i}` });
    const refused = await gql(address, REGISTER, { id, name: 'one too many' }, organizer);
    expect(codeOf(refused)).toBe('TOO_MANY_PARTICIPANTS');
    expect((await service.tournament(id)).participants).toHaveLength(PARTICIPANT_LIMIT);
  }, 300_000);
});
