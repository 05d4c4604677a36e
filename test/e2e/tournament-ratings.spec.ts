import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { type TournamentBundle, verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import type { TestApp } from '../support/app.js';
import { changesOf, newPlayer, ok, type Player, RATED_GAME, resign, suiteApp, twoApps } from '../support/rated-players.js';

/**
 * Tournaments and ratings end to end (issue 30, docs/ratings.md "Tournaments"): a Swiss of
 * players registered without ratings is seeded by their ratings in the tournament's pool, the
 * ratings it used are in its own events and its bundle verifies offline; a rated tournament
 * registers players only and its games are rated. On PGlite, or PostgreSQL with
 * TEST_DATABASE_URL (then also on two instances over one database).
 */
const CREATE_GAME = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on GameCreated { game { id } } ... on Rejection { code message } } }`;
const RATINGS = `query($id: ID!) { player(id: $id) { ratings { kind family rating } } }`;
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id config } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!, $rating: Int, $player: ID) {
  registerParticipant(tournamentId: $id, name: $name, rating: $rating, player: $player) { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament {
  participants { id name rating } rounds { byes { id } boards { seats { id name } games { gameId } } } } ... on Rejection { code message } } }`;

type Named = Player & { name: string };

/** A player, named as it registers. */
const named = async (on: TestApp, name: string): Promise<Named> => ({ ...(await newPlayer(on, name)), name });

/** A rated untimed backgammon game between `winner` and `loser`, played out and rated. */
async function beats(on: TestApp, winner: Named, loser: Named): Promise<void> {
  const created = await ok(on, CREATE_GAME, { input: { kind: 'backgammon', rated: true, seats: [{ player: winner.id }, { player: loser.id }] } }, winner.key);
  await resign(on, created.game.id, loser);
  await changesOf(on, created.game.id);
}

async function currentRating(on: TestApp, player: Named, kind = 'backgammon'): Promise<number> {
  const ratings = (await ok(on, RATINGS, { id: player.id })).ratings;
  return ratings.find((r: any) => r.kind === kind && r.family === 'UNTIMED').rating;
}

async function exported(on: TestApp, id: string): Promise<TournamentBundle> {
  const res = await request(on.app.getHttpServer()).get(`/api/tournaments/${id}/bundle`);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as TournamentBundle;
}

describe('tournaments seeded by ratings', () => {
  const app = suiteApp('tournament_ratings');
  let t: TestApp;
  let dir: string;
  beforeAll(() => {
    t = app();
    dir = mkdtempSync(join(tmpdir(), 'tournament-ratings-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds a Swiss of registered players by their ratings when the organizer types none, records them in its events, and its bundle verifies', async () => {
    const [ann, bob, cat, dan, eve] = await Promise.all(['Ann', 'Bob', 'Cat', 'Dan', 'Eve'].map((n) => named(t, n)));
    // Ann > Cat > Dan > Bob in the backgammon pool; Eve has played no rated game.
    await beats(t, ann, bob);
    await beats(t, cat, dan);
    await beats(t, ann, cat);
    await beats(t, dan, bob);
    const rated = new Map<string, number>();
    for (const p of [ann, bob, cat, dan]) rated.set(p.name, await currentRating(t, p));

    const created = await ok(t, CREATE, { input: { name: 'Rated Swiss', kind: 'backgammon', format: 'SWISS', rounds: 2, openRegistration: true } });
    const { id } = created.tournament;
    const organizer = created.organizerToken;
    const register = (name: string, vars: Record<string, unknown>, token: string) => ok(t, REGISTER, { id, name, ...vars }, token);
    // Registered in an order unlike their ratings: players by their own keys, Bob by the organizer naming him, Eve unrated.
    expect(await register('Bob', { player: bob.id }, organizer)).toMatchObject({ __typename: 'ParticipantRegistered' });
    expect(await register('Dan', {}, dan.key)).toMatchObject({ __typename: 'ParticipantRegistered' });
    expect(await register('Eve', {}, eve.key)).toMatchObject({ __typename: 'ParticipantRegistered' });
    expect(await register('Ann', {}, ann.key)).toMatchObject({ __typename: 'ParticipantRegistered' });
    // A player's key does not type its own rating; the organizer's typed rating wins over the pool's.
    expect(await register('Cat', { rating: 3000 }, cat.key)).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
    expect(await register('Cat', { player: cat.id, rating: 100 }, organizer)).toMatchObject({ __typename: 'ParticipantRegistered' });

    const paired = await ok(t, PAIR, { id }, organizer);
    const ratingOf = new Map(paired.participants.map((p: any) => [p.name, p.rating]));
    expect(Object.fromEntries(ratingOf)).toEqual({ Bob: Math.round(rated.get('Bob')!), Dan: Math.round(rated.get('Dan')!), Eve: 0, Ann: Math.round(rated.get('Ann')!), Cat: 100 });
    // Round 1 by rating (S5): Ann, Dan, Bob, Cat, Eve; the lowest, Eve, has the bye; the top half meets the bottom half.
    const [round] = paired.rounds;
    expect(round.byes.map((b: any) => paired.participants.find((p: any) => p.id === b.id).name)).toEqual(['Eve']);
    expect(round.boards.map((b: any) => b.seats.map((s: any) => s.name).sort())).toEqual([
      ['Ann', 'Bob'],
      ['Cat', 'Dan'],
    ]);

    // The ratings used are the tournament's own events: each taken one names its pool's event.
    const bundle = await exported(t, id);
    const registered = bundle.events.filter((e) => e.type === 'ParticipantRegistered').map((e) => e.payload as Record<string, any>);
    expect(registered.find((p) => p.name === 'Ann')).toMatchObject({ rating: Math.round(rated.get('Ann')!), ratingFrom: { pool: 'ratings:backgammon:untimed', seq: expect.any(Number) } });
    expect(registered.find((p) => p.name === 'Cat')).not.toHaveProperty('ratingFrom');
    expect(registered.find((p) => p.name === 'Eve')).toMatchObject({ rating: 0 });
    expect(registered.find((p) => p.name === 'Eve')).not.toHaveProperty('ratingFrom');

    // Offline, from the events alone: the verifier pairs round 1 again and agrees.
    expect(verifyTournamentBundle(t.app.get(EngineRegistry), bundle).ok).toBe(true);
    const file = join(dir, 'rated-swiss.tournament.json');
    writeFileSync(file, JSON.stringify(bundle));
    const cli = spawnSync(process.execPath, ['dist/src/cli/verify.js', file], { encoding: 'utf8' });
    expect(cli.stdout).toMatch(/^VALID: /);
    expect(cli.status).toBe(0);
  });

  it('rates a rated tournament’s games, and registers players only', async () => {
    const [ann, bob] = await Promise.all(['Ann', 'Bob'].map((n) => named(t, n)));
    const created = await ok(t, CREATE, { input: { name: 'Rated Cerke', kind: 'cerke', format: 'SWISS', rounds: 1, rated: true } });
    expect(created.tournament.config).toMatchObject({ rated: true });
    const { id } = created.tournament;
    const organizer = created.organizerToken;
    // A participant who is no player is refused, and nothing is stored.
    expect(await ok(t, REGISTER, { id, name: 'Guest' }, organizer)).toMatchObject({ __typename: 'Rejection', code: 'RATED_NEEDS_PLAYERS' });
    const bulk = await request(t.app.getHttpServer())
      .post(`/api/tournaments/${id}/participants`)
      .set('authorization', `Bearer ${organizer}`)
      .set('content-type', 'text/csv')
      .send(`name,player\nAnn,${ann.id}\nGuest,\n`);
    expect(bulk.status).toBe(422);
    expect(bulk.body.error).toMatchObject({ code: 'ROWS_REFUSED', rows: [{ row: 2, code: 'RATED_NEEDS_PLAYERS' }] });
    for (const p of [ann, bob]) await ok(t, REGISTER, { id, name: p.name, player: p.id }, organizer);

    const paired = await ok(t, PAIR, { id }, organizer);
    expect(paired.participants).toHaveLength(2);
    const { gameId } = paired.rounds[0].boards[0].games[0];
    expect(await ok(t, RATED_GAME, { id: gameId })).toMatchObject({ rated: true, status: 'ACTIVE' });
    await resign(t, gameId, bob);
    const changes = await changesOf(t, gameId);
    expect(changes.find((c: any) => c.playerId === ann.id)).toMatchObject({ place: 1 });
    expect(changes.find((c: any) => c.playerId === bob.id).change).toBeLessThan(0);
    expect(await currentRating(t, ann, 'cerke')).toBeGreaterThan(1500);
  });
});

(process.env.TEST_DATABASE_URL ? describe : describe.skip)('tournaments seeded by ratings on two instances over one database (PostgreSQL)', () => {
  const apps = twoApps('tournament_ratings_two');
  let a: TestApp;
  let b: TestApp;
  beforeAll(() => {
    [a, b] = apps();
  });

  it('takes a rating one instance stored when another registers the player, and rates the tournament’s game once', async () => {
    const [ann, bob] = [await named(a, 'Ann'), await named(b, 'Bob')];
    await beats(a, ann, bob);
    const created = await ok(b, CREATE, { input: { kind: 'backgammon', format: 'SWISS', rounds: 1, rated: true } });
    const { id } = created.tournament;
    for (const p of [bob, ann]) await ok(b, REGISTER, { id, name: p.name, player: p.id }, created.organizerToken);
    const paired = await ok(a, PAIR, { id }, created.organizerToken);
    expect(paired.participants.map((p: any) => [p.name, p.rating])).toEqual([
      ['Bob', Math.round(await currentRating(a, bob))],
      ['Ann', Math.round(await currentRating(a, ann))],
    ]);
    const { gameId } = paired.rounds[0].boards[0].games[0];
    await resign(b, gameId, ann);
    expect(await changesOf(a, gameId)).toEqual(await changesOf(b, gameId));
    expect(verifyTournamentBundle(a.app.get(EngineRegistry), await exported(b, id)).ok).toBe(true);
  });
});
