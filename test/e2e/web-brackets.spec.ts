import type { Page } from 'playwright-core';
import { browserTitle, describeInBrowser, serviceWithBrowser } from '../support/browser.js';
import { docsScreenshot } from '../support/screenshots.js';
import { accessible, newPlayer, signIn } from '../support/web-players.js';

/**
 * Every tournament format's page for players (issue 28, item 6), in headless Chromium: the bracket
 * formats drawn as brackets (lines from each match to the next, scores, byes; double elimination's
 * two brackets and grand final; a group stage's knockout), a tables tournament's places instead of
 * colours, a round-robin, and a signed-in participant's next game marked; each page with no axe
 * violation at a desktop's and a phone's width. web-tournament.spec.ts has Swiss and the badge.
 */
const ROUNDS = 'rounds { round boards { board seats { id name } games { gameId seats { id } } } }';
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!, $rating: Int, $player: ID) { registerParticipant(tournamentId: $id, name: $name, rating: $rating, player: $player) { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { ${ROUNDS} } ... on Rejection { code message } } }`;
const RECORD = `mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { status } ... on Rejection { code message } } }`;
const STATUS = 'query($id: ID!) { tournament(id: $id) { status } }';

interface Board {
  board: number;
  seats: { id: string; name: string }[];
  games: { gameId: string; seats: { id: string }[] }[];
}

describeInBrowser(browserTitle("every tournament format's page, its bracket and places, in headless Chromium"), () => {
  const suite = serviceWithBrowser();
  const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const res = await suite.app.gql(query, variables, token);
    expect(res.errors).toBeUndefined();
    return res.data;
  };

  /** A backgammon event (or `input`'s kind) of `names`, the first best rated; `players` binds a name to a player. */
  async function event(input: Record<string, unknown>, names: string[], players: Record<string, string> = {}) {
    const created = (await gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, ...input } })).createTournament;
    expect(created.__typename).toBe('TournamentCreated');
    const [id, organizer] = [created.tournament.id as string, created.organizerToken as string];
    for (const [i, name] of names.entries())
      expect((await gql(REGISTER, { id, name, rating: 2000 - i, player: players[name] ?? null }, organizer)).registerParticipant.__typename).toBe('ParticipantRegistered');
    return { id, organizer };
  }

  /** Pairs a round and enters each game's result as `entry` says (null: leave it playing); answers its boards. */
  async function round(id: string, organizer: string, entry: (board: Board) => Record<string, unknown> | null): Promise<Board[]> {
    const paired = (await gql(PAIR, { id }, organizer)).pairRound;
    expect(paired.__typename).toBe('Tournament');
    const r = paired.rounds.at(-1);
    for (const board of r.boards as Board[])
      for (const game of board.games) {
        const input = entry(board);
        if (input) expect((await gql(RECORD, { id, input: { round: r.round, board: board.board, gameId: game.gameId, ...input } }, organizer)).recordResult.__typename).toBe('Tournament');
      }
    return r.boards;
  }

  /** The better rated (the earlier name) wins each 2-seat game. */
  const better = (names: string[]) => (b: Board) => {
    const seat1 = names.indexOf(b.seats[1].name) < names.indexOf(b.seats[0].name);
    return { outcome: seat1 ? 'WIN_SEAT1' : 'WIN_SEAT0', gamePoints: seat1 ? ['0', '1'] : ['1', '0'] };
  };

  async function toTheEnd(id: string, organizer: string, entry: (board: Board) => Record<string, unknown>): Promise<void> {
    for (let guard = 0; guard < 12 && (await gql(STATUS, { id })).tournament.status !== 'FINISHED'; guard++) await round(id, organizer, entry);
  }

  const opened = async (path: string, page?: Page) => {
    const shown = page ?? (await suite.watched.open(path, await suite.watched.context())).page;
    if (page) await page.goto(new URL(path, suite.app.url).href);
    await shown.waitForSelector('[data-verdict="ok"]');
    return shown;
  };
  const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ');
  const columns = (page: Page, part = 0) => page.locator('svg.bracket').nth(part).locator('text.round-title').allTextContents();

  it('draws a knockout of 6 with its byes, scores and lines, and marks a signed-in participant’s next game', async () => {
    const me = await newPlayer(suite.app, 'Cid');
    const names = ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay'];
    const { id, organizer } = await event({ name: 'Club knockout', format: 'KNOCKOUT' }, names, { Cid: me.id });
    await round(id, organizer, better(names));
    // Round 2 (the semi-finals) paired and left to play: Cid's game is the one waiting for them.
    const semis = await round(id, organizer, () => null);
    const { page } = await signIn(suite.watched, await suite.watched.context(), me.key);
    await opened(`/tournaments/${id}`, page);

    // K6.2-K6.5: S = 8, so three columns of 4, 2 and 1 matches, Ann and Bob through on byes, a line from each match to the next.
    expect(await columns(page)).toEqual(['Quarter-finals', 'Semi-finals', 'Final']);
    expect(await page.locator('svg.bracket .match').count()).toBe(7);
    expect(await page.locator('svg.bracket path').count()).toBe(6);
    expect(await page.locator('svg.bracket text', { hasText: /^bye$/ }).count()).toBe(2);
    expect(await page.locator('svg.bracket .match').nth(1).locator('text').allTextContents()).toEqual(['Dee', '1', 'Eve', '0']);
    expect(await page.locator('svg.bracket .unpaired').count()).toBe(1);
    // Cid's matches are outlined; their next game is named above everything with a link to it.
    expect(await page.locator('svg.bracket .mine').count()).toBe(2);
    const cidsGame = semis.find((b) => b.seats.some((s) => s.name === 'Cid'))!;
    expect(await text(page, '.next-game')).toContain(`Round 2, board ${cidsGame.board}: against Bob`);
    expect(await page.locator('.next-game a.play').getAttribute('href')).toBe(`/games/${cidsGame.games[0].gameId}`);
    expect(await text(page, 'ol.boards li[aria-current="true"]')).toContain('Your next game: Bob – Cid');
    await accessible(page);
    await docsScreenshot(page, 'tournament-knockout');

    // A spectator sees the same bracket and no next game.
    const spectator = await opened(`/tournaments/${id}`);
    expect(await spectator.locator('svg.bracket .match').count()).toBe(7);
    expect(await spectator.locator('.next-game').count()).toBe(0);
    expect(await spectator.locator('svg.bracket .mine').count()).toBe(0);
    expect(suite.watched.take()).toEqual({ foreign: [], problems: [] });
  }, 300_000);

  it('draws a double elimination as a winners’ bracket with its grand final and a losers’ bracket', async () => {
    const names = ['Ann', 'Bob', 'Cid', 'Dee'];
    const { id, organizer } = await event({ name: 'Double elimination', format: 'DOUBLE_ELIMINATION' }, names);
    await toTheEnd(id, organizer, better(names));
    const page = await opened(`/tournaments/${id}`);
    // K6.10 with S = 4: WB1, WB2 then the grand final (no reset: the WB champion won it); LB1, LB2.
    expect(await page.locator('section[aria-label="Bracket"] h3').allTextContents()).toEqual(["Winners' bracket and grand final", "Losers' bracket"]);
    expect(await columns(page, 0)).toEqual(["Winners' round 1", "Winners' final", 'Grand final']);
    expect(await columns(page, 1)).toEqual(["Losers' round 1", "Losers' final"]);
    expect(await page.locator('svg.bracket').nth(0).locator('.match').last().locator('text.winner').first().textContent()).toBe('Ann');
    expect(await page.locator('svg.bracket .unpaired').count()).toBe(0);
    await accessible(page);
  }, 300_000);

  it('draws a group stage’s knockout with its third-place match', async () => {
    const names = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8'];
    const { id, organizer } = await event({ name: 'Groups then knockout', format: 'GROUPS_KNOCKOUT', groupCount: 2, advancePerGroup: 2, thirdPlaceMatch: true }, names);
    await toTheEnd(id, organizer, better(names));
    const page = await opened(`/tournaments/${id}`);
    // K6.12: three group rounds, then semi-finals and a final with the third-place match under it.
    expect(await columns(page)).toEqual(['Semi-finals', 'Final', 'Third place']);
    expect(await page.locator('svg.bracket .match').count()).toBe(4);
    expect(await page.locator('svg.bracket .match').nth(0).locator('text').allTextContents()).toEqual(['P1', '1', 'P3', '0']);
    await accessible(page);
  }, 300_000);

  it('shows a Chicken Foot tables tournament by places and points, and a round-robin with its rest, each without an axe violation', async () => {
    const { id, organizer } = await event({ name: 'Tables', kind: 'chicken-foot', ruleset: { players: 3 }, format: 'TABLES', rounds: 1 }, ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay']);
    // Each table: seat 0 the fewest pips, seats 1 and 2 tied.
    await round(id, organizer, () => ({ gamePoints: ['5', '20', '20'] }));
    const tables = await opened(`/tournaments/${id}`);
    const rounds = await text(tables, 'ol.boards');
    expect(rounds).toMatch(/1st \w+ \(5 pips\), =2nd \w+ \(20 pips\), =2nd \w+ \(20 pips\)/);
    const crosstable = await text(tables, '.crosstable');
    expect(crosstable).toMatch(/1st · 2 pts v \d,\d/);
    expect(crosstable).toMatch(/=2nd · 0\.5 pts v \d,\d/);
    expect(crosstable).not.toMatch(/\d[wb]\b/);
    expect(await tables.locator('svg.bracket').count()).toBe(0);
    await accessible(tables);
    await docsScreenshot(tables, 'tournament-tables');

    const names = ['Ann', 'Bob', 'Cid'];
    const rr = await event({ name: 'Round-robin', format: 'ROUND_ROBIN' }, names);
    await toTheEnd(rr.id, rr.organizer, better(names));
    const robin = await opened(`/tournaments/${rr.id}`);
    expect(await robin.locator('details', { hasText: 'Rest:' }).count()).toBe(3);
    await accessible(robin);
  }, 300_000);
});
