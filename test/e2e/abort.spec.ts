import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { verifyFile } from '../../src/cli/verify.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { DeadlineStore } from '../../src/referee/store/deadline-store.js';
import { startApp, type TestApp } from '../support/app.js';
import { ACT, CREATE, EVENTS, GAME, VERIFY } from '../support/queries.js';

/**
 * abortGame end to end (docs/time-controls.md, "Aborting a game"): a game nobody moved in is
 * ended by either seat with no result, its clocks stopped and its deadline dropped; once a seat
 * moved it is refused with ABORT_TOO_LATE; a spectator, another game's token and a tournament's
 * game are refused; an aborted game verifies, online and offline.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 120_000);

const ABORT = `mutation($g: ID!) { abortGame(gameId: $g) {
  __typename ... on MoveAccepted { seat version status result events { type actor payload } } ... on Rejection { code message } } }`;
const CLOCK = `query($id: ID!) { game(id: $id) { status result clock { running deadline } } }`;
const CORRESPONDENCE = { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400 };

async function create(kind: string, ruleset: unknown, timeControl?: unknown, seats?: unknown[]) {
  const res = await t.gql(CREATE, { input: { kind, ruleset, timeControl, seats } });
  expect(res.data.createGame.__typename).toBe('GameCreated');
  return { id: res.data.createGame.game.id as string, tokens: (res.data.createGame.tokens as { token: string }[]).map((x) => x.token) };
}
const game = async (id: string, token?: string) => (await t.gql(GAME, { id }, token)).data.game;
const abort = async (id: string, token?: string) => (await t.gql(ABORT, { g: id }, token)).data.abortGame;
const types = async (id: string) => ((await t.gql(EVENTS, { gameId: id })).data.gameEvents.nodes as { type: string }[]).map((e) => e.type);
const deadlineRow = async (id: string) => {
  const rows = t.app.get(DeadlineStore);
  await rows.flushed();
  return rows.get(id);
};

describe(`aborting a game (${process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'})`, () => {
  it.each([0, 1])('seat %i aborts a correspondence backgammon game before any move: ABORTED, no result, clocks stopped, deadline dropped', async (seat) => {
    const { id, tokens } = await create('backgammon', {}, CORRESPONDENCE);
    // The opening roll (again on a tie) is the referee's: it does not count as a move.
    expect((await types(id)).filter((type) => type === 'OpeningRoll').length).toBeGreaterThanOrEqual(1);
    expect((await t.gql(CLOCK, { id })).data.game.clock.running).toHaveLength(1);
    expect(await deadlineRow(id)).not.toBeNull();

    const aborted = await abort(id, tokens[seat]);
    expect(aborted).toMatchObject({ __typename: 'MoveAccepted', seat, status: 'ABORTED', result: null });
    expect(aborted.events.map((e: { type: string }) => e.type)).toEqual(['GameAborted', 'SeedRevealed']);
    expect(aborted.events[0]).toMatchObject({ actor: seat, payload: { seat } });
    expect((await t.gql(CLOCK, { id })).data.game).toEqual({ status: 'ABORTED', result: null, clock: { running: [], deadline: null } });
    expect(await deadlineRow(id)).toBeNull();
    // Nothing more can happen in it.
    expect(await abort(id, tokens[1 - seat])).toMatchObject({ __typename: 'Rejection', code: 'GAME_OVER' });
    const mine = await game(id, tokens[0]);
    expect(mine.legalActions).toEqual([]);
    const REST = (await request(t.app.getHttpServer()).get(`/api/games/${id}`).expect(200)).body;
    expect(REST).toMatchObject({ status: 'ABORTED', result: null });
    // Listed by its status.
    const listed = (await t.gql('{ games(filter: { status: ABORTED }, first: 50) { nodes { id status } } }')).data.games.nodes;
    expect(listed).toContainEqual({ id, status: 'ABORTED' });
  });

  it('an aborted game verifies online and offline (npm run verify), telling who aborted it', async () => {
    const { id, tokens } = await create('chicken-foot', { preset: 'classic', players: 3 }, undefined, [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Carol' }]);
    expect(await abort(id, tokens[2])).toMatchObject({ __typename: 'MoveAccepted', status: 'ABORTED' });
    const online = (await t.gql(VERIFY, { gameId: id })).data.verifyGame;
    expect(online).toMatchObject({ ok: true, problem: null, fairnessChecked: true, summary: expect.stringContaining('result: Aborted by Carol before any move: no result') });
    const bundle = (await request(t.app.getHttpServer()).get(`/api/games/${id}/bundle`).expect(200)).body;
    expect(bundle.game.status).toBe('ABORTED');
    const dir = mkdtempSync(join(tmpdir(), 'aborted-'));
    try {
      const file = join(dir, 'game.json');
      writeFileSync(file, JSON.stringify(bundle));
      const verdict = verifyFile(file, t.app.get(EngineRegistry));
      expect(verdict).toMatchObject({ ok: true, eventsChecked: bundle.events.length, summary: expect.stringContaining('Aborted by Carol') });
      // The bundle's status is checked against its stream: a game cut before its abort does not pass as aborted.
      writeFileSync(file, JSON.stringify({ ...bundle, events: bundle.events.slice(0, -2), head: undefined }));
      expect(verifyFile(file, t.app.get(EngineRegistry)).ok).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a game with an open seat can be aborted by the seat that is taken', async () => {
    const { id, tokens } = await create('cerke', {}, undefined, [{ name: 'Alice' }, { open: true }]);
    expect((await game(id)).status).toBe('WAITING');
    expect(await abort(id, tokens[0])).toMatchObject({ __typename: 'MoveAccepted', status: 'ABORTED' });
    const join = await t.gql('mutation($g: ID!) { joinGame(gameId: $g) { __typename ... on Rejection { code } } }', { g: id });
    expect(join.data.joinGame).toMatchObject({ __typename: 'Rejection', code: 'SEAT_TAKEN' });
  });

  it('is refused with ABORT_TOO_LATE once a seat moved, by either seat, changing nothing', async () => {
    const { id, tokens } = await create('backgammon', {}, CORRESPONDENCE);
    const spectator = await game(id);
    const seat = spectator.toAct[0];
    const mine = await game(id, tokens[seat]);
    const moved = await t.gql(ACT, { gameId: id, moveId: 'first', action: mine.legalActions[0], expectedVersion: mine.version }, tokens[seat]);
    expect(moved.data.submitAction.__typename).toBe('MoveAccepted');
    const version = (await game(id)).version;
    for (const token of tokens) expect(await abort(id, token)).toMatchObject({ __typename: 'Rejection', code: 'ABORT_TOO_LATE' });
    expect(await game(id)).toMatchObject({ status: 'ACTIVE', version });
  });

  it('is refused for a spectator and for a token of another game, as any seat command', async () => {
    const { id } = await create('backgammon', {});
    const other = await create('backgammon', {});
    expect(await abort(id)).toMatchObject({ __typename: 'Rejection', code: 'UNAUTHORIZED' });
    expect(await abort(id, other.tokens[0])).toMatchObject({ __typename: 'Rejection', code: 'UNAUTHORIZED' });
    expect(await abort(id, 'not-a-token')).toMatchObject({ __typename: 'Rejection', code: 'UNAUTHORIZED' });
    expect((await game(id)).status).toBe('ACTIVE');
  });

  it("is refused with TOURNAMENT_GAME for a tournament's game: its organizer's rules decide it", async () => {
    const created = await t.gql(
      'mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }',
      {
        input: { name: 'No aborts', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 1 },
      },
    );
    const { organizerToken, tournament } = created.data.createTournament;
    const tokens: string[] = [];
    for (const name of ['Ann', 'Ben']) {
      const r = await t.gql(
        'mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantToken } ... on Rejection { code message } } }',
        { id: tournament.id, name },
        organizerToken,
      );
      tokens.push(r.data.registerParticipant.participantToken);
    }
    const paired = await t.gql(
      'mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { rounds { boards { games { gameId } } } } ... on Rejection { code message } } }',
      { id: tournament.id },
      organizerToken,
    );
    const gameId = paired.data.pairRound.rounds[0].boards[0].games[0].gameId;
    const refusals = await Promise.all(tokens.map((token) => abort(gameId, token)));
    for (const r of refusals) expect(r).toMatchObject({ __typename: 'Rejection', code: 'TOURNAMENT_GAME' });
    expect((await game(gameId)).status).toBe('ACTIVE');
  });
});
