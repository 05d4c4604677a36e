import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { WEB_DIR } from '../../src/api/web.controller.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { startApp } from '../support/app.js';
import { browserTitle, describeInBrowser, type Opened, serviceWithBrowser } from '../support/browser.js';
import { ACT, CREATE, EVENTS, GAME } from '../support/queries.js';
import { compareWithReference } from '../support/screenshots.js';
import { accessible } from '../support/web-players.js';

/**
 * The web page (web/src/, bundled by `npm run build` into dist/web/) in headless Debian Chromium
 * with every request to anywhere but the service refused: what a player or a spectator sees,
 * plays and checks, through the page only; the API is used to set games up and to know the truth.
 */
const FIXTURES = join(import.meta.dirname, '../fixtures');

interface Token {
  seat: number;
  token: string;
}
/** What the tests read of `game(id)`. */
interface GameAnswer {
  status: string;
  version: number;
  toAct: number[];
  view: unknown;
  legalActions: unknown[];
}

describeInBrowser(browserTitle('the web page in headless Chromium'), () => {
  const suite = serviceWithBrowser();
  let context: BrowserContext;

  beforeAll(async () => {
    context = await offlineContext();
  });

  // Whatever a test looks at, the page must not reach outside the service nor log an error.
  afterEach(async () => {
    for (const page of context.pages()) await page.close();
    expect(suite.watched.take()).toEqual({ foreign: [], problems: [] });
  });

  const offlineContext = (viewport?: { width: number; height: number }) => suite.watched.context(viewport);
  const open = (path: string, where: BrowserContext = context): Promise<Opened> => suite.watched.open(path, where);

  // ---- The service, through its API -------------------------------------------------------

  async function create(kind: string, ruleset: unknown): Promise<{ id: string; tokens: Token[] }> {
    const res = await suite.app.gql(CREATE, { input: { kind, ruleset } });
    expect(res.data?.createGame?.__typename).toBe('GameCreated');
    return { id: res.data.createGame.game.id, tokens: res.data.createGame.tokens };
  }

  /** A game replayed from a record of test/fixtures (finished, its chance fixed by the record). */
  async function importRecord(kind: string, file: string): Promise<string> {
    const res = await suite.app.gql('mutation($kind: String!, $record: String!) { importGame(kind: $kind, record: $record) { __typename ... on GameCreated { game { id } } } }', {
      kind,
      record: readFileSync(join(FIXTURES, file), 'utf8'),
    });
    expect(res.data?.importGame?.__typename).toBe('GameCreated');
    return res.data.importGame.game.id;
  }

  async function game(id: string, token?: string): Promise<GameAnswer> {
    const res = await suite.app.gql(GAME, { id }, token);
    expect(res.errors).toBeUndefined();
    return res.data.game;
  }

  async function stateAt(id: string, seq: number): Promise<{ view: unknown }> {
    const res = await suite.app.gql('query($id: ID!, $seq: Int!) { gameStateAt(gameId: $id, seq: $seq) { view } }', { id, seq });
    expect(res.errors).toBeUndefined();
    return res.data.gameStateAt;
  }

  let moves = 0;
  /** Submits an action for a seat and answers the version the service acknowledged. */
  async function act(id: string, token: string, action: unknown, expectedVersion: number): Promise<number> {
    const res = await suite.app.gql(ACT, { gameId: id, moveId: `web-${++moves}`, action, expectedVersion }, token);
    expect(res.data?.submitAction).toMatchObject({ __typename: 'MoveAccepted' });
    return res.data.submitAction.version;
  }

  /** The game played on through the API by whichever seat is to act, taking the first legal action that `prefer` accepts (else the first), `count` times. */
  async function playThroughApi(id: string, tokens: Token[], count: number, prefer: (action: unknown) => boolean = () => true): Promise<void> {
    for (let i = 0; i < count; i++) {
      const seat = (await game(id)).toAct[0];
      const mine = await game(id, tokens[seat].token);
      await act(id, tokens[seat].token, mine.legalActions.find(prefer) ?? mine.legalActions[0], mine.version);
    }
  }

  // ---- The page -----------------------------------------------------------------------------

  /** Waits until the page shows the game at `version` (live, or replayed up to it). */
  async function showsVersion(page: Page, version: number): Promise<void> {
    await page.waitForSelector(`input[name="replay"][max="${version}"]`, { state: 'attached' });
  }

  /** Waits until the board shows the game just after event `seq` of `version` (the last one is the live game). */
  async function showsBoardAfter(page: Page, seq: number, version: number): Promise<void> {
    await page.waitForSelector(seq < version ? `section.board[aria-label="Board, after event ${seq}"]` : 'section.board[aria-label="Board"]', { state: 'attached' });
  }

  /** Replays the page's game to just after event `seq` with its slider, as a reader dragging it would. */
  async function replayTo(page: Page, seq: number, version: number): Promise<void> {
    await page.locator('input[name="replay"]').fill(String(seq));
    await showsBoardAfter(page, seq, version);
  }

  // ---- 1. Each game drawn at a fixed position -------------------------------------------------

  /**
   * Imported records fix every die, stick cast and deal; the slider picks a position. The board
   * holds no id nor time, so the pixels depend on the position alone.
   */
  const POSITIONS = [
    // White to play 6-1 with a checker of each side on the bar.
    { kind: 'backgammon', record: 'backgammon/match-1-pt-seed64352.mat', seq: 71 },
    // Mid-season: captured pieces in both hands, Tam2 off the centre.
    { kind: 'cerke', record: 'cerke/cerke_online_kiaak_parser-case4-2022-09-08.txt', seq: 20 },
    // Round 1 with a chicken foot open, three players' tile counts.
    { kind: 'chicken-foot', record: 'chicken-foot/classic-3-players.json', seq: 64 },
  ];

  it.each(POSITIONS)('draws $kind after event $seq as its reference image in test/fixtures/web/', async ({ kind, record, seq }) => {
    const id = await importRecord(kind, record);
    const { version } = await game(id);
    const { page } = await open(`/games/${id}`);
    await showsVersion(page, version);
    await replayTo(page, seq, version);
    await page.evaluate(() => document.fonts.ready);
    const shot = await page.locator('section.board').screenshot({ animations: 'disabled', caret: 'hide' });
    const comparison = compareWithReference(`${kind}-${seq}`, shot);
    if (comparison.written) console.log(`wrote the reference ${comparison.reference}: look at it, then commit it`);
    expect(comparison.problem).toBeNull();
  });

  // ---- 2. Live updates ------------------------------------------------------------------------

  it('shows a move made through the API on an open page within 1 s of its acknowledgement', async () => {
    const { id, tokens } = await create('backgammon', { matchLength: 1 });
    const { page, subscribed } = await open(`/games/${id}`);
    await showsVersion(page, (await game(id)).version);
    await subscribed;

    const seat = (await game(id)).toAct[0];
    const mine = await game(id, tokens[seat].token);
    const version = await act(id, tokens[seat].token, mine.legalActions[0], mine.version);
    const acknowledged = Date.now();
    // The new event is listed and the page is at the new version.
    await page.waitForFunction((v) => document.querySelector(`input[name="replay"]`)?.getAttribute('max') === String(v) && document.querySelector(`.events li[value="${v}"]`) !== null, version, {
      timeout: 1000,
    });
    console.log(`the move appeared on the page ${Date.now() - acknowledged} ms after its acknowledgement`);
    // A spectator's backgammon page: no axe violation at a desktop's width and a phone's.
    await accessible(page);
  });

  // ---- 3. Playing by clicking -----------------------------------------------------------------

  it('lets both seats play a whole 1-point backgammon match by clicking its legal actions', async () => {
    const { id, tokens } = await create('backgammon', { matchLength: 1 });
    const pages = await Promise.all(tokens.map(async ({ token }) => (await open(`/games/${id}#token=${token}`)).page));
    for (const page of pages) await page.waitForSelector('p.meta');
    for (const page of pages) expect(await page.locator('p.meta').textContent()).toContain('playing as');
    /** Cube and resignation actions would end the game without playing it. */
    const avoided = new Set(['double', 'resign', 'beaver', 'raccoon', 'drop']);
    const typeOf = (action: unknown) => (action as { type?: string }).type ?? '';

    let clicks = 0;
    for (let g = await game(id); g.status !== 'FINISHED'; g = await game(id)) {
      expect(clicks).toBeLessThan(400);
      const seat = g.toAct[0];
      const page = pages[seat];
      // Chromium gives a background tab no animation frames, and the waits here poll on them.
      await page.bringToFront();
      const mine = await game(id, tokens[seat].token);
      await showsVersion(page, mine.version);
      const offered = await page.locator('section.board [data-action]:visible').evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.action)));
      expect(offered.length).toBeGreaterThan(0);
      const index = offered.find((i) => !avoided.has(typeOf(mine.legalActions[i]))) ?? offered[0];
      await page.locator(`section.board [data-action="${index}"]:visible`).first().click();
      clicks++;
      // The page answers with the game at a later version, or says why the service refused the move.
      await page.waitForFunction((v) => Number(document.querySelector('input[name="replay"]')?.getAttribute('max')) > v || document.querySelector('.notice')?.textContent, mine.version);
      expect(await page.locator('.notice').textContent()).toBe('');
    }
    console.log(`the match took ${clicks} clicks`);
    // Both players' pages end on the result, verified.
    const { version } = await game(id);
    for (const page of pages) {
      await showsVersion(page, version);
      await page.waitForSelector('[data-verdict="ok"]');
      expect(await page.locator('section.board [data-action]').count()).toBe(0);
    }
  }, 300_000);

  // ---- 4. Hidden information ----------------------------------------------------------------

  it("never shows a spectator any seat's tiles, and shows a seat its own hand and no one else's", async () => {
    const { id, tokens } = await create('chicken-foot', { players: 3 });
    await playThroughApi(id, tokens, 6, (action) => (action as { type?: string }).type === 'play');
    const { version } = await game(id);
    const hands = await Promise.all(tokens.map(async ({ token }) => ((await game(id, token)).view as { round: { hand: string[] } }).round.hand));
    for (const hand of hands) expect(hand.length).toBeGreaterThan(0);

    const spectator = (await open(`/games/${id}`)).page;
    await showsVersion(spectator, version);
    expect(await spectator.locator('[data-hand]').count()).toBe(0);
    const seen = await tilesShown(spectator);
    // The table's tiles are there: the check reads the board.
    expect(seen.size).toBeGreaterThan(0);
    expect(hands.flat().filter((tile) => seen.has(tile))).toEqual([]);
    await accessible(spectator);

    for (const [seat, { token }] of tokens.entries()) {
      const { page } = await open(`/games/${id}#token=${token}`);
      await showsVersion(page, version);
      const shown = await tilesShown(page);
      expect(hands[seat].filter((tile) => !shown.has(tile))).toEqual([]);
      const others = hands.filter((_, other) => other !== seat).flat();
      expect(others.filter((tile) => shown.has(tile))).toEqual([]);
    }
  });

  // ---- 5. Replay ------------------------------------------------------------------------------

  it('replays a short Cerke game event by event, each position as gameStateAt gives it', async () => {
    const id = await importRecord('cerke', 'cerke/cerke_online_kiaak_parser-case4-2022-09-08.txt');
    const { version } = await game(id);
    const { page } = await open(`/games/${id}`);
    await showsVersion(page, version);
    await replayTo(page, 1, version);
    for (let seq = 1; seq <= version; seq++) {
      if (seq > 1) {
        await page.click('[data-step="1"]');
        await showsBoardAfter(page, seq, version);
      }
      expect({ seq, ...(await cerkeShown(page)) }).toEqual({ seq, ...cerkePosition((await stateAt(id, seq)).view as CerkeView) });
    }
    // And back one.
    await page.click('[data-step="-1"]');
    await showsBoardAfter(page, version - 1, version);
    expect(await cerkeShown(page)).toEqual(cerkePosition((await stateAt(id, version - 1)).view as CerkeView));
    await accessible(page);
  });

  // ---- 6. Verification ------------------------------------------------------------------------

  describe('a finished game with an event edited in the database', () => {
    let id = '';
    /** The event edited. */
    let edited = 0;
    beforeAll(async () => {
      id = await importRecord('cerke', 'cerke/cerke_online_kiaak_parser-case4-2022-09-08.txt');
    });

    it('shows the green badge before the edit', async () => {
      const { page } = await open(`/games/${id}`);
      await page.waitForSelector('[data-verdict="ok"]');
    });

    it('shows the red badge after it', async () => {
      const events: { seq: number; type: string }[] = (await suite.app.gql(EVENTS, { gameId: id })).data.gameEvents.nodes;
      edited = events.find((e) => e.type === 'ActionTaken')!.seq;
      await suite.app.app.get(DatabaseService).prisma.$executeRawUnsafe(`UPDATE events SET payload = payload || '{"edited": true}'::jsonb WHERE game_id = $1 AND seq = $2`, id, edited);
      const { page } = await open(`/games/${id}`);
      await page.waitForSelector('[data-verdict="bad"]');
      expect(await page.locator('.verification').textContent()).toContain(`event ${edited}`);
    });

    it('shows the red badge after a restart too, when the service refuses to serve the edited game', async () => {
      await restart();
      expect((await suite.app.gql(GAME, { id })).errors?.[0]?.extensions?.code).toBe('INTEGRITY_ERROR');
      const { page } = await open(`/games/${id}`);
      await page.waitForSelector('[data-verdict="bad"]');
      expect(await page.locator('.verification').textContent()).toContain(`event ${edited}`);
    });
  });

  /** The service stopped and started again on the same database: the games it held in memory are read again from their stored events. */
  async function restart(): Promise<void> {
    for (const page of context.pages()) await page.close();
    const { dataDir } = suite.app;
    await suite.app.app.close();
    const next = await startApp(dataDir ? { dataDir } : {});
    suite.app = {
      ...next,
      async close() {
        await next.close();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }

  // ---- 7. Size and speed ----------------------------------------------------------------------

  it("keeps the page's script under 80 kB gzipped (what it loads first; a tournament's verifier comes later)", () => {
    const assets = join(WEB_DIR, 'assets');
    const entry = /src="\/web\/assets\/([^"]+\.js)"/.exec(readFileSync(join(WEB_DIR, 'index.html'), 'utf8'))?.[1];
    expect(entry).toBeDefined();
    // The entry and the chunks it imports statically (`import(...)` is loaded on demand).
    const first = new Set([entry as string]);
    for (const f of first) for (const [, chunk] of readFileSync(join(assets, f), 'utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) first.add(chunk);
    const gzipped = [...first].reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f))).length, 0);
    console.log(`the page's script is ${(gzipped / 1024).toFixed(1)} kB gzipped`);
    expect(gzipped).toBeLessThan(80 * 1024);
  });

  it.each([
    ['backgammon', { matchLength: 1 }],
    ['chicken-foot', { players: 4 }],
    ['cerke', {}],
  ])("fits a phone's screen (%s): nothing scrolls sideways, and the board and the seat's actions are within its width", async (kind, ruleset) => {
    const { id, tokens } = await create(kind, ruleset);
    const phone = await offlineContext({ width: 390, height: 844 });
    try {
      const seat = (await game(id)).toAct[0];
      const { page } = await open(`/games/${id}#token=${tokens[seat].token}`, phone);
      await page.waitForSelector('section.board [data-action]');
      const fit = await page.evaluate(() => {
        const right = (selector: string) => Math.max(...[...document.querySelectorAll(selector)].map((el) => el.getBoundingClientRect().right));
        return { scrolls: document.documentElement.scrollWidth, width: window.innerWidth, board: right('section.board svg'), actions: right('section.board [data-action]') };
      });
      expect(fit.scrolls).toBeLessThanOrEqual(fit.width);
      expect(fit.board).toBeLessThanOrEqual(fit.width);
      expect(fit.actions).toBeLessThanOrEqual(fit.width);
    } finally {
      await phone.close();
    }
  });

  it('draws a game page in under 1 s from navigation with the service local (asserted under 5 s)', async () => {
    const { id } = await create('backgammon', { matchLength: 1 });
    // A first visit: nothing cached.
    const fresh = await offlineContext();
    try {
      const { page } = await open(`/games/${id}`, fresh);
      // Read in the page the moment the board is there: milliseconds since navigation began.
      const ms = await (await page.waitForFunction(() => (document.querySelector('section.board svg') ? performance.now() : 0))).jsonValue();
      console.log(`first render of a game page: ${Math.round(ms)} ms from navigation`);
      expect(ms).toBeLessThan(5000);
    } finally {
      await fresh.close();
    }
  });

  // ---- 8. Offline, no errors ------------------------------------------------------------------

  it('loads the games list, the tournaments and a game with no request leaving the service, no console error and no CSP violation', async () => {
    const { id } = await create('backgammon', { matchLength: 1 });
    // Filtered, so that games other tests create on a shared database keep this one among the listed.
    const { page } = await open('/games?kind=backgammon');
    await page.waitForSelector(`a[href="/games/${id}"]`);
    await page.click(`a[href="/games/${id}"]`);
    await page.waitForSelector('section.board svg');
    expect(new URL(page.url()).pathname).toBe(`/games/${id}`);
    await page.goto(`${suite.app.url}/tournaments`);
    await page.waitForSelector('h1');
    expect(await page.locator('h1').textContent()).toBe('Tournaments');
    expect({ foreign: suite.watched.foreign, problems: suite.watched.problems }).toEqual({ foreign: [], problems: [] });
  });
});

// ---- What the boards show -----------------------------------------------------------------------

interface CerkeView {
  board: { square: string; kind: string; colour: string; side: string }[];
  tam2: string | null;
  capturedPiles: Record<string, { pieces: { kind: string; colour: string }[] }>;
}

interface CerkePosition {
  pieces: string[];
  tam2: string | null;
  hands: string[];
}

/** A Cerke position as comparable text: each piece on its square, Tam2's square, each side's captured pieces by kind. */
function cerkePosition(view: CerkeView): CerkePosition {
  const counts = new Map<string, number>();
  for (const [side, pile] of Object.entries(view.capturedPiles)) {
    for (const p of pile.pieces) {
      const piece = `${side} ${p.colour} ${p.kind}`;
      counts.set(piece, (counts.get(piece) ?? 0) + 1);
    }
  }
  return {
    pieces: view.board.map((p) => `${p.square} ${p.side} ${p.colour} ${p.kind}`).sort(),
    tam2: view.tam2,
    hands: [...counts].map(([piece, n]) => `${piece} ×${n}`).sort(),
  };
}

/** The same, read from the board's markup. */
async function cerkeShown(page: Page): Promise<CerkePosition> {
  return page.evaluate(() => {
    const board = document.querySelector('section.board')!;
    const data = (selector: string) => [...board.querySelectorAll<HTMLElement | SVGElement>(selector)].map((el) => el.dataset);
    return {
      pieces: data('[data-piece]')
        .map((d) => `${d.piece} ${d.side} ${d.colour} ${d.kind}`)
        .sort(),
      tam2: data('[data-tam2]')[0]?.tam2 ?? null,
      hands: data('[data-hand]')
        .map((d) => `${d.hand} ${d.colour} ${d.kind} ×${d.count}`)
        .sort(),
    };
  });
}

/**
 * The Chicken Foot tiles a page shows, as tile ids ("4-6"): marked on its board (`data-tile` on
 * the table, `data-hand` in a hand) or named anywhere in its text, labels and titles ("6|4").
 */
async function tilesShown(page: Page): Promise<Set<string>> {
  const { marked, text } = await page.evaluate(() => ({
    marked: [...document.querySelectorAll<HTMLElement | SVGElement>('[data-tile], [data-hand]')].map((el) => el.dataset.tile ?? el.dataset.hand ?? ''),
    text: [document.body.textContent, ...[...document.querySelectorAll('[aria-label], [title]')].map((el) => `${el.getAttribute('aria-label')} ${el.getAttribute('title')}`)].join('\n'),
  }));
  const named = [...text.matchAll(/(?<!\d)(\d+)\|(\d+)(?!\d)/g)].map(([, a, b]) => `${Math.min(Number(a), Number(b))}-${Math.max(Number(a), Number(b))}`);
  return new Set([...marked, ...named]);
}
