import { PER_DESTINATION, PER_OWNER, SUSPEND_AFTER_TIMEOUTS } from '../../src/webhooks/delivery-worker.js';
import { startApp, type TestApp } from '../support/app.js';
import { duel, move } from '../support/duels.js';
import { ownStorageEach } from '../support/own-database.js';
import { eventually, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * One owner's dead receivers must not hold up another owner's messages (issue 24, finding 7):
 * deliveries are shared per destination and per owner, and a receiver that keeps timing out is
 * paused, then suspended until its owner resumes it. Nothing here waits for a speed: a hanging
 * request stays open for the whole test. Each test has a database of its own: the counts of
 * requests and attempts hold only if no other suite's instance delivers (or refuses) its messages.
 */

const REGISTER = `mutation($input: RegisterWebhookInput!) { registerWebhook(input: $input) { ... on WebhookSecret { id } ... on Rejection { code } } }`;
const WEBHOOK = `query($id: ID!) { webhook(id: $id) { id timeouts suspendedAt } }`;
const RESUME = `mutation($id: ID!) { resumeWebhook(id: $id) { ... on Webhook { id timeouts suspendedAt } ... on Rejection { code } } }`;
const DELIVERIES = `query($id: ID!) { webhookDeliveries(id: $id, first: 1) { nodes { attempts lastError deliveredAt } } }`;

type Gql = TestApp['gql'];

async function hook(gql: Gql, token: string, url: string, gameId: string): Promise<string> {
  const res = await gql(REGISTER, { input: { url, gameId, events: ['YOUR_TURN'] } }, token);
  expect(res.errors).toBeUndefined();
  return res.data.registerWebhook.id;
}

const hosts = (receivers: WebhookReceiver[]) => receivers.map((r) => ({ hostname: '127.0.0.1', port: r.port }));

describe('webhook fairness', () => {
  const storage = ownStorageEach('webhook_fairness');
  it("delivers another owner's message while one destination's and one owner's receivers hang, each holding at most its share", async () => {
    const crowded = await WebhookReceiver.start();
    const spread = await Promise.all(Array.from({ length: 6 }, () => WebhookReceiver.start()));
    const victim = await WebhookReceiver.start();
    for (const r of [crowded, ...spread]) r.answering = false;
    // Timeouts far longer than the test: the hanging requests stay open throughout.
    const t = await startApp({ ...storage(), webhookAllowedHosts: hosts([crowded, ...spread, victim]), webhookTimeoutSeconds: 60, webhookPollMs: 50 });
    try {
      // Four owners (a game's seat each) with ten webhooks each at one hanging destination: more than the worker's 32 slots.
      const games = [];
      for (let g = 0; g < 4; g++) {
        const game = await duel(t.gql);
        for (let k = 0; k < 10; k++) await hook(t.gql, game.tokens[0], `http://127.0.0.1:${crowded.port}/hook/${k}`, game.id);
        games.push(game);
      }
      // One owner with a webhook at each of six hanging destinations.
      const wide = await duel(t.gql);
      for (const r of spread) await hook(t.gql, wide.tokens[0], `http://127.0.0.1:${r.port}/hook`, wide.id);
      for (const game of [...games, wide]) await move(t.gql, game.id, game.tokens);
      const spreadOpen = () => spread.reduce((n, r) => n + r.open, 0);
      await eventually(
        async () => [crowded.open, spreadOpen()],
        ([a, b]) => a === PER_DESTINATION && b === PER_OWNER,
      );

      const other = await duel(t.gql);
      await hook(t.gql, other.tokens[0], victim.url, other.id);
      await move(t.gql, other.id, other.tokens);
      await victim.until(() => victim.delivered().length >= 1);
      // Delivered while every hanging request is still open, and none of them was ever joined by more.
      expect([crowded.open, spreadOpen()]).toEqual([PER_DESTINATION, PER_OWNER]);
      expect(crowded.mostOpen).toBe(PER_DESTINATION);
      expect(spread.reduce((n, r) => n + r.mostOpen, 0)).toBeLessThanOrEqual(PER_OWNER);
    } finally {
      await t.close();
      for (const r of [crowded, ...spread, victim]) await r.stop();
    }
  });

  it(`suspends a webhook whose receiver timed out ${SUSPEND_AFTER_TIMEOUTS} times in a row, tries nothing more, and delivers once its owner resumes it`, async () => {
    const receiver = await WebhookReceiver.start();
    receiver.answering = false;
    const t = await startApp({ ...storage(), webhookAllowedHosts: hosts([receiver]), webhookTimeoutSeconds: 1, webhookRetryBaseMs: 20, webhookRetryMaxMs: 100, webhookPollMs: 50 });
    try {
      const game = await duel(t.gql);
      const id = await hook(t.gql, game.tokens[0], receiver.url, game.id);
      await move(t.gql, game.id, game.tokens);
      const suspended = await eventually(
        async () => (await t.gql(WEBHOOK, { id }, game.tokens[0])).data.webhook,
        (w) => w.suspendedAt !== null,
      );
      expect(suspended.timeouts).toBe(SUSPEND_AFTER_TIMEOUTS);
      const log = async () => (await t.gql(DELIVERIES, { id }, game.tokens[0])).data.webhookDeliveries.nodes[0];
      expect(await log()).toMatchObject({ attempts: SUSPEND_AFTER_TIMEOUTS, lastError: 'timed out', deliveredAt: null });
      // Several polls later, still no further attempt.
      await new Promise((r) => setTimeout(r, 500));
      expect((await log()).attempts).toBe(SUSPEND_AFTER_TIMEOUTS);

      // Only a token that manages it may resume it.
      expect((await t.gql(RESUME, { id }, game.tokens[1])).data.resumeWebhook.code).toBe('UNAUTHORIZED');
      receiver.answering = true;
      expect((await t.gql(RESUME, { id }, game.tokens[0])).data.resumeWebhook).toEqual({ id, timeouts: 0, suspendedAt: null });
      await receiver.until(() => receiver.delivered().length >= 1);
      const delivered = await eventually(log, (d) => d.deliveredAt !== null);
      expect(delivered.attempts).toBe(SUSPEND_AFTER_TIMEOUTS + 1);
      expect((await t.gql(WEBHOOK, { id }, game.tokens[0])).data.webhook).toMatchObject({ timeouts: 0, suspendedAt: null });
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});
