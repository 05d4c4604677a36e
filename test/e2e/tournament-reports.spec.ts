import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createRegistry } from '../../src/games/index.js';
import { type TournamentBundle, verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import { serviceForSuite } from '../support/app.js';

/**
 * Issue 27, items 2 and 3 and the K6.8 defect, through the whole service (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL): participants registered in bulk (GraphQL list and CSV, all or none);
 * over-the-board results the participants report (R3.10), one with its record, one disagreement
 * becoming a dispute the organizer settles (R3.11), all of it in a bundle that verifies; the
 * organizer's REST recordResult, whose forfeit in game 1 of a 3-game knockout match closes games 2 and 3 (K6.8).
 */
const suite = serviceForSuite();

const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const BULK = `mutation($id: ID!, $rows: [ParticipantRowInput!]!) { registerParticipants(tournamentId: $id, participants: $rows) {
  __typename ... on ParticipantsRegistered { participants { row participantId participantToken } } ... on ParticipantsRefused { rows { row code message } } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { rounds { boards { board seats { id } games { gameId seats { id } } } } } ... on Rejection { code message } } }`;
const REPORT = `mutation($id: ID!, $input: ResultInput!) { reportResult(tournamentId: $id, input: $input) { __typename ... on Tournament { rounds { boards { games { gameId disputed reports { participant { id } } result { kinds ranking recordGameId reason } } } } } ... on Rejection { code message } } }`;
const SETTLE = `mutation($id: ID!, $gameId: ID!, $accept: ID!, $reason: String!) { settleDispute(tournamentId: $id, gameId: $gameId, acceptReportOf: $accept, reason: $reason) { __typename ... on Tournament { status } ... on Rejection { code message } } }`;
const STATE = `query($id: ID!) { tournament(id: $id) { status participants { name rating externalId requestedByes } } }`;
const GAME = `query($id: ID!) { game(id: $id) { status } }`;

async function gql<T = any>(query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await suite.app.gql(query, variables, token);
  if (res.errors) throw new Error(`${res.errors[0].extensions?.code}: ${res.errors[0].message}`);
  return res.data;
}

const http = () => request(suite.app.app.getHttpServer());
const registry = createRegistry();
const types = async (id: string) =>
  (await http().get(`/api/tournaments/${id}/events`)).text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).type) as string[];
async function verified(id: string) {
  const bundle = (await http().get(`/api/tournaments/${id}/bundle`)).body as TournamentBundle;
  return verifyTournamentBundle(registry, bundle);
}

async function created(input: Record<string, unknown>): Promise<{ id: string; organizer: string }> {
  const c = (await gql(CREATE, { input })).createTournament;
  return { id: c.tournament.id, organizer: c.organizerToken };
}

it('registers in bulk all or none, participants report over-the-board results, a disagreement is disputed and settled, and the bundle verifies', async () => {
  const { id, organizer } = await created({ name: 'Reported', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 2, playerReports: true });

  // One refused row (an external id twice) registers nobody.
  const rows = [
    { name: 'A', rating: 1900, externalId: 'FED-1' },
    { name: 'B', rating: 1800, externalId: 'FED-1' },
    { name: 'C', rating: 1700, requestedByes: [5] },
    { name: 'D', rating: 1600 },
  ];
  const refused = (await gql(BULK, { id, rows }, organizer)).registerParticipants;
  expect(refused).toEqual({ __typename: 'ParticipantsRefused', rows: [expect.objectContaining({ row: 2, code: 'EXTERNAL_ID_TAKEN' }), expect.objectContaining({ row: 3, code: 'INVALID_INPUT' })] });
  expect((await gql(STATE, { id })).tournament.participants).toEqual([]);
  expect((await gql(BULK, { id, rows: [{ name: 'X' }] }, 'not-a-token')).registerParticipants.code).toBe('UNAUTHORIZED');

  rows[1].externalId = 'FED-2';
  rows[2].requestedByes = [2];
  const registered = (await gql(BULK, { id, rows }, organizer)).registerParticipants;
  expect(registered.__typename).toBe('ParticipantsRegistered');
  const token = new Map<string, string>(registered.participants.map((p: { participantId: string; participantToken: string }) => [p.participantId, p.participantToken]));
  expect((await gql(STATE, { id })).tournament.participants).toEqual([
    { name: 'A', rating: 1900, externalId: 'FED-1', requestedByes: [] },
    { name: 'B', rating: 1800, externalId: 'FED-2', requestedByes: [] },
    { name: 'C', rating: 1700, externalId: null, requestedByes: [2] },
    { name: 'D', rating: 1600, externalId: null, requestedByes: [] },
  ]);

  const [b1, b2] = (await gql(PAIR, { id }, organizer)).pairRound.rounds[0].boards;
  const [s0, s1] = b1.games[0].seats.map((s: { id: string }) => s.id);
  const [u0, u1] = b2.games[0].seats.map((s: { id: string }) => s.id);
  const report = (who: string, board: number, input: Record<string, unknown>) => suite.app.gql(REPORT, { id, input: { round: 1, board, ...input } }, token.get(who));

  // Not one's own board, and a forfeit (the organizer's alone), are refused.
  expect((await report(u0, b1.board, { outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] })).data.reportResult.code).toBe('NOT_YOUR_BOARD');
  expect((await report(s0, b1.board, { outcome: 'FORFEIT_WIN_SEAT0' })).data.reportResult.code).toBe('INVALID_RESULT');

  // Board 1: one side reports with the record (seat 0 wins 2-0), the other agrees: recorded, the game closed.
  const record = readFileSync('test/fixtures/backgammon/match-1-pt-seed64352.mat', 'utf8');
  const first = (await report(s0, b1.board, { outcome: 'WIN_SEAT0', record })).data.reportResult;
  expect(first.rounds[0].boards[0].games[0]).toMatchObject({ disputed: false, reports: [{ participant: { id: s0 } }], result: null });
  const agreed = (await report(s1, b1.board, { outcome: 'WIN_SEAT0', gamePoints: ['2', '0'] })).data.reportResult;
  expect(agreed.rounds[0].boards[0].games[0].result).toMatchObject({ kinds: ['PLAYED', 'PLAYED'], ranking: [[0], [1]], recordGameId: expect.any(String) });
  expect((await gql(GAME, { id: b1.games[0].gameId })).game.status).toBe('FINISHED');

  // Board 2: the reports disagree: a dispute; a third report waits for the organizer.
  await report(u0, b2.board, { outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] });
  const disputed = (await report(u1, b2.board, { outcome: 'WIN_SEAT1', gamePoints: ['0', '1'] })).data.reportResult;
  expect(disputed.rounds[0].boards[1].games[0]).toMatchObject({ disputed: true, result: null });
  expect((await report(u0, b2.board, { outcome: 'WIN_SEAT1', gamePoints: ['0', '1'] })).data.reportResult.code).toBe('DISPUTE_OPEN');
  expect((await suite.app.gql(SETTLE, { id, gameId: b2.games[0].gameId, accept: u1, reason: 'the scoresheet' }, token.get(u0))).data.settleDispute.code).toBe('FORBIDDEN');
  expect((await suite.app.gql(SETTLE, { id, gameId: b1.games[0].gameId, accept: s0, reason: 'none' }, organizer)).data.settleDispute.code).toBe('NO_DISPUTE');
  expect((await gql(SETTLE, { id, gameId: b2.games[0].gameId, accept: u1, reason: 'the scoresheet' }, organizer)).settleDispute.status).toBe('RUNNING');
  expect((await gql(GAME, { id: b2.games[0].gameId })).game.status).toBe('FINISHED');

  // Round 2 is paired with C's requested bye (asked when it registered).
  const round2 = (await gql(PAIR, { id }, organizer)).pairRound.rounds[1];
  expect(round2.boards.flatMap((b: { seats: { id: string }[] }) => b.seats.map((s) => s.id))).not.toContain(registered.participants[2].participantId);

  expect(await types(id)).toEqual(expect.arrayContaining(['ResultReported', 'ResultDisputed', 'DisputeSettled', 'RoundSettingsSet']));
  const verdict = await verified(id);
  expect(verdict).toMatchObject({ ok: true });
  // Round 1's two games and the record, round 2's one game (C has its bye).
  expect(verdict.gamesChecked).toBe(4);
}, 120_000);

it('refuses reports where the organizer enters every result', async () => {
  const { id, organizer } = await created({ name: 'No reports', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 1 });
  const registered = (await gql(BULK, { id, rows: [{ name: 'A' }, { name: 'B' }] }, organizer)).registerParticipants.participants;
  const [b] = (await gql(PAIR, { id }, organizer)).pairRound.rounds[0].boards;
  const answer = await suite.app.gql(REPORT, { id, input: { round: 1, board: b.board, outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] } }, registered[0].participantToken);
  expect(answer.data.reportResult.code).toBe('REPORTS_NOT_ALLOWED');
}, 60_000);

it('registers a CSV all or none, and records results over REST: a forfeit in game 1 of a 3-game knockout match closes games 2 and 3', async () => {
  const { id, organizer } = await created({ name: 'KO', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'KNOCKOUT', gamesPerMatch: 3 });
  const csv = (body: string, bearer = organizer) => http().post(`/api/tournaments/${id}/participants`).set('authorization', `Bearer ${bearer}`).set('content-type', 'text/csv').send(body);

  const bad = await csv('name,rating,externalId\r\n"Smith, Ann",1900,FED-1\r\nBob,fast,FED-2\r\nCy,1700,FED-1\r\n');
  expect(bad.status).toBe(422);
  expect(bad.body.error).toMatchObject({ code: 'ROWS_REFUSED', rows: [{ row: 2, code: 'INVALID_INPUT', message: expect.stringMatching(/rating/) }] });
  const dup = await csv('name,rating,externalId\r\n"Smith, Ann",1900,FED-1\r\nCy,1700,FED-1\r\n');
  expect(dup.status).toBe(422);
  expect(dup.body.error.rows).toEqual([expect.objectContaining({ row: 2, code: 'EXTERNAL_ID_TAKEN' })]);
  expect((await gql(STATE, { id })).tournament.participants).toEqual([]);
  const ok = await csv('name,rating,externalId\r\n"Smith, Ann",1900,FED-1\r\nCy,1700,FED-3\r\n');
  expect(ok.status).toBe(201);
  expect(ok.body.participants).toHaveLength(2);
  expect((await gql(STATE, { id })).tournament.participants.map((p: { name: string }) => p.name)).toEqual(['Smith, Ann', 'Cy']);
  expect((await csv('name\r\nDee\r\n', ok.body.participants[0].participantToken)).status).toBe(403);

  const [match] = (await gql(PAIR, { id }, organizer)).pairRound.rounds[0].boards;
  expect(match.games).toHaveLength(3);
  const result = (body: Record<string, unknown>, bearer?: string) => {
    const req = http().post(`/api/tournaments/${id}/results`).send(body);
    return bearer ? req.set('authorization', `Bearer ${bearer}`) : req;
  };
  expect((await result({ round: 1, board: match.board, outcome: 'FORFEIT_WIN_SEAT0', reason: 'absent' })).status).toBe(401);
  expect((await result({ round: 1, board: match.board, outcome: 'FORFEIT_WIN_SEAT0', reason: 'absent' }, ok.body.participants[0].participantToken)).status).toBe(403);
  expect((await result({ round: 'one', board: match.board }, organizer)).status).toBe(400);
  const answer = await result({ round: 1, board: match.board, gameId: match.games[0].gameId, outcome: 'FORFEIT_WIN_SEAT0', reason: 'absent' }, organizer);
  expect(answer.status).toBe(200);
  expect(answer.body.status).toBe('FINISHED');
  const games = answer.body.rounds[0].boards[0].games;
  expect(games.map((g: { result: { kinds: string[] } }) => g.result.kinds)).toEqual([
    ['FORFEIT_WIN', 'FORFEIT_LOSS'],
    ['FORFEIT_LOSS', 'FORFEIT_WIN'],
    ['FORFEIT_WIN', 'FORFEIT_LOSS'],
  ]);
  expect(games[1].result.reason).toBe('the match was decided by the forfeit in game 1 (K6.8)');
  // Every game of the match is closed on the service (the workflow closes games 2 and 3 after the append).
  // Polled with no limit but the test's own: the workflow's pace is the machine's.
  for (;;) {
    const statuses = await Promise.all(match.games.map(async (g: { gameId: string }) => (await gql(GAME, { id: g.gameId })).game.status));
    if (statuses.every((s) => s === 'FINISHED')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await verified(id)).toMatchObject({ ok: true });
}, 120_000);
