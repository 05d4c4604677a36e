import pg from 'pg';
import request from 'supertest';
import { startApp, type TestApp } from '../support/app.js';
import { anotherInstance, swissOfTwo } from '../support/instances.js';
import { ownStorage } from '../support/own-database.js';

/**
 * Reads of a tournament only read: Query.tournament, GET /api/tournaments/:id and its bundle
 * issue no INSERT, UPDATE or DELETE, even while a scheduled game has ended and its result is not
 * recorded yet (the workflows record it, or the next command that needs it). Every statement
 * the service sends is seen through pg's client, on PGlite and PostgreSQL alike. On a database
 * of its own: another suite's service starting meanwhile would catch the result up.
 */
const statements: { text: string; values: string }[] = [];
const query = pg.Client.prototype.query;

let storage: Awaited<ReturnType<typeof ownStorage>>;
let t: TestApp;
beforeAll(async () => {
  storage = await ownStorage('tournament-reads');
  // Installed before the service connects: its clients forward every statement through it.
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args as [string | { text?: string; values?: unknown }, unknown];
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const values = typeof first === 'string' ? second : first?.values;
    statements.push({ text, values: Array.isArray(values) ? JSON.stringify(values) : '' });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  t = await startApp(storage.settings);
}, 120_000);
afterAll(async () => {
  await t?.close();
  pg.Client.prototype.query = query;
  await storage?.drop();
}, 120_000);

const WRITE = /\b(INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b/i;
/** The writes sent since `from` that concern these streams (the service's background workers write their own rows meanwhile). */
const writesAbout = (from: number, ids: string[]) =>
  statements
    .slice(from)
    .filter((s) => WRITE.test(s.text) && ids.some((id) => s.values.includes(id)))
    .map((s) => s.text.trim().split('\n')[0]);

const TOURNAMENT = `query($id: ID!) { tournament(id: $id) { status rounds { boards { games { gameId result { source } } } } standings { rank } } }`;
const FINISH = `mutation($id: ID!) { finishTournament(tournamentId: $id) { __typename ... on Tournament { status } ... on Rejection { code message } } }`;

describe('reads of a tournament', () => {
  it('issue no INSERT or UPDATE, even with a game ended whose result is not recorded yet; the next command records it', async () => {
    // A process whose workflows never run schedules the game, and the game ends there.
    const other = anotherInstance(t.app);
    const { id, organizerToken, game, loser } = await swissOfTwo(other, { kind: 'backgammon', ruleset: { matchLength: 1 } });
    expect(await other.referee.resign(game.gameId, loser, 'concede')).toMatchObject({ accepted: true, status: 'FINISHED' });

    const before = statements.length;
    const read = await t.gql(TOURNAMENT, { id });
    expect(read.data.tournament).toMatchObject({ status: 'RUNNING', rounds: [{ boards: [{ games: [{ gameId: game.gameId, result: null }] }] }] });
    expect((await request(t.app.getHttpServer()).get(`/api/tournaments/${id}`)).status).toBe(200);
    const bundle = await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/bundle`);
    expect(bundle.status).toBe(200);
    expect(JSON.parse(bundle.text).events.map((e: { type: string }) => e.type)).not.toContain('ResultRecorded');
    expect(statements.length).toBeGreaterThan(before);
    expect(writesAbout(before, [id, game.gameId])).toEqual([]);

    // A command that needs every result takes the workflow's step first: its writes are seen.
    const commanded = statements.length;
    const finish = await t.gql(FINISH, { id }, organizerToken);
    expect(finish.data.finishTournament).toMatchObject({ __typename: 'Rejection', code: 'TOURNAMENT_FINISHED' });
    expect(writesAbout(commanded, [id]).length).toBeGreaterThan(0);
    expect((await t.gql(TOURNAMENT, { id })).data.tournament).toMatchObject({ status: 'FINISHED', rounds: [{ boards: [{ games: [{ result: { source: 'GAME' } }] }] }] });
  });
});
