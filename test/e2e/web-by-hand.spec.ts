import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { browserTitle, describeInBrowser, serviceWithBrowser } from '../support/browser.js';
import { ACT, CREATE } from '../support/queries.js';
import { docsScreenshot } from '../support/screenshots.js';

/**
 * Moves by hand (issue 28 item 5), in headless Chromium: two signed-in players play a whole
 * correspondence backgammon game by clicking checkers and where they go, or dragging them there,
 * an undo included; Chicken Foot tiles and Cerke pieces (from the board or the hand) likewise.
 * The dice are random: each turn is driven by reading the seat's legal actions through the API
 * and clicking the moves of one legal play; the page sends the play once its last checker lands.
 */
const DAY = 86_400;
type Move = { from: number | 'bar'; to: number | 'off' };
type Action = { type: string; moves?: Move[] };

describeInBrowser(browserTitle('moves by hand in headless Chromium'), () => {
  const suite = serviceWithBrowser();
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    expect(suite.watched.take()).toEqual({ foreign: [], problems: [] });
  });

  async function newPlayer(name: string): Promise<{ id: string; key: string }> {
    const res = await suite.app.gql('mutation($name: String!) { createPlayer(name: $name) { __typename ... on PlayerCreated { player { id } key { secret } } } }', { name });
    return { id: res.data.createPlayer.player.id, key: res.data.createPlayer.key.secret };
  }

  /** A player's own browser, signed in on /me with their key, opened on a game. */
  async function playerPage(key: string, gameId: string): Promise<Page> {
    const context = await suite.watched.context();
    contexts.push(context);
    const { page } = await suite.watched.open('/me', context);
    await page.fill('#player-key', key);
    await page.click('form[data-signin] button[type="submit"]');
    await page.waitForSelector('[data-signout]');
    await page.goto(`${new URL(page.url()).origin}/games/${gameId}`);
    await page.waitForSelector('p.meta');
    return page;
  }

  const GAME = 'query($id: ID!) { game(id: $id) { status version toAct legalActions } }';
  const game = async (id: string, key?: string): Promise<{ status: string; version: number; toAct: number[]; legalActions: Action[] }> => (await suite.app.gql(GAME, { id }, key)).data.game;

  async function accessible(page: Page): Promise<void> {
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect({ width, violations: violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) }).toEqual({ width, violations: [] });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  }

  const showsVersion = (page: Page, version: number) => page.waitForSelector(`input[name="replay"][max="${version}"]`, { state: 'attached' });
  const place = (page: Page, where: number | string) => page.locator(`section.board [data-pick="${where}"]`);

  it('plays a whole correspondence backgammon game between two signed-in players by clicking checkers, with an undo', async () => {
    const [ada, bo] = [await newPlayer('Ada'), await newPlayer('Bo')];
    const seats = [
      { name: 'Ada', player: ada.id },
      { name: 'Bo', player: bo.id },
    ];
    const created = await suite.app.gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, seats, timeControl: { kind: 'CORRESPONDENCE', perMoveSeconds: DAY } } });
    const id: string = created.data.createGame.game.id;
    const keys = [ada.key, bo.key];
    const pages = [await playerPage(ada.key, id), await playerPage(bo.key, id)];
    expect(await pages[0].locator('p.meta').textContent()).toContain('playing as Ada');

    let undone = false;
    let checked = false;
    let turns = 0;
    let dragged = 0;
    let plays = 0;
    for (let g = await game(id); g.status !== 'FINISHED'; g = await game(id)) {
      expect(turns++).toBeLessThan(300);
      const seat = g.toAct[0];
      const page = pages[seat];
      await page.bringToFront();
      const mine = await game(id, keys[seat]);
      await showsVersion(page, mine.version);
      const play = mine.legalActions.find((a) => a.type === 'play');
      if (!play) {
        // Roll (or take) with the clear buttons; the cube and resigning would end the game unplayed.
        const index = mine.legalActions.findIndex((a) => a.type === 'roll' || a.type === 'take');
        await page.locator(`section.board [data-action="${index}"]`).first().click();
      } else {
        const moves = play.moves!;
        if (!undone && moves.length >= 2) {
          // The first checker moved, then taken back: it stands where it stood, the dice unused.
          await place(page, moves[0].from).click();
          await place(page, moves[0].to).click();
          await page.waitForSelector('.bg-hand .bg-undo');
          if (!checked) {
            await place(page, moves[1].from).click();
            await page.waitForSelector('.bg-pick-target');
            await accessible(page);
            await docsScreenshot(page, 'backgammon-by-hand');
            checked = true;
            await page.click('.bg-undo');
          }
          await page.click('.bg-undo');
          await page.waitForSelector('.bg-hand .bg-undo', { state: 'detached' });
          undone = true;
        }
        // Every other play the checkers are dragged: pressed, carried and released on their points.
        plays++;
        for (const { from, to } of moves) {
          if (plays % 2 === 0) {
            await place(page, from).dragTo(place(page, to));
            dragged++;
          } else {
            await place(page, from).click();
            await place(page, to).click();
          }
        }
      }
      // One move mutation: the page is at the next version, with nothing refused.
      await page.waitForFunction((v) => Number(document.querySelector('input[name="replay"]')?.getAttribute('max')) > v || document.querySelector('.notice')?.textContent, mine.version);
      expect(await page.locator('.notice').textContent()).toBe('');
    }
    expect(undone).toBe(true);
    expect(dragged).toBeGreaterThan(0);
    console.log(`the game took ${turns} decisions made on the page, ${dragged} checkers dragged`);
    for (const page of pages) await page.waitForSelector('[data-verdict="ok"]');
  }, 300_000);

  it('plays a Chicken Foot round by clicking a tile in the hand, then the end it goes on', async () => {
    const created = await suite.app.gql(CREATE, { input: { kind: 'chicken-foot', ruleset: { players: 2 } } });
    const id: string = created.data.createGame.game.id;
    const tokens: { seat: number; token: string }[] = created.data.createGame.tokens;
    const context = await suite.watched.context();
    contexts.push(context);
    const pages = await Promise.all(tokens.map(async ({ token }) => (await suite.watched.open(`/games/${id}#token=${token}`, context)).page));
    const VIEW = 'query($id: ID!) { game(id: $id) { status version toAct legalActions view } }';
    type Seen = { status: string; version: number; toAct: number[]; legalActions: { type: string; tile?: string; target?: string }[]; view: { rounds: unknown[] } };
    const seen = async (token?: string): Promise<Seen> => (await suite.app.gql(VIEW, { id }, token)).data.game;

    let tilesPlayed = 0;
    let checked = false;
    for (let g = await seen(); g.view.rounds.length === 0 && g.status === 'ACTIVE'; g = await seen()) {
      const seat = g.toAct[0];
      const page = pages[seat];
      await page.bringToFront();
      const mine = await seen(tokens[seat].token);
      await showsVersion(page, mine.version);
      const play = mine.legalActions.find((a) => a.type === 'play');
      if (play) {
        await page.locator(`section.board [data-pick="tile ${play.tile}"]`).click();
        await page.waitForSelector(`section.board [data-pick="end ${play.target}"]`);
        if (!checked) {
          await accessible(page);
          await docsScreenshot(page, 'chicken-foot-by-hand');
          checked = true;
        }
        await page.locator(`section.board [data-pick="end ${play.target}"]`).click();
        tilesPlayed++;
      } else {
        // Draw or pass: the only choices, as buttons.
        expect(await page.locator('section.board [data-pick]').count()).toBe(0);
        await page.locator(`section.board [data-action="0"]`).click();
      }
      await page.waitForFunction((v) => Number(document.querySelector('input[name="replay"]')?.getAttribute('max')) > v || document.querySelector('.notice')?.textContent, mine.version);
      expect(await page.locator('.notice').textContent()).toBe('');
    }
    expect(tilesPlayed).toBeGreaterThan(5);
    console.log(`the round took ${tilesPlayed} tiles played by hand`);
  }, 300_000);

  it('plays several Cerke moves by clicking a piece, then where it goes, asking which way when two end there', async () => {
    const created = await suite.app.gql(CREATE, { input: { kind: 'cerke', ruleset: {} } });
    const id: string = created.data.createGame.game.id;
    const tokens: { seat: number; token: string }[] = created.data.createGame.tokens;
    const context = await suite.watched.context();
    contexts.push(context);
    const pages = await Promise.all(tokens.map(async ({ token }) => (await suite.watched.open(`/games/${id}#token=${token}`, context)).page));
    type CerkeAction = { type: string; from?: string; to?: string };
    const VIEW = 'query($id: ID!) { game(id: $id) { status version toAct legalActions view } }';
    const seen = async (token?: string): Promise<{ version: number; toAct: number[]; legalActions: CerkeAction[]; view: { tam2: string | null } }> =>
      (await suite.app.gql(VIEW, { id }, token)).data.game;
    const square = (page: Page, name: string) => page.locator(`section.board [data-pick="sq ${name}"]`);

    let asked = false;
    let shown = false;
    for (let moves = 0; moves < 8; moves++) {
      const seat = (await seen()).toAct[0];
      const page = pages[seat];
      await page.bringToFront();
      const mine = await seen(tokens[seat].token);
      await showsVersion(page, mine.version);
      const ways = (a: CerkeAction) => mine.legalActions.filter((b) => b.type === a.type && b.from === a.from && b.to === a.to).length;
      const moving = mine.legalActions.filter((a) => a.type === 'move');
      // Once, a move that shares its squares with another (a step over a neighbour and back): the page asks which.
      const twice = asked ? undefined : moving.find((a) => ways(a) > 1);
      const once = moving.find((a) => ways(a) === 1 && a.from !== a.to);
      const finish = mine.legalActions.find((a) => a.type === 'completeStep');
      if (twice) {
        await square(page, twice.from!).click();
        await square(page, twice.to!).click();
        await page.waitForSelector('.ck-choice [data-action]');
        await accessible(page);
        await page.locator(`.ck-choice [data-action="${mine.legalActions.indexOf(twice)}"]`).click();
        asked = true;
      } else if (finish) {
        await square(page, finish.to!).click();
      } else if (once) {
        await square(page, once.from!).click();
        await page.waitForSelector('section.board .ck-pick-target');
        if (!shown) await docsScreenshot(page, 'cerke-by-hand');
        shown = true;
        await square(page, once.to!).click();
      } else {
        await page.locator('section.board [data-action="0"]').first().click();
      }
      await page.waitForFunction((v) => Number(document.querySelector('input[name="replay"]')?.getAttribute('max')) > v || document.querySelector('.notice')?.textContent, mine.version);
      expect(await page.locator('.notice').textContent()).toBe('');
    }
    expect(asked).toBe(true);
  }, 300_000);

  it('drops a Cerke piece by clicking it in the hand, then a highlighted empty square', async () => {
    const created = await suite.app.gql(CREATE, { input: { kind: 'cerke', ruleset: {} } });
    const id: string = created.data.createGame.game.id;
    const tokens: { seat: number; token: string }[] = created.data.createGame.tokens;
    type CerkeAction = { type: string; from?: string; to?: string; colour?: string; kind?: string };
    type Seen = { version: number; toAct: number[]; legalActions: CerkeAction[]; view: { board: { square: string; side: string }[]; viewerSide: string } };
    const VIEW = 'query($id: ID!) { game(id: $id) { version toAct legalActions view } }';
    const seen = async (token?: string): Promise<Seen> => (await suite.app.gql(VIEW, { id }, token)).data.game;
    // Through the API until the seat to act has a piece to drop: each turn a capture when there is
    // one (a move onto the other side's piece), else the first move, a finished step or a continued season.
    let mine = await seen(tokens[(await seen()).toAct[0]].token);
    for (let n = 0; !mine.legalActions.some((a) => a.type === 'drop'); n++) {
      expect(n).toBeLessThan(400);
      const theirs = new Set(mine.view.board.filter((p) => p.side !== mine.view.viewerSide).map((p) => p.square));
      const action =
        mine.legalActions.find((a) => a.type === 'move' && theirs.has(a.to!)) ??
        mine.legalActions.find((a) => a.type === 'continue' || a.type === 'completeStep') ??
        mine.legalActions.find((a) => a.type === 'move' && a.from !== a.to) ??
        mine.legalActions[0];
      const seat = (await seen()).toAct[0];
      const res = await suite.app.gql(ACT, { gameId: id, moveId: `drop-${n}`, action, expectedVersion: mine.version }, tokens[seat].token);
      expect(res.data?.submitAction?.__typename).toBe('MoveAccepted');
      mine = await seen(tokens[(await seen()).toAct[0]].token);
    }
    const seat = (await seen()).toAct[0];
    const context = await suite.watched.context();
    contexts.push(context);
    const { page } = await suite.watched.open(`/games/${id}#token=${tokens[seat].token}`, context);
    await showsVersion(page, mine.version);
    const drop = mine.legalActions.find((a) => a.type === 'drop')!;
    const inHand = page.locator(`section.board [data-pick="hand ${drop.colour} ${drop.kind}"]`);
    await inHand.click();
    // Picked up: pressed in the hand, every empty square it may go to highlighted.
    expect(await inHand.getAttribute('aria-pressed')).toBe('true');
    const empty = mine.legalActions.filter((a) => a.type === 'drop' && a.colour === drop.colour && a.kind === drop.kind).length;
    expect(await page.locator('section.board .ck-pick-target').count()).toBe(empty);
    await accessible(page);
    await page.locator(`section.board [data-pick="sq ${drop.to}"]`).click();
    await page.waitForFunction((v) => Number(document.querySelector('input[name="replay"]')?.getAttribute('max')) > v || document.querySelector('.notice')?.textContent, mine.version);
    expect(await page.locator('.notice').textContent()).toBe('');
    const after = await seen();
    expect(after.view.board.some((p) => p.square === drop.to)).toBe(true);
  }, 300_000);
});
