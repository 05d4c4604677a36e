import { startApp, type TestApp } from '../support/app.js';
import { CREATE } from '../support/queries.js';

/**
 * The event logs as Relay connections (issue 26): `gameEvents` and `Tournament.events` page
 * forwards (first/after) and backwards (last/before), the cursor being the event's seq, with
 * pageInfo in both directions and totalCount the log's length.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

const PAGE = 'totalCount pageInfo { startCursor endCursor hasNextPage hasPreviousPage } edges { cursor node { seq type hash } }';
const GAME_EVENTS = `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
  gameEvents(gameId: $id, first: $first, after: $after, last: $last, before: $before) { ${PAGE} }
}`;
const TOURNAMENT_EVENTS = `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
  tournament(id: $id) { version events(first: $first, after: $after, last: $last, before: $before) { ${PAGE} } }
}`;
const CREATE_TOURNAMENT = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } } }`;
const REGISTER = `mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename } }`;

interface Page {
  totalCount: number;
  pageInfo: { startCursor: string | null; endCursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
  edges: { cursor: string; node: { seq: number; type: string; hash: string } }[];
}

/** Checks one log's paging against its whole: `read` answers a page for the arguments given. */
async function checkPaging(read: (args: Record<string, unknown>) => Promise<Page>): Promise<void> {
  const all = await read({});
  const n = all.totalCount;
  expect(n).toBeGreaterThanOrEqual(3);
  expect(all.edges.map((e) => e.node.seq)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  // The cursor is the seq.
  expect(all.edges.every((e) => e.cursor === String(e.node.seq))).toBe(true);
  expect(all.pageInfo).toEqual({ startCursor: '1', endCursor: String(n), hasNextPage: false, hasPreviousPage: false });

  // Forwards, two at a time, from the start to the end: every event once, in order.
  const forwards: number[] = [];
  let after: string | null = null;
  for (let more = true; more; ) {
    const page: Page = await read({ first: 2, after });
    forwards.push(...page.edges.map((e) => e.node.seq));
    expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
    after = page.pageInfo.endCursor;
    more = page.pageInfo.hasNextPage;
  }
  expect(forwards).toEqual(all.edges.map((e) => e.node.seq));

  // Backwards: the newest two, then the two before them.
  const newest = await read({ last: 2 });
  expect(newest.edges.map((e) => e.node)).toEqual(all.edges.slice(-2).map((e) => e.node));
  expect(newest.pageInfo).toEqual({ startCursor: String(n - 1), endCursor: String(n), hasNextPage: false, hasPreviousPage: n > 2 });
  const older = await read({ last: 2, before: newest.pageInfo.startCursor });
  expect(older.edges.map((e) => e.node.seq)).toEqual([n - 3, n - 2].filter((s) => s >= 1));
  expect(older.pageInfo.hasNextPage).toBe(true);

  // Between two cursors; past the end; nothing asked for.
  expect((await read({ after: '1', before: String(n) })).edges.map((e) => e.node.seq)).toEqual(Array.from({ length: n - 2 }, (_, i) => i + 2));
  const past = await read({ after: String(n) });
  expect(past.edges).toEqual([]);
  expect(past.pageInfo).toEqual({ startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: true });
  const none = await read({ first: 0 });
  expect([none.edges, none.totalCount, none.pageInfo.hasNextPage]).toEqual([[], n, true]);
}

describe('event logs as connections', () => {
  it("pages a game's events forwards and backwards, the cursor being the seq", async () => {
    const created = await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 12, handSize: 3 } } });
    const { game } = created.data.createGame as { game: { id: string } };
    await checkPaging(async (args) => {
      const res = await t.gql(GAME_EVENTS, { id: game.id, ...args });
      expect(res.errors).toBeUndefined();
      return res.data.gameEvents as Page;
    });
  });

  it("pages a tournament's events the same way; its totalCount is its version", async () => {
    const created = await t.gql(CREATE_TOURNAMENT, { input: { name: 'Paged', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 2 } });
    const { tournament, organizerToken } = created.data.createTournament as { tournament: { id: string }; organizerToken: string };
    for (const name of ['Ann', 'Bo', 'Cy']) expect((await t.gql(REGISTER, { id: tournament.id, name }, organizerToken)).data.registerParticipant.__typename).toBe('ParticipantRegistered');
    await checkPaging(async (args) => {
      const res = await t.gql(TOURNAMENT_EVENTS, { id: tournament.id, ...args });
      expect(res.errors).toBeUndefined();
      expect(res.data.tournament.events.totalCount).toBe(res.data.tournament.version);
      return res.data.tournament.events as Page;
    });
  });

  it('refuses both first and last, and a cursor that is no seq, as INVALID_INPUT', async () => {
    const created = await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 12, handSize: 3 } } });
    const { game } = created.data.createGame as { game: { id: string } };
    for (const args of [{ first: 1, last: 1 }, { after: 'abc' }, { before: '-1' }, { first: 1001 }]) {
      const res = await t.gql(GAME_EVENTS, { id: game.id, ...args });
      expect([args, res.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)]).toEqual([args, ['INVALID_INPUT']]);
    }
  });
});
