import { startApp, type TestApp } from './app.js';
import { ownStorage } from './own-database.js';

/** Players, rated games and their rating changes over GraphQL, for the ratings suites (docs/ratings.md). */

const CREATE_PLAYER = `mutation($name: String!) { createPlayer(name: $name) { ... on PlayerCreated { player { id } key { secret } } ... on Rejection { code message } } }`;
const RESIGN = `mutation($id: ID!, $moveId: String!) { resignGame(gameId: $id, moveId: $moveId) { __typename ... on MoveAccepted { status } ... on Rejection { code message } } }`;
export const RATED_GAME = `query($id: ID!) { game(id: $id) { rated status ratingChanges { playerId kind family seat place change before { rating rd games } after { rating rd volatility games } } } }`;

export type Player = { id: string; key: string };

/** A query's or mutation's answer (its first field), with no error. */
export async function ok(on: TestApp, query: string, variables: Record<string, unknown>, key?: string): Promise<any> {
  const res = await on.gql(query, variables, key);
  expect(res.errors).toBeUndefined();
  return Object.values(res.data)[0];
}

export async function newPlayer(on: TestApp, name: string): Promise<Player> {
  const created = await ok(on, CREATE_PLAYER, { name });
  return { id: created.player.id, key: created.key.secret };
}

export async function resign(on: TestApp, gameId: string, loser: Player): Promise<void> {
  expect(await ok(on, RESIGN, { id: gameId, moveId: `resign-${gameId}` }, loser.key)).toMatchObject({ __typename: 'MoveAccepted', status: 'FINISHED' });
}

/** A game's rating changes, once its workflow stored them (the answer to the last move waits for it here; another instance's may come a moment later). */
export async function changesOf(on: TestApp, gameId: string): Promise<any[]> {
  for (let i = 0; i < 100; i++) {
    const game = await ok(on, RATED_GAME, { id: gameId });
    if (game.ratingChanges.length > 0) return game.ratingChanges;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`game ${gameId} was not rated`);
}

/** A suite's app on storage of its own (its leaderboards hold its players only), closed and dropped after it. */
export function suiteApp(name: string): () => TestApp {
  let t: TestApp;
  let storage: Awaited<ReturnType<typeof ownStorage>>;
  beforeAll(async () => {
    storage = await ownStorage(name);
    t = await startApp(storage.settings);
  });
  afterAll(async () => {
    await t?.close();
    await storage?.drop();
  });
  return () => t;
}

/** Two instances of the service over one database of the suite's own (PostgreSQL), closed and dropped after it. */
export function twoApps(name: string): () => [TestApp, TestApp] {
  let a: TestApp;
  let b: TestApp;
  let storage: Awaited<ReturnType<typeof ownStorage>>;
  beforeAll(async () => {
    storage = await ownStorage(name);
    a = await startApp(storage.settings);
    b = await startApp(storage.settings);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await storage?.drop();
  });
  return () => [a, b];
}
