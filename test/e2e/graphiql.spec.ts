import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import { GRAPHIQL_DIR } from '../../src/api/graphiql.controller.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { startApp, type TestApp } from '../support/app.js';

/**
 * GraphiQL at /graphiql: bundled at build time (`npm run build` writes dist/graphiql/), served by
 * the referee itself under a self-only CSP, on unless NODE_ENV=production (GRAPHIQL=on there).
 * The browser part runs in headless Debian Chromium with every non-local request refused.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const built = existsSync(join(GRAPHIQL_DIR, 'index.html'));

describe('GraphiQL switch (GRAPHIQL, NODE_ENV)', () => {
  it('is on by default, off under NODE_ENV=production unless GRAPHIQL=on, and refuses other values', () => {
    expect(loadConfig({}).graphiql).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).graphiql).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', GRAPHIQL: 'on' }).graphiql).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', GRAPHIQL: ' ON ' }).graphiql).toBe(true);
    expect(loadConfig({ GRAPHIQL: 'off' }).graphiql).toBe(false);
    expect(() => loadConfig({ GRAPHIQL: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ GRAPHIQL: 'yes' })).toThrow(/GRAPHIQL must be on or off/);
  });

  describe('under NODE_ENV=production without GRAPHIQL=on', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({ graphiql: loadConfig({ NODE_ENV: 'production' }).graphiql });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('answers 404 with a JSON error for the page, its assets and a browser opening /graphql', async () => {
      const server = t.app.getHttpServer();
      for (const path of ['/graphiql', '/graphiql/', '/graphiql/assets/graphiql.js']) {
        const res = await request(server).get(path).set('accept', 'text/html').expect(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
        expect(res.body.error.message).toContain('GRAPHIQL=on');
      }
      const browser = await request(server).get('/graphql').set('accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(404);
      expect(res(browser).error.code).toBe('NOT_FOUND');
      // No landing page from Apollo either, and queries still work.
      expect(browser.text).not.toMatch(/apollo|sandbox|<html/i);
      const query = await request(server).post('/graphql').send({ query: '{ gameKinds }' }).expect(200);
      expect(query.body.data.gameKinds).toContain('backgammon');
    });
  });
});

const res = (r: request.Response) => r.body as { error: { code: string; message: string } };

(built ? describe : describe.skip)(`GraphiQL served from ${built ? 'dist/graphiql' : 'dist/graphiql (skipped: not built, run npm run build)'}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ graphiql: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the page and its assets from this origin under a self-only CSP', async () => {
    const server = t.app.getHttpServer();
    const page = await request(server).get('/graphiql').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // No inline script or style, and nothing from another origin.
    expect(page.text).not.toMatch(/<script>|<style|style=|https?:\/\//);
    const assets = [...page.text.matchAll(/(?:src|href)="(\/graphiql\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(2);
    for (const path of assets) {
      const asset = await request(server).get(path).set('accept-encoding', 'gzip').expect(200);
      expect(asset.headers['content-encoding']).toBe('gzip');
      expect(asset.headers['cache-control']).toContain('immutable');
      await request(server).get(path).set('if-none-match', asset.headers.etag).expect(304);
    }
    const missing = await request(server).get('/graphiql/assets/nope.js').expect(404);
    expect(res(missing).error.code).toBe('NOT_FOUND');
  });

  it("puts nothing of the request's Host header into the page's policy", async () => {
    const page = await request(t.app.getHttpServer()).get('/graphiql').set('host', 'evil.example:1').expect(200);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self';");
    expect(page.headers['content-security-policy']).not.toContain('evil.example');
  });

  it('answers every kind of response with X-Content-Type-Options: nosniff', async () => {
    const server = t.app.getHttpServer();
    const answers = [
      await request(server).post('/graphql').send({ query: '{ __typename }' }).expect(200),
      await request(server).post('/graphql').send({ query: '{ nope }' }),
      await request(server).get('/api/games/nosuchgame').expect(404),
      await request(server).get('/api/games/nosuchgame/events').expect(404),
      await request(server).get('/healthz').expect(200),
    ];
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends a browser opening /graphql to GraphiQL, and every other GET /graphql on to Apollo', async () => {
    const server = t.app.getHttpServer();
    const browser = await request(server).get('/graphql').set('accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(302);
    expect(browser.headers.location).toBe('/graphiql');
    const get = await request(server).get('/graphql').query({ query: '{ gameKinds }' }).set('accept', 'text/html,*/*').set('apollo-require-preflight', '1').expect(200);
    expect(JSON.parse(get.text).data.gameKinds).toContain('backgammon');
    const json = await request(server).get('/graphql').set('accept', 'application/json');
    expect(json.status).toBe(400);
  });
});

(haveChromium && built ? describe : describe.skip)(
  haveChromium ? 'GraphiQL in headless Chromium, offline' : `GraphiQL in headless Chromium (skipped: no Chromium at ${CHROMIUM}; apt-get install -y chromium, or set CHROMIUM_PATH)`,
  () => {
    let t: TestApp;
    let browser: Browser;
    let page: Page;
    /** Requests the page tried to make to anywhere but the app under test (all refused). */
    const foreign: string[] = [];
    const sockets: string[] = [];
    /** graphql-ws messages the page sent. */
    const sent: string[] = [];
    let origin = '';

    beforeAll(async () => {
      t = await startApp({ graphiql: true });
      origin = new URL(t.url).origin;
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless=new'] });
      const context = await browser.newContext();
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.origin === origin) return route.continue();
        foreign.push(url.href);
        return route.abort('blockedbyclient');
      });
      page = await context.newPage();
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.protocol !== 'data:' && url.origin !== origin && !foreign.includes(url.href)) foreign.push(url.href);
      });
      page.on('websocket', (ws) => {
        sockets.push(ws.url());
        ws.on('framesent', (f) => sent.push(String(f.payload)));
      });
      // Content-Security-Policy violations, as the page sees them.
      await page.addInitScript(() => {
        const w = window as unknown as { cspViolations: string[] };
        w.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    /** Sets an editor's text through its CodeMirror instance (the query editor, or the headers editor below it). */
    async function setEditor(which: 'query' | 'headers', text: string): Promise<void> {
      await page.evaluate(
        ([w, value]) => {
          const selector = w === 'query' ? '.graphiql-query-editor .CodeMirror' : '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';
          const el = document.querySelector(selector) as (Element & { CodeMirror?: { setValue(v: string): void } }) | null;
          if (!el?.CodeMirror) throw new Error(`no ${w} editor`);
          el.CodeMirror.setValue(value);
        },
        [which, text] as const,
      );
    }

    async function run(): Promise<void> {
      await page.click('.graphiql-execute-button');
    }

    const response = () => page.locator('.graphiql-response .CodeMirror');

    it('opens from /graphql, runs { gameKinds } and shows backgammon, with no request leaving 127.0.0.1', async () => {
      await page.goto(`${t.url}/graphql`);
      expect(new URL(page.url()).pathname).toBe('/graphiql');
      await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 30_000 });
      await setEditor('query', '{ gameKinds }');
      await run();
      await expect(response().getByText('backgammon', { exact: false }).first().waitFor({ timeout: 30_000 })).resolves.toBeUndefined();
      expect(await response().textContent()).toContain('"backgammon"');
      expect(foreign).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    }, 90_000);

    it("sends the seat token from the headers editor, over HTTP and in a subscription's graphql-ws connection", async () => {
      const created = await t.gql('mutation { createGame(input: { kind: "duel", ruleset: { cards: 12, handSize: 3 } }) { ... on GameCreated { game { id } tokens { seat token } } } }');
      const { game, tokens } = created.data.createGame as { game: { id: string }; tokens: { seat: number; token: string }[] };
      await setEditor('headers', JSON.stringify({ Authorization: `Bearer ${tokens[1].token}` }));
      await setEditor('query', `{ game(id: "${game.id}") { id mySeat } }`);
      await run();
      await page.waitForFunction(() => document.querySelector('.graphiql-response')?.textContent?.includes('mySeat'), undefined, { timeout: 30_000 });
      expect(await response().textContent()).toMatch(/"mySeat": 1/);

      await setEditor('query', `subscription { gameEvents(gameId: "${game.id}") { seq type } }`);
      await run();
      await page.waitForFunction(() => document.querySelector('.graphiql-response')?.textContent?.includes('gameEvents'), undefined, { timeout: 30_000 });
      expect(await response().textContent()).toMatch(/"seq": \d+/);
      // The token went in the connection params of graphql-ws's connection_init.
      const init = sent.map((m) => JSON.parse(m)).find((m) => m.type === 'connection_init');
      expect(init.payload.Authorization).toBe(`Bearer ${tokens[1].token}`);
      expect(sockets.length).toBeGreaterThan(0);
      for (const url of sockets) expect(url).toBe(`${origin.replace(/^http/, 'ws')}/graphql`);
      expect(foreign).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    }, 90_000);
  },
);
