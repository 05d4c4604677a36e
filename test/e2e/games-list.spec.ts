import { randomBytes } from 'node:crypto';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { startApp, type TestApp } from '../support/app.js';
import { duelEngine } from '../support/duel-engine.js';
import { CREATE } from '../support/queries.js';

/**
 * `games` as a Relay connection. The games are of a kind registered for this run only, so the
 * filter gives a known set even on a shared PostgreSQL with other tests creating games.
 */
let t: TestApp;
const kind = `list-${randomBytes(6).toString('hex')}`;
/** Newest first, as the list answers. */
let all: { id: string; createdAt: string; status: string }[] = [];

const LIST = `query($filter: GameFilterInput, $first: Int, $after: String, $last: Int, $before: String) {
  games(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { id status createdAt } }
    nodes { id }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

interface Page {
  edges: { cursor: string; node: { id: string; status: string; createdAt: string } }[];
  nodes: { id: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

async function page(args: { first?: number; after?: string | null; last?: number; before?: string | null; status?: string }): Promise<Page> {
  const { status, ...rest } = args;
  const res = await t.gql(LIST, { filter: { kind, ...(status ? { status } : {}) }, ...rest });
  expect(res.errors).toBeUndefined();
  const p = res.data.games as Page;
  // The edges and the nodes are the same games; the page info names the first and last edges' cursors.
  expect(p.nodes.map((n) => n.id)).toEqual(p.edges.map((e) => e.node.id));
  expect(p.pageInfo.startCursor).toBe(p.edges[0]?.cursor ?? null);
  expect(p.pageInfo.endCursor).toBe(p.edges.at(-1)?.cursor ?? null);
  return p;
}

const codes = (res: any): string[] => (res.errors ?? []).map((e: any) => e.extensions?.code);

beforeAll(async () => {
  // The default query limits: a page size given as a variable costs as the largest page (100), for edges and nodes only.
  t = await startApp();
  t.app.get(EngineRegistry).register({ ...duelEngine, kind });
  for (let i = 0; i < 7; i++) {
    // Two games wait for a player (an open seat): a second status to filter on.
    const seats = i % 3 === 1 ? [{ name: `p${i}` }, { open: true }] : undefined;
    const res = await t.gql(CREATE, { input: { kind, ruleset: { cards: 12, handSize: 3 }, seats } });
    expect(res.data.createGame.__typename).toBe('GameCreated');
  }
  all = (await page({ first: 100 })).edges.map((e) => e.node);
});
afterAll(async () => {
  await t?.close();
});

describe('games: a Relay cursor connection', () => {
  it('lists the games newest first (ties by id)', () => {
    expect(all).toHaveLength(7);
    const key = (g: { createdAt: string; id: string }) => [new Date(g.createdAt).getTime(), g.id] as const;
    for (let i = 1; i < all.length; i++) {
      const [a, ida] = key(all[i - 1]);
      const [b, idb] = key(all[i]);
      expect(a > b || (a === b && ida > idb)).toBe(true);
    }
  });

  it('pages forwards with first/after: every game once, in order', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let n = 0; n < 10; n++) {
      const p = await page({ first: 3, after });
      seen.push(...p.edges.map((e) => e.node.id));
      // As graphql-relay: what precedes a forward page is not looked up.
      expect(p.pageInfo.hasPreviousPage).toBe(false);
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.map((g) => g.id));
  });

  it('pages backwards with last/before: every game once, in order', async () => {
    const seen: string[] = [];
    let before: string | null = null;
    const pages: Page[] = [];
    for (let n = 0; n < 10; n++) {
      const p = await page({ last: 3, before });
      pages.push(p);
      seen.unshift(...p.edges.map((e) => e.node.id));
      expect(p.pageInfo.hasNextPage).toBe(false);
      if (!p.pageInfo.hasPreviousPage) break;
      before = p.pageInfo.startCursor;
    }
    expect(seen).toEqual(all.map((g) => g.id));
    // 7 games in pages of 3 from the end: 3, 3, then the newest 1.
    expect(pages.map((p) => p.edges.length)).toEqual([3, 3, 1]);
    expect(pages[0].edges.map((e) => e.node.id)).toEqual(all.slice(4).map((g) => g.id));
  });

  it('turns around: a cursor from one direction pages the other way', async () => {
    const forward = await page({ first: 4 });
    const back = await page({ last: 2, before: forward.pageInfo.endCursor });
    expect(back.edges.map((e) => e.node.id)).toEqual(all.slice(1, 3).map((g) => g.id));
    expect(back.pageInfo.hasPreviousPage).toBe(true);
    const window = await page({ first: 10, after: forward.edges[0].cursor, before: forward.pageInfo.endCursor });
    expect(window.edges.map((e) => e.node.id)).toEqual(all.slice(1, 3).map((g) => g.id));
    expect(window.pageInfo.hasNextPage).toBe(false);
  });

  it('counts the games the filter matches, whatever the page', async () => {
    const count = `query($filter: GameFilterInput, $first: Int, $after: String) { games(filter: $filter, first: $first, after: $after) { totalCount nodes { id } } }`;
    const total = (await t.gql(count, { filter: { kind }, first: 2 })).data.games;
    expect(total.totalCount).toBe(7);
    expect(total.nodes).toHaveLength(2);
    const waiting = all.filter((g) => g.status === 'WAITING').length;
    expect(waiting).toBe(2);
    expect((await t.gql(count, { filter: { kind, status: 'WAITING' } })).data.games.totalCount).toBe(waiting);
    expect((await t.gql(count, { filter: { kind, status: 'ACTIVE' } })).data.games.totalCount).toBe(7 - waiting);
    expect((await t.gql(count, { filter: { kind, imported: true } })).data.games.totalCount).toBe(0);
    const later = (await page({ first: 2 })).pageInfo.endCursor;
    expect((await t.gql(count, { filter: { kind }, first: 2, after: later })).data.games.totalCount).toBe(7);
    // Filtered pages go through the filtered games only.
    const w = await page({ first: 1, status: 'WAITING' });
    const w2 = await page({ first: 1, after: w.pageInfo.endCursor, status: 'WAITING' });
    expect([...w.edges, ...w2.edges].map((e) => e.node.id)).toEqual(all.filter((g) => g.status === 'WAITING').map((g) => g.id));
    expect(w2.pageInfo.hasNextPage).toBe(false);
  });

  it('keeps the nodes/pageInfo shape older clients use, 20 games a page by default', async () => {
    const res = await t.gql(`query($k: String) { games(filter: { kind: $k }) { nodes { id } pageInfo { endCursor hasNextPage } } }`, { k: kind });
    expect(res.data.games.nodes.map((n: { id: string }) => n.id)).toEqual(all.map((g) => g.id));
    expect(res.data.games.pageInfo.hasNextPage).toBe(false);
  });

  it('refuses cursors it did not give out, and bad page sizes, as INVALID_INPUT', async () => {
    const cursor = (await page({ first: 1 })).pageInfo.endCursor!;
    const notOurs = [
      'garbage!',
      '',
      Buffer.from('not a cursor').toString('base64url'),
      Buffer.from(`2020-01-01T00:00:00.000Z|${'x'.repeat(80)}`).toString('base64url'),
      Buffer.from('yesterday|abcdefghijkl').toString('base64url'),
      `${cursor}|`,
    ];
    for (const bad of notOurs) {
      for (const args of [
        { first: 2, after: bad },
        { last: 2, before: bad },
      ]) {
        const res = await t.gql(LIST, { filter: { kind }, ...args });
        expect(codes(res)).toEqual(['INVALID_INPUT']);
        expect(res.errors[0].message).toMatch(/(after|before) is not a cursor this API gave out/);
      }
    }
    for (const args of [{ first: 0 }, { first: 101 }, { last: 0 }, { last: 101 }, { first: -1 }, { first: 2, last: 2 }]) {
      expect(codes(await t.gql(LIST, { filter: { kind }, ...args }))).toEqual(['INVALID_INPUT']);
    }
  });

  it('costs a backwards page by its `last`, as a forwards one by its `first`', async () => {
    const fields = 'nodes { id kind status version createdAt rulesetHash imported headHash }';
    // 12 pages of 100 games of 9 fields cost 10,800: over this app's 10,000 (counted at 20 games a page, they would pass).
    const query = (arg: string) => `{ ${Array.from({ length: 12 }, (_, i) => `p${i}: games(${arg}: 100) { ${fields} }`).join(' ')} }`;
    const forwards = codes(await t.gql(query('first')));
    expect(forwards).toEqual(['QUERY_TOO_COMPLEX']);
    expect(codes(await t.gql(query('last')))).toEqual(forwards);
  });
});
