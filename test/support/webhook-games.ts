import { ACT, CREATE, GAME } from './queries.js';
import { type Received, WebhookReceiver } from './webhook-receiver.js';

/** What the webhook suites share: the registrations' queries, quick retries, and duels played through the API. */

export const REGISTER = `mutation($input: RegisterWebhookInput!) {
  registerWebhook(input: $input) {
    ... on WebhookSecret { id secret webhook { id url events lowTimeThresholdsSeconds gameId seat tournamentId participantId playerId } }
    ... on Rejection { code message }
  }
}`;
export const ROTATE = `mutation($id: ID!) { rotateWebhookSecret(id: $id) { ... on WebhookSecret { id secret } ... on Rejection { code message } } }`;
export const DELETE = `mutation($id: ID!) { deleteWebhook(id: $id) { __typename ... on WebhookDeleted { id } ... on Rejection { code message } } }`;
export const DELIVERIES = `query($id: ID!, $first: Int, $after: String) {
  webhookDeliveries(id: $id, first: $first, after: $after) {
    nodes { messageId type gameId seq attempts lastAttemptAt lastStatus lastError nextAttemptAt deliveredAt givenUpAt }
    pageInfo { endCursor hasNextPage }
  }
}`;
export const JOIN = `mutation($id: ID!) { joinGame(gameId: $id) { __typename ... on SeatJoined { seat token } ... on Rejection { code message } } }`;

/** Quick retries for the tests: at most 20 ms, 40 ms, ... 100 ms apart; a look every 50 ms. */
export const QUICK = { webhookRetryBaseMs: 20, webhookRetryMaxMs: 100, webhookPollMs: 50, webhookTimeoutSeconds: 2 };

export interface Delivery {
  messageId: string;
  type: string;
  gameId: string;
  seq: number;
  attempts: number;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  givenUpAt: string | null;
}

export type Gql = (query: string, variables?: Record<string, unknown>, token?: string) => Promise<any>;

/** A refusal's code: a mutation's Rejection, or a query's error. */
export const codeOf = (res: any): string | undefined => res.errors?.[0]?.extensions?.code ?? (Object.values(res.data ?? {})[0] as { code?: string } | null)?.code;

/** A two-seat duel (a test-only game: 3 cards each, in turn), seat 1 left open: it starts when someone joins. */
export async function newDuel(gql: Gql): Promise<{ id: string; token0: string }> {
  const res = await gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, seats: [{ name: 'a' }, { open: true }] } });
  expect(res.data.createGame.__typename).toBe('GameCreated');
  return { id: res.data.createGame.game.id, token0: res.data.createGame.tokens[0].token };
}

export async function joinDuel(gql: Gql, id: string): Promise<string> {
  const res = await gql(JOIN, { id });
  expect(res.data.joinGame.__typename).toBe('SeatJoined');
  return res.data.joinGame.token;
}

/** Plays up to `moves` moves (all, without), each the first legal action of the seat to act; answers the seats that moved. */
export async function play(gql: Gql, id: string, tokens: string[], moves = Number.POSITIVE_INFINITY): Promise<number[]> {
  const seats: number[] = [];
  while (seats.length < moves) {
    const game = (await gql(GAME, { id }, tokens[0])).data.game;
    if (game.status !== 'ACTIVE') break;
    const seat = game.toAct[0] as number;
    const legal = (await gql(GAME, { id }, tokens[seat])).data.game.legalActions;
    const res = await gql(ACT, { gameId: id, moveId: `m${game.version}`, action: legal[0], expectedVersion: game.version }, tokens[seat]);
    expect(res.data.submitAction.__typename).toBe('MoveAccepted');
    seats.push(seat);
  }
  return seats;
}

export async function register(gql: Gql, token: string, input: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const res = await gql(REGISTER, { input }, token);
  expect(res.errors).toBeUndefined();
  expect(res.data.registerWebhook.code).toBeUndefined();
  return res.data.registerWebhook;
}

/** The whole delivery log, oldest first. */
export async function log(gql: Gql, webhookId: string, token: string): Promise<Delivery[]> {
  const all: Delivery[] = [];
  let after: string | null = null;
  for (;;) {
    const res = await gql(DELIVERIES, { id: webhookId, first: 2, after }, token);
    expect(res.errors).toBeUndefined();
    const page = res.data.webhookDeliveries;
    all.push(...page.nodes);
    if (!page.pageInfo.hasNextPage) return all.reverse();
    after = page.pageInfo.endCursor;
  }
}

export const ofGame = (gameId: string) => (r: Received) => WebhookReceiver.body(r).data.gameId === gameId;
