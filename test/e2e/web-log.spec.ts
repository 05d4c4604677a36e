import type { Page, Route } from 'playwright-core';
import { parseCheckpoint, parseVerifierKey } from '../../src/referee/core/tlog/checkpoint.js';
import { TournamentService } from '../../src/referee/index.js';
import { TransparencyLog } from '../../src/transparency/index.js';
import { browserTitle, describeInBrowser, serviceWithBrowser } from '../support/browser.js';
import { swissOfTwo } from '../support/instances.js';
import { CREATE } from '../support/queries.js';
import { docsScreenshot } from '../support/screenshots.js';
import { accessible } from '../support/web-players.js';

/**
 * A finished game's and tournament's place in the transparency log (issue 31, item 5), in
 * headless Chromium: the page fetches the log's key, and checks the bundle's inclusion proof (the
 * referee core's) and its checkpoint's Ed25519 signature (WebCrypto) itself. A proof or a
 * signature altered on its way to the page shows as not verified, with the reason.
 * `DOCS_SCREENSHOTS=1` writes the screenshot docs/web-page.md shows.
 */
const RESIGN = 'mutation($id: ID!, $m: String!) { resignGame(gameId: $id, moveId: $m) { ... on MoveAccepted { status } ... on Rejection { code } } }';

describeInBrowser(browserTitle("a finished game's and tournament's place in the transparency log, verified in headless Chromium"), () => {
  // Checkpoints only when a test asks (checkpointNow), besides the one at start.
  const suite = serviceWithBrowser({ logCheckpointMs: 3_600_000 });
  const log = () => suite.app.app.get(TransparencyLog);
  const publishedKey = async () => parseVerifierKey(await (await fetch(`${suite.app.url}/api/log/key`)).text());

  /** A 1-point backgammon match, resigned by its first seat. */
  async function finishedGame(): Promise<string> {
    const created = (await suite.app.gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, seats: [{ name: 'Ann' }, { name: 'Bob' }] } })).data.createGame;
    expect((await suite.app.gql(RESIGN, { id: created.game.id, m: 'resign' }, created.tokens[0].token)).data.resignGame).toEqual({ status: 'FINISHED' });
    return created.game.id;
  }

  const logText = async (page: Page, state: string) => {
    await page.waitForSelector(`[data-log="${state}"]`);
    return ((await page.locator('.verification').textContent()) ?? '').replace(/\s+/g, ' ');
  };

  /** The bundle as the service serves it, changed by `alter` on its way to the page. */
  const tampered = (alter: (bundle: { log: { inclusionProof: string[]; checkpoint: string } }) => void) => async (route: Route) => {
    const response = await route.fetch();
    const bundle = await response.json();
    alter(bundle);
    await route.fulfill({ response, json: bundle });
  };

  it('waits for the next checkpoint, then shows the game included at checkpoint N, its proof and signature verified with the published key', async () => {
    const id = await finishedGame();
    const key = await publishedKey();
    const context = await suite.watched.context();
    const { page } = await suite.watched.open(`/games/${id}`, context);
    expect(await logText(page, 'waiting')).toContain('Waiting for the next checkpoint');
    expect(await page.locator('[data-log="waiting"]').getAttribute('role')).toBe('status');

    const size = (await log().checkpointNow())?.checkpoint?.size;
    expect(size).toBeGreaterThan(0);
    // The page asks again while it waits (every 5 s).
    const text = await logText(page, 'included');
    expect(text).toContain(`✔ Included in the public log at checkpoint ${size}`);
    expect(text).toContain(`the inclusion proof and the checkpoint's Ed25519 signature verified in your browser (WebCrypto)`);
    expect(text).toContain(`the log's key ${key.name} (key id ${key.keyId.toString('hex')}, from /api/log/key)`);
    expect(await page.locator('[data-log="included"]').getAttribute('role')).toBe('status');
    await accessible(page);
    await docsScreenshot(page, 'game-log');
    await context.close();
    expect(suite.watched.take()).toEqual({ foreign: [], problems: [] });
  }, 300_000);

  it('shows a tampered inclusion proof, or a checkpoint signed by another key, as not verified, with the reason', async () => {
    const id = await finishedGame();
    await log().checkpointNow();
    const context = await suite.watched.context();

    const page = await context.newPage();
    await page.route(
      `**/api/games/${id}/bundle`,
      tampered((b) => (b.log.inclusionProof[0] = Buffer.alloc(32, 7).toString('base64'))),
    );
    await page.goto(`${suite.app.url}/games/${id}`);
    const text = await logText(page, 'failed');
    expect(text).toContain('✘ Not verified against the public log');
    expect(text).toMatch(/the log's checkpoint \d+ does not hold this game's final head \(seq \d+, hash [0-9a-f]{12}…\) at leaf \d+/);
    expect(await page.locator('[data-log="failed"]').getAttribute('role')).toBe('status');
    await accessible(page);

    // The checkpoint's signature bytes flipped: the key's signature line is there, and does not verify.
    const signatureAltered = await context.newPage();
    await signatureAltered.route(
      `**/api/games/${id}/bundle`,
      tampered((b) => {
        const line = b.log.checkpoint.trimEnd().split('\n').at(-1) ?? '';
        const raw = Buffer.from(line.split(' ').at(-1) ?? '', 'base64');
        raw[10] ^= 1;
        b.log.checkpoint = b.log.checkpoint.replace(line, `${line.slice(0, line.lastIndexOf(' '))} ${raw.toString('base64')}`);
      }),
    );
    await signatureAltered.goto(`${suite.app.url}/games/${id}`);
    expect(await logText(signatureAltered, 'failed')).toMatch(/the checkpoint \(size \d+\) carries no valid signature by the log's key/);
    await context.close();
  }, 300_000);

  it('shows a finished tournament included at checkpoint N', async () => {
    const tournaments = suite.app.app.get(TournamentService);
    const { id, game, loser } = await swissOfTwo({ tournaments }, { kind: 'backgammon', ruleset: { matchLength: 1 } });
    expect((await suite.app.gql(RESIGN, { id: game.gameId, m: 'concede' }, loser)).data.resignGame).toEqual({ status: 'FINISHED' });
    // The game's end records its result, which finishes a one-round Swiss (a workflow step).
    for (let i = 0; i < 100 && (await (await fetch(`${suite.app.url}/api/tournaments/${id}`)).json()).status !== 'FINISHED'; i++) await new Promise((r) => setTimeout(r, 100));
    await log().checkpointNow();
    const size = parseCheckpoint(await (await fetch(`${suite.app.url}/api/log/checkpoint`)).text()).size;
    const context = await suite.watched.context();
    const { page } = await suite.watched.open(`/tournaments/${id}`, context);
    expect(await logText(page, 'included')).toContain(`✔ Included in the public log at checkpoint ${size}`);
    await page.waitForSelector('[data-verdict="ok"]');
    await accessible(page);
    await context.close();
    expect(suite.watched.take()).toEqual({ foreign: [], problems: [] });
  }, 300_000);
});
