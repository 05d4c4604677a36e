import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { eventHash } from '../../src/referee/core/stream.js';
import { type TournamentBundle, verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import { startApp, type TestApp } from '../support/app.js';

/**
 * recordResult over the API against rules R3.9 and the attached record: a backgammon DRAW is
 * refused naming the rule and changes nothing; with a record, the outcome alone is enough (the game
 * points are the record's) and an outcome it does not say is refused; a bundle forged to hold the
 * DRAW is INVALID, naming the rule, offline and through the CLI.
 */
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startApp();
  dir = mkdtempSync(join(tmpdir(), 'arbiter-results-check-'));
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!, $rating: Int) { registerParticipant(tournamentId: $id, name: $name, rating: $rating) { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { rounds { boards { board games { gameId } } } } ... on Rejection { code message } } }`;
const RECORD = `mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { version } ... on Rejection { code message } } }`;
const STATE = `query($id: ID!) { tournament(id: $id) { status rounds { boards { board games { gameId result { kinds gamePoints ranking recordGameId } } } } } }`;
const GAME = `query($id: ID!) { game(id: $id) { status } }`;

async function gql<T = any>(query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await t.gql(query, variables, token);
  if (res.errors) throw new Error(`${res.errors[0].extensions?.code}: ${res.errors[0].message}`);
  return res.data;
}

const events = async (id: string) => (await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/events`)).body;

function rechained(bundle: TournamentBundle, index: number, payload: Record<string, unknown>): TournamentBundle {
  const all = bundle.events.map((e, i) => (i === index ? { ...e, payload: { ...e.payload, ...payload } } : { ...e }));
  for (let k = index; k < all.length; k++) {
    if (k > index) all[k].prevHash = all[k - 1].hash;
    all[k].hash = eventHash(bundle.tournament.id, all[k]);
  }
  const last = all[all.length - 1];
  return { ...bundle, events: all, head: { seq: last.seq, hash: last.hash } };
}

it('refuses a backgammon DRAW naming the rule, takes a record with its outcome alone, and a bundle forged to hold the DRAW is INVALID', async () => {
  const created = (await gql(CREATE, { input: { name: 'No draws', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 1 } })).createTournament;
  const [id, organizer] = [created.tournament.id as string, created.organizerToken as string];
  for (const [name, rating] of [
    ['A', 1900],
    ['B', 1800],
    ['C', 1700],
    ['D', 1600],
  ] as const)
    await gql(REGISTER, { id, name, rating }, organizer);
  const [b1, b2] = (await gql(PAIR, { id }, organizer)).pairRound.rounds[0].boards;
  const before = await events(id);

  // A DRAW backgammon cannot end with: refused with the rule, and neither the tournament nor the game changes.
  const draw = await t.gql(RECORD, { id, input: { round: 1, board: b1.board, outcome: 'DRAW', gamePoints: ['1', '1'] } }, organizer);
  expect(draw.data.recordResult).toMatchObject({ __typename: 'Rejection', code: 'INVALID_RESULT' });
  expect(draw.data.recordResult.message).toMatch(/R3\.9.*backgammon has no draws.*backgammon\.md §12\.3/);
  expect(await events(id)).toEqual(before);
  expect((await gql(GAME, { id: b1.games[0].gameId })).game.status).not.toBe('FINISHED');

  // The record (gnubg, seat 0, wins 2-0) gives the game points; an outcome it does not say is refused.
  const record = readFileSync('test/fixtures/backgammon/match-1-pt-seed64352.mat', 'utf8');
  const wrong = await t.gql(RECORD, { id, input: { round: 1, board: b1.board, outcome: 'WIN_SEAT1', record } }, organizer);
  expect(wrong.data.recordResult).toMatchObject({ __typename: 'Rejection', code: 'RECORD_DISAGREES' });
  await gql(RECORD, { id, input: { round: 1, board: b1.board, outcome: 'WIN_SEAT0', record } }, organizer);
  await gql(RECORD, { id, input: { round: 1, board: b2.board, outcome: 'WIN_SEAT1', gamePoints: ['0', '1'] } }, organizer);
  const final = (await gql(STATE, { id })).tournament;
  expect(final.status).toBe('FINISHED');
  const [r1, r2] = final.rounds[0].boards.map((b: any) => b.games[0].result);
  expect(r1).toMatchObject({ kinds: ['PLAYED', 'PLAYED'], gamePoints: ['2', '0'], ranking: [[0], [1]] });
  expect(r1.recordGameId).toEqual(expect.any(String));
  expect(r2).toMatchObject({ gamePoints: ['0', '1'], ranking: [[1], [0]] });

  // Offline: the bundle verifies; forged to hold a DRAW on board 2, it is INVALID at that event, naming the rule.
  const bundle = JSON.parse((await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/bundle`)).text) as TournamentBundle;
  const registry = t.app.get(EngineRegistry);
  expect(verifyTournamentBundle(registry, bundle).ok).toBe(true);
  const at = bundle.events.findIndex((e) => e.type === 'ResultRecorded' && e.payload.board === b2.board);
  const forged = rechained(bundle, at, { ranking: [[0, 1]], seats: (bundle.events[at].payload.seats as any[]).map((s) => ({ ...s, gamePoints: '1' })) });
  const verdict = verifyTournamentBundle(registry, forged);
  expect(verdict).toMatchObject({ ok: false, badSeq: bundle.events[at].seq });
  expect(verdict.problem).toMatch(/no backgammon game ends this way \(R3\.9\): backgammon has no draws/);
  const file = join(dir, 'forged.tournament.json');
  writeFileSync(file, JSON.stringify(forged));
  const cli = spawnSync(process.execPath, ['dist/src/cli/verify.js', file], { encoding: 'utf8' });
  expect(cli.stdout).toMatch(/^INVALID: FAILED at tournament event \d+: no backgammon game ends this way \(R3\.9\)/);
  expect(cli.status).toBe(1);
}, 300_000);
