import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestApp } from './app.js';
import type { WatchedBrowser } from './browser.js';
import { ACT, CREATE } from './queries.js';

/**
 * Players for the page's browser tests (issue 28): made and moved through the API, signed in on
 * the page as a player would, and each view checked with axe-core at a desktop's and a phone's width.
 */
export interface Player {
  id: string;
  key: string;
}

export async function newPlayer(app: TestApp, name: string): Promise<Player> {
  const res = await app.gql('mutation($name: String!) { createPlayer(name: $name) { __typename ... on PlayerCreated { player { id } key { secret } } ... on Rejection { code message } } }', { name });
  expect(res.errors).toBeUndefined();
  return { id: res.data.createPlayer.player.id, key: res.data.createPlayer.key.secret };
}

/** A 1-point backgammon match between two players' seats (named Ada and Bo), with a time control. */
export async function duel(app: TestApp, a: { id: string }, b: { id: string }, timeControl: Record<string, unknown>): Promise<string> {
  const seats = [
    { name: 'Ada', player: a.id },
    { name: 'Bo', player: b.id },
  ];
  const res = await app.gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, seats, timeControl } });
  expect(res.data?.createGame?.__typename).toBe('GameCreated');
  return res.data.createGame.game.id;
}

const SEEN = 'query($id: ID!) { game(id: $id) { version toAct mySeat legalActions status clock { running remainingMs timedOut } } }';
export interface Seen {
  version: number;
  toAct: number[];
  mySeat: number | null;
  legalActions: unknown[];
  status: string;
  clock: { running: number[]; remainingMs: number[]; timedOut: number[] } | null;
}
export const seen = async (app: TestApp, id: string, key?: string): Promise<Seen> => (await app.gql(SEEN, { id }, key)).data.game;

let moves = 0;
/** Plays the first legal action of whoever is to act (each player with their key) until `done`. */
export async function playUntil(app: TestApp, id: string, keys: string[], done: (g: Seen) => boolean): Promise<void> {
  for (let g = await seen(app, id); !done(g); g = await seen(app, id)) {
    const mine = await seen(app, id, keys[g.toAct[0]]);
    const res = await app.gql(ACT, { gameId: id, moveId: `web-players-${++moves}`, action: mine.legalActions[0], expectedVersion: mine.version }, keys[g.toAct[0]]);
    expect(res.data?.submitAction?.__typename).toBe('MoveAccepted');
  }
}

/** No axe-core violation at a desktop's width and at a phone's. */
export async function accessible(page: Page): Promise<void> {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect({ width, violations: violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) }).toEqual({ width, violations: [] });
  }
}

/** Signs in on /me with a key, as a player typing it would; answers the page and every URL it requested. */
export async function signIn(watched: WatchedBrowser, context: BrowserContext, key: string): Promise<{ page: Page; urls: string[] }> {
  const { page } = await watched.open('/me', context);
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.fill('#player-key', key);
  await page.click('form[data-signin] button[type="submit"]');
  await page.waitForSelector('[data-signout]');
  return { page, urls };
}
