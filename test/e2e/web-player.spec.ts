import type { BrowserContext, Page } from 'playwright-core';
import { browserTitle, describeInBrowser, serviceWithBrowser } from '../support/browser.js';
import { accessible, duel as duelIn, newPlayer as newPlayerIn, playUntil as playUntilIn, type Seen, seen, signIn as signInWith } from '../support/web-players.js';
import { CREATE } from '../support/queries.js';

/**
 * The page a player lives in (issue 28), in headless Chromium: signing in with a player key,
 * the player's games (waiting for them first, by deadline) kept current by their stream, the
 * clocks counting down, and signing out. Players and games are made through the API; the page
 * is read as a player would. Every view is checked with axe-core at a desktop's and a phone's width.
 */
const KEY_STORE = 'arbiter.playerKey';
const DAY = 86_400;

describeInBrowser(browserTitle("the player's page in headless Chromium"), () => {
  const suite = serviceWithBrowser();
  let context: BrowserContext;
  // A fresh context a test: its own storage, so one test's sign-in is not another's.
  beforeEach(async () => {
    context = await suite.watched.context();
  });
  afterEach(async () => {
    await context.close();
    expect(suite.watched.take()).toEqual({ foreign: [], problems: [] });
  });

  const newPlayer = (name: string) => newPlayerIn(suite.app, name);
  const duel = (a: { id: string }, b: { id: string }, timeControl: Record<string, unknown>) => duelIn(suite.app, a, b, timeControl);
  const game = (id: string, key?: string) => seen(suite.app, id, key);
  const playUntil = (id: string, keys: string[], done: (g: Seen) => boolean) => playUntilIn(suite.app, id, keys, done);
  const signIn = (key: string) => signInWith(suite.watched, context, key);

  const listed = (page: Page, list: string) => page.locator(`[data-list="${list}"] li`).evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.game));

  it('signs in with a player key kept in this origin’s storage only, never sent in a URL, and signs out clearing it', async () => {
    const ada = await newPlayer('Ada');
    const { page: form } = await suite.watched.open('/me', context);
    await form.waitForSelector('form[data-signin]');
    await accessible(form);
    // A wrong key is refused with a reason, and nothing is kept.
    await form.fill('#player-key', 'arbk_not-a-key');
    await form.click('form[data-signin] button[type="submit"]');
    await form.waitForFunction(() => document.querySelector('.signin .error')?.textContent);
    expect(await form.evaluate((k) => localStorage.getItem(k), KEY_STORE)).toBeNull();
    await form.close();

    const { page, urls } = await signIn(ada.key);
    expect(await page.locator('p.meta b').textContent()).toBe('Ada');
    expect(await page.evaluate((k) => localStorage.getItem(k), KEY_STORE)).toBe(ada.key);
    expect(await page.locator('nav').textContent()).toContain('My games');
    await accessible(page);
    // Kept across a reload; the key never in a URL the page asked for (the stream's included).
    await page.reload();
    await page.waitForSelector('[data-signout]');
    expect(urls.some((u) => u.includes('/api/me/stream'))).toBe(true);
    expect(urls.filter((u) => u.includes(ada.key) || u.includes(encodeURIComponent(ada.key)))).toEqual([]);

    await page.click('[data-signout]');
    await page.waitForSelector('form[data-signin]');
    expect(await page.evaluate(() => ({ ...localStorage }))).toEqual({});
    expect(await page.locator('nav').textContent()).toContain('Sign in');
  });

  it('lists the games waiting for me first, the most pressing deadline first, then the others’, then finished ones; a move elsewhere arrives live', async () => {
    const [ada, bo] = [await newPlayer('Ada'), await newPlayer('Bo')];
    const keys = [ada.key, bo.key];
    const adaToAct = (g: Seen) => g.toAct.length === 1 && g.toAct[0] === 0;
    const boToAct = (g: Seen) => g.toAct.length === 1 && g.toAct[0] === 1;
    // Three games waiting for Ada: 3, 1 and 2 days a move, made in that order.
    const waiting: string[] = [];
    for (const days of [3, 1, 2]) {
      const id = await duel(ada, bo, { kind: 'CORRESPONDENCE', perMoveSeconds: days * DAY });
      await playUntil(id, keys, adaToAct);
      waiting.push(id);
    }
    const theirs = await duel(ada, bo, { kind: 'CORRESPONDENCE', perMoveSeconds: DAY });
    await playUntil(theirs, keys, boToAct);
    const finished = await duel(ada, bo, { kind: 'CORRESPONDENCE', perMoveSeconds: DAY });
    expect((await suite.app.gql('mutation($id: ID!) { resignGame(gameId: $id, moveId: "resign") { __typename } }', { id: finished }, ada.key)).data.resignGame.__typename).toBe('MoveAccepted');

    const { page } = await signIn(ada.key);
    await page.waitForSelector('[data-list="waiting"]');
    const [three, one, two] = waiting;
    expect(await listed(page, 'waiting')).toEqual([one, two, three]);
    expect(await listed(page, 'running')).toEqual([theirs]);
    expect(await listed(page, 'finished')).toEqual([finished]);
    // Time left, in days and hours, and the count in the tab's title.
    expect(await page.locator(`[data-game="${three}"] time`).textContent()).toMatch(/^in (2 d 23 h|3 d 0 h)$/);
    expect(await page.title()).toBe('(3) My games · Arbiter');
    await page.waitForFunction(() => document.querySelector('[data-live]')?.textContent === 'live');
    await accessible(page);

    // Bo moves: the game joins Ada's waiting games on the open page, without a reload.
    await playUntil(theirs, keys, adaToAct);
    await page.waitForFunction((id) => document.querySelector(`[data-list="waiting"] [data-game="${id}"]`) !== null, theirs);
    expect(await page.title()).toBe('(4) My games · Arbiter');
    expect(await page.locator('[data-list="running"]').count()).toBe(0);

    // The game's page gives the correspondence deadline in the viewer's time zone and as time left.
    await page.click(`[data-game="${one}"] a`);
    await page.waitForSelector('.clocks [data-until]');
    const deadline = (await suite.app.gql('query($id: ID!) { game(id: $id) { clock { deadline } } }', { id: one })).data.game.clock.deadline;
    expect(await page.locator('.clocks time').getAttribute('datetime')).toBe(deadline);
    expect(await page.locator('.clocks [data-until]').textContent()).toMatch(/^in (23 h \d+ min|1 d 0 h)$/);
    expect(await page.locator('.clock.running .time').textContent()).toMatch(/^(23:\d\d:\d\d|1 d 0 h)$/);
    await accessible(page);
  });

  /** The seconds a clock shows ("4:07", "1:02:30"). */
  const seconds = (text: string) => text.split(':').reduce((s, part) => s * 60 + Number(part), 0);

  it("counts the running seat's clock down from the service's remainingMs", async () => {
    const [ada, bo] = [await newPlayer('Ada'), await newPlayer('Bo')];
    const id = await duel(ada, bo, { kind: 'FISCHER', baseSeconds: 600, incrementSeconds: 5 });
    await playUntil(id, [ada.key, bo.key], (g) => g.clock !== null && g.clock.running.length === 1);
    await signIn(ada.key);
    const { page } = await suite.watched.open(`/games/${id}`, context);
    await page.waitForSelector('.clocks [data-clock]');
    expect(await page.locator('p.meta').textContent()).toContain('playing as Ada');
    const seat = (await game(id)).clock!.running[0];
    const shown = async () => seconds((await page.locator(`[data-clock="${seat}"]`).textContent()) ?? '');
    const first = await shown();
    const truth = (await game(id)).clock!.remainingMs[seat] / 1000;
    // Within a generous bound of the service's figure, whatever the machine's speed.
    expect(Math.abs(first - truth)).toBeLessThan(10);
    await page.waitForFunction(
      ([s, was]) => {
        const [m, sec] = (document.querySelector(`[data-clock="${s}"]`)?.textContent ?? '').split(':').map(Number);
        return m * 60 + sec < was;
      },
      [seat, first] as const,
    );
    expect(await page.locator(`.clock.running[data-seat="${seat}"]`).count()).toBe(1);
    await accessible(page);
  });

  it('shows a Fischer game lost on time the moment the service records it, without a reload', async () => {
    const [ada, bo] = [await newPlayer('Ada'), await newPlayer('Bo')];
    const id = await duel(ada, bo, { kind: 'FISCHER', baseSeconds: 10 });
    await signIn(ada.key);
    const { page } = await suite.watched.open(`/games/${id}`, context);
    await page.waitForSelector('.clocks .clock.low');
    await page.waitForSelector('.clock.out .flag', { timeout: 30_000 });
    expect((await game(id)).status).toBe('FINISHED');
    expect(await page.locator('p.meta .status').textContent()).toBe('FINISHED');
  }, 300_000);

  it("shows a rated game's seats with their ratings and, once it is rated, each change, live; /me lists the player's ratings", async () => {
    const [ada, bo] = [await newPlayer('Ada'), await newPlayer('Bo')];
    const rated = async () => {
      const res = await suite.app.gql(CREATE, {
        input: {
          kind: 'backgammon',
          ruleset: { matchLength: 1 },
          rated: true,
          seats: [
            { name: 'Ada', player: ada.id },
            { name: 'Bo', player: bo.id },
          ],
        },
      });
      expect(res.data?.createGame?.__typename).toBe('GameCreated');
      return res.data.createGame.game.id as string;
    };
    const resign = async (id: string, key: string) =>
      expect((await suite.app.gql('mutation($id: ID!) { resignGame(gameId: $id, moveId: "resign") { __typename } }', { id }, key)).data.resignGame.__typename).toBe('MoveAccepted');
    /** A game's rating changes, once its workflow stored them. */
    const changes = async (id: string): Promise<{ seat: number; change: number; after: { rating: number } }[]> => {
      for (let i = 0; i < 100; i++) {
        const made = (await suite.app.gql('query($id: ID!) { game(id: $id) { ratingChanges { seat change after { rating } } } }', { id })).data.game.ratingChanges;
        if (made.length > 0) return made;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`game ${id} was not rated`);
    };
    // A first rated game: Ada wins it, and both have a provisional rating.
    const first = await rated();
    await resign(first, bo.key);
    const before = await changes(first);

    // The second, watched by a spectator: each seat's rating before it, lichess's "?" on a provisional one.
    const id = await rated();
    const { page } = await suite.watched.open(`/games/${id}`, context);
    await page.waitForSelector('.ratings [data-seat-rating="1"]');
    expect(await page.locator('.ratings [data-seat-rating="0"]').textContent()).toContain(`${Math.round(before[0].after.rating)}?`);
    expect(await page.locator('.ratings [data-seat-rating="1"]').textContent()).toContain(`${Math.round(before[1].after.rating)}?`);
    await accessible(page);
    // Ada resigns: the changes arrive on the open page.
    await resign(id, ada.key);
    await page.waitForSelector('.ratings [data-change]');
    const made = await changes(id);
    expect(await page.locator('.ratings [data-seat-rating="0"] [data-change]').getAttribute('data-change')).toBe(String(Math.round(made[0].change)));
    expect(await page.locator('.ratings [data-seat-rating="0"] .rating-change.down').count()).toBe(1);
    expect(await page.locator('.ratings [data-seat-rating="1"] .rating-change.up').count()).toBe(1);
    await accessible(page);

    // Ada's ratings on /me: backgammon, untimed, two games.
    const { page: me } = await signIn(ada.key);
    await me.waitForSelector('.my-ratings [data-rating="backgammon:untimed"]');
    const row = await me.locator('.my-ratings [data-rating="backgammon:untimed"]').textContent();
    expect(row).toContain(`${Math.round(made[0].after.rating)}?`);
    expect(row).toMatch(/2$/);
    await accessible(me);
  });
});
