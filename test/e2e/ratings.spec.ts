import { spawnSync } from 'node:child_process';
import request from 'supertest';
import { DatabaseService } from '../../src/database/database.service.js';
import { RatingService } from '../../src/referee/application/ratings.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { EventStore } from '../../src/referee/store/event-store.js';
import { PostgresRatingStore } from '../../src/referee/store/postgres-rating-store.js';
import { startApp, type TestApp } from '../support/app.js';
import { changesOf, newPlayer, ok, type Player, RATED_GAME, resign, suiteApp, twoApps } from '../support/rated-players.js';
import { anotherInstance } from '../support/instances.js';
import { ownStorage } from '../support/own-database.js';

/**
 * Ratings end to end (issue 30, docs/ratings.md): players play rated backgammon (created
 * directly) and Cerke (by a challenge, on a live clock) games and a rated Chicken Foot table of
 * four; their ratings, histories, the leaderboards and the games' rating changes follow, and the
 * stored ratings recompute exactly from the games. A pool rates a game once, also when two
 * instances' workflows race for it. On PGlite, or PostgreSQL with TEST_DATABASE_URL (then also on
 * two instances over one database).
 */
const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on GameCreated { game { id rated status } } ... on Rejection { code message } } }`;
const TYPED = `mutation($input: CerkeGameInput!) { createCerkeGame(input: $input) { __typename ... on GameCreated { game { rated } } ... on Rejection { code message } } }`;
const ISSUE = `mutation($input: IssueChallengeInput!) { issueChallenge(input: $input) { __typename ... on Challenge { id rated } ... on Rejection { code message } } }`;
const ACCEPT = `mutation($id: ID!) { acceptChallenge(id: $id) { __typename ... on ChallengeAccepted { game { id rated } } ... on Rejection { code message } } }`;
const RATINGS = `query($id: ID!) { player(id: $id) { id name ratings { kind family rating rd volatility provisional games lastPlayedAt
  history(first: 10) { edges { cursor node { gameId change place } } pageInfo { hasNextPage endCursor } } } } }`;
const BOARD = `query($kind: String!, $family: RatingFamily!, $first: Int, $after: String) { leaderboard(kind: $kind, family: $family, first: $first, after: $after) {
  nodes { playerId name rating provisional games } pageInfo { hasNextPage endCursor } } }`;

async function ratedGame(on: TestApp, kind: string, players: Player[], extra: Record<string, unknown> = {}): Promise<string> {
  const created = await ok(on, CREATE, { input: { kind, rated: true, seats: players.map((p) => ({ player: p.id })), ...extra } }, players[0].key);
  expect(created).toMatchObject({ __typename: 'GameCreated', game: { rated: true, status: 'ACTIVE' } });
  return created.game.id;
}

describe('ratings on one instance', () => {
  const app = suiteApp('ratings');
  let t: TestApp;
  beforeAll(() => {
    t = app();
  });

  it('refuses a rated game with a seat that is not a player’s, storing nothing', async () => {
    const ann = await newPlayer(t, 'Ann');
    const refused = await ok(t, CREATE, { input: { kind: 'backgammon', rated: true, seats: [{ player: ann.id }, { name: 'guest' }] } }, ann.key);
    expect(refused).toMatchObject({ __typename: 'Rejection', code: 'RATED_NEEDS_PLAYERS' });
    // The typed create mutations take `rated` too.
    const bob = await newPlayer(t, 'Bob');
    const typed = (seats: unknown[]) => ok(t, TYPED, { input: { rated: true, seats } }, ann.key);
    expect(await typed([{ player: ann.id }, { open: true }])).toMatchObject({ __typename: 'Rejection', code: 'RATED_NEEDS_PLAYERS' });
    expect(await typed([{ player: ann.id }, { player: bob.id }])).toMatchObject({ __typename: 'GameCreated', game: { rated: true } });
  });

  it('rates backgammon and Cerke between two players, and a Chicken Foot table of four; histories, leaderboards and recomputation agree', async () => {
    const [ann, bob, cat, dan] = [await newPlayer(t, 'Ann'), await newPlayer(t, 'Bob'), await newPlayer(t, 'Cat'), await newPlayer(t, 'Dan')];

    // Backgammon, untimed: Bob resigns, Ann wins.
    const bg = await ratedGame(t, 'backgammon', [ann, bob]);
    await resign(t, bg, bob);
    const bgChanges = await changesOf(t, bg);
    expect(bgChanges).toMatchObject([
      { playerId: ann.id, kind: 'backgammon', family: 'UNTIMED', seat: 0, place: 1, before: { rating: 1500, rd: 350, games: 0 }, after: { games: 1 } },
      { playerId: bob.id, seat: 1, place: 2, before: { rating: 1500, rd: 350, games: 0 }, after: { games: 1 } },
    ]);
    expect(bgChanges[0].change).toBeGreaterThan(0);
    expect(bgChanges[1].change).toBeCloseTo(-bgChanges[0].change, 5);
    expect(bgChanges[0].after.volatility).toBeCloseTo(0.06, 3);

    // Cerke by a rated challenge on a live clock: Ann resigns this time.
    const challenge = await ok(t, ISSUE, { input: { to: bob.id, kind: 'cerke', rated: true, timeControl: { kind: 'FISCHER', baseSeconds: 600, incrementSeconds: 5 } } }, ann.key);
    expect(challenge).toMatchObject({ __typename: 'Challenge', rated: true });
    const accepted = await ok(t, ACCEPT, { id: challenge.id }, bob.key);
    expect(accepted.game.rated).toBe(true);
    await resign(t, accepted.game.id, ann);
    const cerke = await changesOf(t, accepted.game.id);
    expect(cerke.find((c: any) => c.playerId === bob.id)).toMatchObject({ kind: 'cerke', family: 'LIVE', place: 1 });

    // Chicken Foot, four at a table: Dan resigns, the others tie for first.
    const cf = await ratedGame(t, 'chicken-foot', [ann, bob, cat, dan], { ruleset: { players: 4, setMax: 6, handSize: 5 } });
    await resign(t, cf, dan);
    const table = await changesOf(t, cf);
    expect(table.map((c: any) => c.place)).toEqual([1, 1, 1, 4]);
    expect(table[3].change).toBeLessThan(0);
    expect(table[0].change).toBeCloseTo(table[1].change, 6);
    expect(table[0].after.volatility).toBeNull();

    // Ann's ratings: one per pool, provisional, each with its history.
    const annRatings = (await ok(t, RATINGS, { id: ann.id })).ratings;
    expect(annRatings.map((r: any) => `${r.kind}/${r.family}`).sort()).toEqual(['backgammon/UNTIMED', 'cerke/LIVE', 'chicken-foot/UNTIMED']);
    const annBg = annRatings.find((r: any) => r.kind === 'backgammon');
    expect(annBg).toMatchObject({ rating: bgChanges[0].after.rating, rd: bgChanges[0].after.rd, provisional: true, games: 1 });
    expect(annBg.history.edges.map((e: any) => e.node)).toEqual([{ gameId: bg, change: bgChanges[0].change, place: 1 }]);

    // A second backgammon game: the history pages newest first.
    const bg2 = await ratedGame(t, 'backgammon', [bob, ann]);
    await resign(t, bg2, ann);
    await changesOf(t, bg2);
    const history = (await ok(t, RATINGS, { id: ann.id })).ratings.find((r: any) => r.kind === 'backgammon').history;
    expect(history.edges.map((e: any) => e.node.gameId)).toEqual([bg2, bg]);

    // The leaderboards: the highest first, paged.
    const board = await ok(t, BOARD, { kind: 'chicken-foot', family: 'UNTIMED', first: 3 });
    expect(board.nodes).toHaveLength(3);
    expect(board.nodes.map((n: any) => n.playerId)).not.toContain(dan.id);
    expect(board.pageInfo.hasNextPage).toBe(true);
    const rest = await ok(t, BOARD, { kind: 'chicken-foot', family: 'UNTIMED', first: 3, after: board.pageInfo.endCursor });
    expect(rest.nodes).toMatchObject([{ playerId: dan.id, name: 'Dan', games: 1, provisional: true }]);
    const bgBoard = await ok(t, BOARD, { kind: 'backgammon', family: 'UNTIMED' });
    expect(bgBoard.nodes.map((n: any) => n.games)).toEqual([2, 2]);

    // The same over REST.
    const get = (path: string) => request(t.app.getHttpServer()).get(path);
    const annRest = await get(`/api/players/${ann.id}/ratings`);
    expect(annRest.status).toBe(200);
    expect(annRest.body.ratings.find((r: any) => r.kind === 'backgammon')).toMatchObject({ family: 'untimed', games: 2, provisional: true });
    const historyRest = await get(`/api/players/${ann.id}/ratings/backgammon/untimed/history?first=1`);
    expect(historyRest.body).toMatchObject({ changes: [{ gameId: bg2, place: 2 }], hasNextPage: true });
    const older = await get(`/api/players/${ann.id}/ratings/backgammon/untimed/history?first=1&after=${historyRest.body.endCursor}`);
    expect(older.body).toMatchObject({ changes: [{ gameId: bg, place: 1, change: bgChanges[0].change }], hasNextPage: false });
    const boardRest = await get('/api/leaderboards/chicken-foot/untimed?first=3');
    expect(boardRest.body.ratings.map((r: any) => r.playerId)).toEqual(board.nodes.map((n: any) => n.playerId));
    expect((await get('/api/players/pl-nobody/ratings')).status).toBe(404);
    expect((await get('/api/leaderboards/backgammon/blitz')).body.error.code).toBe('INVALID_INPUT');

    // Recomputed from the games' stored events: every stored update agrees.
    const recomputed = await t.app.get(RatingService).recomputeAll();
    expect(recomputed).toEqual({ pools: 3, games: 4, mismatches: [] });
  });

  it('rates a game once: a second workflow racing for it, and its queue row taken again after it was rated, store nothing more', async () => {
    const [eve, fay] = [await newPlayer(t, 'Eve'), await newPlayer(t, 'Fay')];
    const game = await ratedGame(t, 'cerke', [eve, fay]);
    await resign(t, game, fay);
    const first = await changesOf(t, game);
    const db = t.app.get(DatabaseService);
    const other = new RatingService(new PostgresRatingStore(db), anotherInstance(t.app).referee, t.app.get(EventStore), t.app.get(EngineRegistry));
    const [{ rows: events }] = [await db.pool.query("SELECT payload FROM rating_events WHERE pool_id = 'ratings:cerke:untimed' AND payload->>'gameId' = $1", [game])];
    const rated = events[0].payload;
    const again = {
      gameId: game,
      kind: 'cerke',
      family: 'untimed' as const,
      finalHash: rated.finalHash,
      endedAt: rated.endedAt,
      seats: rated.seats.map((s: any) => ({ player: s.player, place: s.place })),
    };
    await db.pool.query('INSERT INTO rating_queue (game_id, game) VALUES ($1, $2)', [game, JSON.stringify(again)]);
    await Promise.all([other.drain(), t.app.get(RatingService).drain(), other.rate(again)]);
    const { rows } = await db.pool.query("SELECT count(*)::int AS n FROM rating_events WHERE payload->>'gameId' = $1", [game]);
    expect(rows[0].n).toBe(1);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM rating_queue')).rows[0].n).toBe(0);
    expect(await changesOf(t, game)).toEqual(first);

    // Two workflows opening a new pool with the same game at once: one update is stored.
    const opening = { ...again, gameId: 'race-1', family: 'correspondence' as const };
    await Promise.all([other.rate(opening), t.app.get(RatingService).rate(opening), other.rate(opening)]);
    const { rows: raced } = await db.pool.query("SELECT type FROM rating_events WHERE pool_id = 'ratings:cerke:correspondence' ORDER BY seq");
    expect(raced.map((r: { type: string }) => r.type)).toEqual(['PoolOpened', 'GameRated']);
  });
});

describe('ratings after a stop', () => {
  const app = suiteApp('ratings_stop');
  let t: TestApp;
  beforeAll(() => {
    t = app();
  });

  it('keeps a game that ended while no workflow ran in the queue, and the next start rates it', async () => {
    const [ann, bob] = [await newPlayer(t, 'Ann'), await newPlayer(t, 'Bob')];
    // The workflow stops (as a process stopping between the game's end and its rating would).
    await t.app.get(RatingService).stop();
    const game = await ratedGame(t, 'backgammon', [ann, bob]);
    await resign(t, game, ann);
    const db = t.app.get(DatabaseService);
    expect((await db.pool.query('SELECT game_id FROM rating_queue')).rows).toEqual([{ game_id: game }]);
    expect((await ok(t, RATED_GAME, { id: game })).ratingChanges).toEqual([]);
    // The next start (a new service over the same database) takes the queue.
    const restarted = new RatingService(new PostgresRatingStore(db), anotherInstance(t.app).referee, t.app.get(EventStore), t.app.get(EngineRegistry));
    restarted.onApplicationBootstrap();
    await restarted.drain();
    expect((await changesOf(t, game)).map((c: any) => c.place)).toEqual([2, 1]);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM rating_queue')).rows[0].n).toBe(0);
    await restarted.onModuleDestroy();
  });
});

describe('npm run ratings:recompute', () => {
  let storage: Awaited<ReturnType<typeof ownStorage>>;
  afterAll(async () => {
    await storage?.drop();
  });

  /** The built command on the suite's database (the service stopped: PGlite has one user). */
  const recompute = () => {
    const { databaseUrl, dataDir } = storage.settings;
    const env: NodeJS.ProcessEnv = { ...process.env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir as string }) };
    if (!databaseUrl) delete env.DATABASE_URL;
    return spawnSync(process.execPath, ['dist/src/cli/ratings.js'], { encoding: 'utf8', env });
  };

  it('agrees with every stored rating, and says which update a changed game no longer gives', async () => {
    storage = await ownStorage('ratings_cli');
    const t = await startApp(storage.settings);
    const [ann, bob] = [await newPlayer(t, 'Ann'), await newPlayer(t, 'Bob')];
    const game = await ratedGame(t, 'cerke', [ann, bob]);
    await resign(t, game, bob);
    await changesOf(t, game);
    await t.close();
    const agreed = recompute();
    expect(agreed.stdout).toContain('1 pools, 1 rated games recomputed');
    expect(agreed.stdout).toContain('every stored rating agrees');
    expect(agreed.status).toBe(0);

    // The game's end altered in the database: its events no longer verify, and its rating is reported.
    const again = await startApp(storage.settings);
    await again.app.get(DatabaseService).pool.query(`UPDATE events SET payload = jsonb_set(payload, '{outcome,winners}', '[1]') WHERE game_id = $1 AND type = 'GameEnded'`, [game]);
    await again.close();
    const differs = recompute();
    expect(differs.stdout).toContain(`MISMATCH ratings:cerke:untimed event 2 (game ${game})`);
    expect(differs.status).toBe(1);
  });
});

(process.env.TEST_DATABASE_URL ? describe : describe.skip)('ratings on two instances over one database (PostgreSQL)', () => {
  const apps = twoApps('ratings_two');
  let a: TestApp;
  let b: TestApp;
  beforeAll(() => {
    [a, b] = apps();
  });

  it('rates games played on either instance once, and each instance reads the same ratings and leaderboard', async () => {
    const [ann, bob] = [await newPlayer(a, 'Ann'), await newPlayer(b, 'Bob')];
    const one = await ratedGame(a, 'backgammon', [ann, bob]);
    await resign(b, one, bob);
    const two = await ratedGame(b, 'backgammon', [ann, bob]);
    await resign(a, two, ann);
    expect(await changesOf(a, one)).toEqual(await changesOf(b, one));
    expect(await changesOf(a, two)).toEqual(await changesOf(b, two));
    expect(await ok(a, RATINGS, { id: ann.id })).toEqual(await ok(b, RATINGS, { id: ann.id }));
    const board = await ok(b, BOARD, { kind: 'backgammon', family: 'UNTIMED' });
    expect(board.nodes.map((n: any) => n.games)).toEqual([2, 2]);
    const recomputed = await a.app.get(RatingService).recomputeAll();
    expect(recomputed).toEqual({ pools: 1, games: 2, mismatches: [] });
  });
});
