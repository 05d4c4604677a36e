import type { Page } from 'playwright-core';
import { browserTitle, describeInBrowser, serviceWithBrowser } from '../support/browser.js';
import { docsScreenshot } from '../support/screenshots.js';
import { accessible } from '../support/web-players.js';

/**
 * A tournament's page for players (issue 28, item 6), in headless Chromium: its verification badge
 * is computed in the browser from the public bundle by the project's own verifier, so a bundle
 * altered on its way to the page is "not verified", with the rule it breaks.
 * `DOCS_SCREENSHOTS=1` writes the screenshots docs/web-page.md shows.
 */
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!, $rating: Int) { registerParticipant(tournamentId: $id, name: $name, rating: $rating) { __typename ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { rounds { boards { games { gameId seats { id } } } } } ... on Rejection { code message } } }`;
const WITHDRAW = `mutation($id: ID!, $p: ID!) { withdrawParticipant(tournamentId: $id, participantId: $p, reason: "left") { __typename ... on Rejection { code message } } }`;
const RESIGN = `mutation($g: ID!, $m: String!) { resignGame(gameId: $g, moveId: $m) { __typename ... on Rejection { code message } } }`;

describeInBrowser(browserTitle("a tournament's page and its verification badge in headless Chromium"), () => {
  const suite = serviceWithBrowser();
  const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const res = await suite.app.gql(query, variables, token);
    expect(res.errors).toBeUndefined();
    return res.data;
  };

  /** A 5-player Swiss of 2 rounds of 1-point backgammon matches, each game resigned by its second seat: a bye in round 1, Eve withdrawn after it. */
  async function swiss(): Promise<string> {
    const created = (await gql(CREATE, { input: { name: 'Club Swiss', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 2 } })).createTournament;
    const [id, organizer] = [created.tournament.id as string, created.organizerToken as string];
    const tokens = new Map<string, string>();
    let eve = '';
    for (const [i, name] of ['Ann', 'Bob', 'Cid', 'Dee', 'Eve'].entries()) {
      const r = (await gql(REGISTER, { id, name, rating: 2000 - 10 * i }, organizer)).registerParticipant;
      tokens.set(r.participantId, r.participantToken);
      eve = r.participantId;
    }
    for (let r = 1; r <= 2; r++) {
      if (r === 2) expect((await gql(WITHDRAW, { id, p: eve }, organizer)).withdrawParticipant.__typename).toBe('Tournament');
      const rounds = (await gql(PAIR, { id }, organizer)).pairRound.rounds;
      for (const [b, board] of rounds.at(-1).boards.entries()) {
        const game = board.games[0];
        expect((await gql(RESIGN, { g: game.gameId, m: `concede-${r}-${b}` }, tokens.get(game.seats[1].id))).resignGame.__typename).toBe('MoveAccepted');
      }
    }
    return id;
  }

  const badge = async (page: Page) => {
    await page.waitForSelector('[data-verdict="ok"], [data-verdict="bad"]');
    return ((await page.locator('.verification').textContent()) ?? '').replace(/\s+/g, ' ');
  };

  it('verifies a genuine tournament in the browser, and names the rule a tampered result breaks', async () => {
    const id = await swiss();
    const genuine = await suite.watched.context();
    const { page } = await suite.watched.open(`/tournaments/${id}`, genuine);
    expect(await badge(page)).toContain('✔ verified');
    expect(await badge(page)).toContain('2 round(s) recomputed');
    // Its stream completed (the tournament is finished): nothing to reconnect to.
    await page.waitForFunction(() => document.querySelector('[data-connection]')?.getAttribute('data-connection') === 'idle');
    await accessible(page);

    // Tie-breaks by name, explained on hover (their titles) and below the table; a bye and a withdrawal said in words.
    expect(await page.locator('.standings thead abbr').evaluateAll((all) => all.map((a) => `${a.textContent}: ${a.getAttribute('title')?.split(':')[0]}`))).toEqual([
      'TP: Tournament points',
      'BH-C1: Buchholz cut 1',
      'BH: Buchholz',
      'SB: Sonneborn-Berger',
      'WON: Games won',
      'GP: Game points',
      'LOTS: Lots',
    ]);
    expect(await page.locator('.legend dt').allTextContents()).toEqual(['TP', 'BH-C1', 'BH', 'SB', 'WON', 'GP', 'LOTS']);
    expect(await page.locator('.standings tbody tr', { hasText: 'Eve' }).locator('.withdrawn').textContent()).toBe('withdrew after round 1');
    const crosstable = ((await page.locator('.crosstable').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(crosstable).toMatch(/bye 1/);
    expect(crosstable).toMatch(/absent 0/);
    expect(crosstable).not.toMatch(/\d\/\d/);
    await docsScreenshot(page, 'tournament');

    // The same page, its bundle altered on the way: the first game's result is given to the other seat.
    const altered = await suite.watched.context();
    await altered.route(`**/api/tournaments/${id}/bundle`, async (route) => {
      const bundle = await (await route.fetch()).json();
      const result = bundle.events.find((e: { type: string; payload: { source?: string } }) => e.type === 'ResultRecorded' && e.payload.source === 'game').payload;
      const [a, b] = result.seats;
      [a.kind, b.kind, a.gamePoints, b.gamePoints] = [b.kind, a.kind, b.gamePoints, a.gamePoints];
      result.ranking.reverse();
      await route.fulfill({ json: bundle });
    });
    const tampered = (await suite.watched.open(`/tournaments/${id}`, altered)).page;
    const text = await badge(tampered);
    expect(text).toContain('✘ not verified');
    expect(text).toMatch(/Tournament event \d+: the result of game \S+ is not the game's own outcome .*\(V10\.3 step 3\)/);
    await accessible(tampered);
    await tampered.locator('.verification').scrollIntoViewIfNeeded();
    await docsScreenshot(tampered, 'tournament-tampered');
    await genuine.close();
    await altered.close();
    expect(suite.watched.take()).toEqual({ foreign: [], problems: [] });
  }, 300_000);
});
