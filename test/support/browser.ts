import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { WEB_DIR } from '../../src/api/web.controller.js';
import type { Config } from '../../src/config/config.js';
import { startApp, type TestApp } from './app.js';

/**
 * Headless Debian Chromium for the web page's tests, with every request to anywhere but the
 * service refused and recorded, and each page's console errors, uncaught exceptions and
 * Content-Security-Policy violations collected: a test ends by expecting both lists empty.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const built = existsSync(join(WEB_DIR, 'index.html'));
/**
 * The page reads only the API, whose answers the API's own suites check on both databases: its
 * suites run once, on the embedded one (CI's first pass), not again on PostgreSQL.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** `describe` when Chromium and the built page are there (and not on PostgreSQL), else `describe.skip`. */
export const describeInBrowser = haveChromium && built && !onPostgres ? describe : describe.skip;
/** A suite's title, saying why it is skipped when it is. */
export const browserTitle = (what: string): string =>
  !haveChromium
    ? `${what} (skipped: no Chromium at ${CHROMIUM}; apt-get install -y chromium, or set CHROMIUM_PATH)`
    : !built
      ? `${what} (skipped: not built, run npm run build)`
      : onPostgres
        ? `${what} (skipped with TEST_DATABASE_URL: the page's suites run on the embedded database)`
        : `${what}, offline`;

/** A fixed window, so the board (which fills its column) is drawn at the same size everywhere. */
export const VIEWPORT = { width: 1000, height: 900 };

export interface Opened {
  page: Page;
  /** Settles once the page asked the service for live events (graphql-ws subscribe sent). */
  subscribed: Promise<void>;
}

export class WatchedBrowser {
  /** Requests and sockets a page opened to anywhere but the service (all refused). */
  foreign: string[] = [];
  /** Console errors, uncaught exceptions and Content-Security-Policy violations, with the page they came from. */
  problems: string[] = [];

  private constructor(
    readonly browser: Browser,
    /** The service's base URL (a function: a restarted service listens elsewhere). */
    private readonly service: () => string,
  ) {}

  static async launch(service: () => string): Promise<WatchedBrowser> {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Unhinted glyph outlines keep text rendering close from one machine's fonts to another's.
      args: ['--no-sandbox', '--headless=new', '--font-render-hinting=none'],
    });
    return new WatchedBrowser(browser, service);
  }

  /** What was seen since the last call, the lists emptied. */
  take(): { foreign: string[]; problems: string[] } {
    const seen = { foreign: this.foreign, problems: this.problems };
    this.foreign = [];
    this.problems = [];
    return seen;
  }

  /** A browser context that refuses every request to another origin than the service's and reports CSP violations as console errors. */
  async context(viewport = VIEWPORT): Promise<BrowserContext> {
    const created = await this.browser.newContext({ viewport, deviceScaleFactor: 1, reducedMotion: 'reduce' });
    await created.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === new URL(this.service()).origin) return route.continue();
      this.foreign.push(url.href);
      return route.abort('blockedbyclient');
    });
    await created.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    return created;
  }

  /** Opens a path of the service (a seat's token may follow in the fragment) in a new tab, watched for problems. */
  async open(path: string, where: BrowserContext): Promise<Opened> {
    const page = await where.newPage();
    // Everything here is local: a wait this long means the page is stuck.
    page.setDefaultTimeout(10_000);
    const name = path.replace(/#.*/, '#…');
    let subscribed = () => {};
    const subscription = new Promise<void>((done) => (subscribed = done));
    page.on('console', (m) => {
      if (m.type() === 'error') this.problems.push(`${name}: ${m.text()}`);
    });
    page.on('pageerror', (e) => this.problems.push(`${name}: ${e.message}`));
    page.on('websocket', (ws) => {
      if (new URL(ws.url()).host !== new URL(this.service()).host) this.foreign.push(ws.url());
      ws.on('framesent', (f) => {
        if ((JSON.parse(String(f.payload)) as { type?: string }).type === 'subscribe') subscribed();
      });
    });
    await page.goto(this.service() + path);
    return { page, subscribed: subscription };
  }
}

/** A suite's service and watched Chromium: started before its tests, closed after them (`app` may be replaced, as by a restart). */
export function serviceWithBrowser(overrides: Partial<Config> = {}): { app: TestApp; watched: WatchedBrowser } {
  const suite = {} as { app: TestApp; watched: WatchedBrowser };
  beforeAll(async () => {
    suite.app = await startApp(overrides);
    suite.watched = await WatchedBrowser.launch(() => suite.app.url);
  }, 120_000);
  afterAll(async () => {
    await suite.watched?.browser.close();
    await suite.app?.close();
  });
  return suite;
}
