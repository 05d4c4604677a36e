import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { browserTitle, describeInBrowser, serviceWithBrowser } from '../support/browser.js';
import { docsScreenshot as screenshot } from '../support/screenshots.js';
import { accessible, duel, newPlayer, playUntil, seen, signIn } from '../support/web-players.js';

/**
 * Starting and keeping up games on the page (issue 28, items 3, 4 and 7), in headless Chromium:
 * a seat's clock controls (vacation, a pause asked, accepted and declined, the time given), the
 * challenge flow between two signed-in players, open challenges and open seats, aborting a game
 * not yet started, the games list, and a live connection cut and recovered. Two players use two
 * browser contexts (two browsers, as it were); the API sets up and tells the truth.
 * `DOCS_SCREENSHOTS=1` writes the screenshots docs/web-page.md shows.
 */
const DAY = 86_400;

describeInBrowser(browserTitle('starting games, clocks and lists on the page in headless Chromium'), () => {
  // The lists show a whole service's newest games, open challenges and seats: a database of this
  // suite's own, so that other suites sharing TEST_DATABASE_URL at the same time do not crowd them out.
  const suite = serviceWithBrowser({ databaseUrl: null });
  let contexts: BrowserContext[] = [];
  const context = async () => {
    const created = await suite.watched.context();
    contexts.push(created);
    return created;
  };
  afterEach(async () => {
    for (const c of contexts) await c.close();
    contexts = [];
    expect(suite.watched.take()).toEqual({ foreign: [], problems: [] });
  });

  /** A player signed in in a browser of their own. */
  async function browserOf(key: string): Promise<{ context: BrowserContext; page: Page }> {
    const own = await context();
    return { context: own, page: (await signIn(suite.watched, own, key)).page };
  }
  const openIn = async (where: BrowserContext, path: string) => (await suite.watched.open(path, where)).page;
  const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

  it('takes vacation, asks for a pause the other seat declines, then accepts, declines a resume, and lists the time given', async () => {
    const [ada, bo] = [await newPlayer(suite.app, 'Ada'), await newPlayer(suite.app, 'Bo')];
    const id = await duel(suite.app, ada, bo, { kind: 'CORRESPONDENCE', perMoveSeconds: DAY, vacationSeconds: 3 * DAY });
    await playUntil(suite.app, id, [ada.key, bo.key], (g) => g.clock !== null && g.clock.running.length === 1);

    const adaPage = await openIn((await browserOf(ada.key)).context, `/games/${id}`);
    await adaPage.waitForSelector('[data-vacation-left]');
    expect(await text(adaPage, '[data-vacation-left]')).toBe('3 d 0 h');
    await adaPage.selectOption('[name="vacation-span"]', String(2 * DAY));
    await adaPage.click('[data-clock-cmd="vacation"]');
    await adaPage.waitForFunction(() => document.querySelector('[data-vacation-left]')?.textContent === '1 d 0 h');
    expect(await text(adaPage, '.gifts')).toBe('Ada took 2 d 0 h of vacation');
    expect((await suite.app.gql('query($id: ID!) { game(id: $id) { clock { vacationLeftMs } } }', { id })).data.game.clock.vacationLeftMs).toEqual([DAY * 1000, 3 * DAY * 1000]);

    // A seat's gift shows on the open page as it happens.
    const gift = await suite.app.gql('mutation($id: ID!) { addTime(gameId: $id, seat: 0, seconds: 3600) { __typename } }', { id }, bo.key);
    expect(gift.data.addTime.__typename).toBe('MoveAccepted');
    await adaPage.waitForFunction(() => document.querySelectorAll('.gifts li').length === 2);
    expect(await text(adaPage, '.gifts li:nth-child(2)')).toBe('Bo gave Ada 1:00:00');

    // Ada asks to pause; Bo, on his own page, declines (declinePause): the request is withdrawn on both pages, the clocks run on.
    await adaPage.click('[data-clock-cmd="pause"]');
    await adaPage.waitForSelector('[data-pause="asked"]');
    const boPage = await openIn((await browserOf(bo.key)).context, `/games/${id}`);
    await boPage.waitForSelector('[data-pause="requested"]');
    await boPage.click('[data-pause="requested"] [data-clock-cmd="decline"]');
    await adaPage.waitForSelector('[data-pause="asked"]', { state: 'detached' });
    await boPage.waitForSelector('[data-pause="requested"]', { state: 'detached' });
    expect((await suite.app.gql('query($id: ID!) { game(id: $id) { clock { paused pauseRequests } } }', { id })).data.game.clock).toEqual({ paused: false, pauseRequests: [] });

    // Ada asks again; Bo is asked and accepts: the clocks stop for both.
    await adaPage.click('[data-clock-cmd="pause"]');
    await adaPage.waitForSelector('[data-pause="asked"]');
    expect(await text(adaPage, '[data-pause="asked"]')).toBe('You asked to pause the clocks; waiting for Bo.');
    await boPage.waitForSelector('[data-pause="requested"]');
    expect(await text(boPage, '[data-pause="requested"] p')).toBe('Ada asks to pause the clocks.');
    await accessible(boPage);
    await screenshot(boPage, 'clocks');
    await boPage.click('[data-pause="requested"] [data-clock-cmd="pause"]');
    for (const page of [boPage, adaPage]) await page.waitForFunction(() => document.querySelector('.clocks h2')?.textContent?.includes('(paused)'));
    expect((await suite.app.gql('query($id: ID!) { game(id: $id) { clock { paused } } }', { id })).data.game.clock.paused).toBe(true);
    const frozen = await adaPage.locator('.clocks .time').allTextContents();
    await adaPage.waitForTimeout(1500);
    expect(await adaPage.locator('.clocks .time').allTextContents()).toEqual(frozen);

    // Ada asks to resume; Bo declines: the prompt goes, the clocks stay paused, and he may ask himself later.
    await adaPage.click('[data-clock-cmd="resume"]');
    await boPage.waitForSelector('[data-pause="requested"]');
    expect(await text(boPage, '[data-pause="requested"] p')).toBe('Ada asks to resume the clocks.');
    await boPage.click('[data-clock-cmd="decline"]');
    await boPage.waitForSelector('[data-pause="requested"]', { state: 'detached' });
    expect(await text(boPage, '.pause button')).toBe('Ask to resume');
    expect((await suite.app.gql('query($id: ID!) { game(id: $id) { clock { paused pauseRequests } } }', { id })).data.game.clock).toEqual({ paused: true, pauseRequests: [0] });
    await accessible(adaPage);
  }, 300_000);

  it('challenges a player who accepts on the page, declines another, takes an open challenge and joins an open seat', async () => {
    const [ada, bo] = [await newPlayer(suite.app, 'Ada'), await newPlayer(suite.app, 'Bo')];
    const adaPage = await openIn((await browserOf(ada.key)).context, '/play');
    await adaPage.waitForSelector('form[data-new-game]');
    expect(await text(adaPage, '[data-my-id]')).toBe(ada.id);
    await accessible(adaPage);

    // A 3-point match by correspondence, Ada challenging Bo by his id, with a message.
    await adaPage.fill('[name="matchLength"]', '3');
    await adaPage.check('input[name="opponent"][value="challenge"]');
    await adaPage.fill('[name="to"]', bo.id);
    await adaPage.fill('[name="message"]', 'A game by mail?');
    await adaPage.click('form[data-new-game] button[type="submit"]');
    await adaPage.waitForSelector('[data-list="outgoing"] [data-challenge]');
    expect(await text(adaPage, '[data-list="outgoing"] li')).toMatch(/^backgammon 3-point match · 2 d 0 h a move · to Bo · seat random · expires in (6 d 23 h|7 d 0 h) “?A game by mail\?”? Cancel$/);

    const bob = await browserOf(bo.key);
    const boPage = await openIn(bob.context, '/play');
    await boPage.waitForSelector('[data-list="incoming"] [data-challenge]');
    expect(await text(boPage, '[data-list="incoming"] li')).toContain('from Ada');
    await accessible(boPage);
    await screenshot(boPage, 'play');
    await boPage.click('[data-list="incoming"] [data-do="accept"]');
    await boPage.waitForURL(/\/games\/[^/]+$/);
    const gameId = new URL(boPage.url()).pathname.split('/').pop();
    await boPage.waitForSelector('.clocks');
    expect(await text(boPage, 'p.meta')).toContain('playing as Bo');
    const made = (await suite.app.gql('query($id: ID!) { game(id: $id) { kind ruleset seats { player } clock { control { perMoveSeconds vacationSeconds } } } }', { id: gameId })).data.game;
    expect(made.kind).toBe('backgammon');
    expect(made.ruleset.matchLength).toBe(3);
    expect(made.seats.map((s: { player: string }) => s.player).sort()).toEqual([ada.id, bo.id].sort());
    expect(made.clock.control).toEqual({ perMoveSeconds: 2 * DAY, vacationSeconds: 7 * DAY });
    // Ada's list empties as the acceptance reaches her.
    await adaPage.waitForSelector('[data-list="outgoing"]', { state: 'detached' });

    // A second challenge, declined: gone from both lists.
    await adaPage.click('form[data-new-game] button[type="submit"]');
    await adaPage.waitForSelector('[data-list="outgoing"] [data-challenge]');
    const boLobby = await openIn(bob.context, '/play');
    await boLobby.click('[data-list="incoming"] [data-do="decline"]');
    await boLobby.waitForSelector('[data-list="incoming"]', { state: 'detached' });
    await adaPage.waitForSelector('[data-list="outgoing"]', { state: 'detached' });

    // An open challenge for Cerke, without a clock: Bo takes it from the open list.
    await adaPage.selectOption('[name="kind"]', 'cerke');
    await adaPage.selectOption('[name="clock"]', 'NONE');
    await adaPage.check('input[name="opponent"][value="open"]');
    await adaPage.click('form[data-new-game] button[type="submit"]');
    await adaPage.waitForSelector('[data-list="outgoing"] [data-challenge]');
    await boLobby.waitForSelector('[data-list="open"] [data-challenge]', { timeout: 15_000 });
    expect(await text(boLobby, '[data-list="open"] li')).toContain('cerke');
    await boLobby.click('[data-list="open"] [data-do="accept"]');
    await boLobby.waitForURL(/\/games\/[^/]+$/);
    expect((await seen(suite.app, new URL(boLobby.url()).pathname.split('/').pop() ?? '')).status).toBe('ACTIVE');

    // A three-player Chicken Foot table with open seats: Ada lands on its page, Bo joins from the list.
    await adaPage.selectOption('[name="kind"]', 'chicken-foot');
    await adaPage.fill('[name="players"]', '3');
    await adaPage.check('input[name="opponent"][value="seat"]');
    await adaPage.click('form[data-new-game] button[type="submit"]');
    await adaPage.waitForURL(/\/games\/[^/]+$/);
    const table = new URL(adaPage.url()).pathname.split('/').pop() ?? '';
    const joining = await openIn(bob.context, '/play');
    await joining.waitForSelector(`[data-list="seats"] [data-game="${table}"]`, { timeout: 15_000 });
    await joining.click(`[data-list="seats"] [data-game="${table}"] [data-do="join"]`);
    await joining.waitForURL(`**/games/${table}`);
    await joining.waitForFunction(() => document.querySelector('p.meta')?.textContent?.includes('playing as Bo'));
    const players = (await suite.app.gql('query($id: ID!) { game(id: $id) { status seats { player taken } } }', { id: table })).data.game;
    expect(players).toEqual({
      status: 'WAITING',
      seats: [
        { player: ada.id, taken: true },
        { player: bo.id, taken: true },
        { player: null, taken: false },
      ],
    });

    // Nobody moved yet: Ada aborts it from its page.
    await adaPage.waitForSelector('[data-clock-cmd="abort"]');
    await adaPage.click('[data-clock-cmd="abort"]');
    await adaPage.waitForFunction(() => document.querySelector('p.meta .status')?.textContent === 'ABORTED');
    expect((await seen(suite.app, table)).status).toBe('ABORTED');
  }, 300_000);

  it('refuses a challenge the service refuses, telling why, and asks a signed-out reader to sign in', async () => {
    const ada = await newPlayer(suite.app, 'Ada');
    const page = await openIn((await browserOf(ada.key)).context, '/play');
    await page.waitForSelector('form[data-new-game]');
    await page.check('input[name="opponent"][value="challenge"]');
    await page.fill('[name="to"]', ada.id);
    await page.click('form[data-new-game] button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('[data-form-error]')?.textContent?.startsWith('OWN_CHALLENGE'));
    const out = await openIn(await context(), '/play');
    await out.waitForSelector('a[href="/me"]');
    expect(await text(out, 'main p')).toBe('Sign in with your player key first: sign in.');
  });

  it('lists games with their players, whose turn, time left, result and date, and shows a cut live connection reconnecting', async () => {
    const [ada, bo] = [await newPlayer(suite.app, 'Ada'), await newPlayer(suite.app, 'Bo')];
    const running = await duel(suite.app, ada, bo, { kind: 'FISCHER', baseSeconds: 600, incrementSeconds: 5 });
    await playUntil(suite.app, running, [ada.key, bo.key], (g) => g.clock !== null && g.clock.running.length === 1);
    const finished = await duel(suite.app, ada, bo, { kind: 'CORRESPONDENCE', perMoveSeconds: DAY });
    await suite.app.gql('mutation($id: ID!) { resignGame(gameId: $id, moveId: "r") { __typename } }', { id: finished }, ada.key);
    const paused = await duel(suite.app, ada, bo, { kind: 'CORRESPONDENCE', perMoveSeconds: DAY });
    await playUntil(suite.app, paused, [ada.key, bo.key], (g) => g.clock !== null && g.clock.running.length === 1);
    for (const key of [ada.key, bo.key])
      expect((await suite.app.gql('mutation($id: ID!) { pauseClock(gameId: $id) { __typename } }', { id: paused }, key)).data.pauseClock.__typename).toBe('MoveAccepted');
    const watcher = await context();
    const list = await openIn(watcher, '/');
    await list.waitForSelector(`[data-game="${finished}"]`);
    const toMove = (await seen(suite.app, running)).toAct[0] === 0 ? 'Ada' : 'Bo';
    const row = await text(list, `[data-game="${running}"]`);
    expect(row).toMatch(new RegExp(`^backgammon ACTIVE Ada · Bo ${toMove} to move (9:5\\d|10:00) \\w{3} \\d+, \\d{4}$`));
    expect(await text(list, `[data-game="${finished}"] [data-result]`)).toBe('Ada resigned; Bo wins');
    expect(row).not.toMatch(/\bv\d+\b/);
    expect(await text(list, `[data-game="${paused}"] .left`)).toMatch(/^(23:59:\d\d|1 d 0 h) \(paused\)$/);
    await accessible(list);
    await screenshot(list, 'games');

    // The game's page follows its events over one WebSocket; the test cuts it and holds it down.
    let down = false;
    const sockets: WebSocketRoute[] = [];
    await watcher.routeWebSocket(/\/graphql$/, (ws) => {
      if (down) return void ws.close({ code: 1001, reason: 'going away' });
      ws.connectToServer();
      sockets.push(ws);
    });
    const game = await openIn(watcher, `/games/${running}`);
    await game.waitForSelector('[data-connection="live"]');
    down = true;
    await sockets[0].close({ code: 1001, reason: 'going away' });
    await game.waitForSelector('[data-connection="reconnecting"]');
    expect(await text(game, '[data-connection]')).toBe('reconnecting…');
    await accessible(game);
    // A move made while it was down shows once it is back, without a reload.
    const before = (await seen(suite.app, running)).version;
    await playUntil(suite.app, running, [ada.key, bo.key], (g) => g.version > before + 1);
    const after = (await seen(suite.app, running)).version;
    down = false;
    await game.waitForSelector('[data-connection="live"]', { timeout: 20_000 });
    await game.waitForFunction((v) => document.querySelector('.replay span')?.textContent === `live, event ${v}`, after);
  }, 300_000);
});
