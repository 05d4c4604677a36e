import { ACT, CREATE, GAME } from './queries.js';

type Gql = (query: string, variables?: Record<string, unknown>, token?: string) => Promise<any>;

const JOIN = `mutation($id: ID!) { joinGame(gameId: $id) { ... on SeatJoined { token } } }`;

/** A two-seat duel (the test-only game), both seats taken: its id and the seats' tokens. */
export async function duel(gql: Gql): Promise<{ id: string; tokens: string[] }> {
  const created = (await gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, seats: [{ name: 'a' }, { open: true }] } })).data.createGame;
  const joined = (await gql(JOIN, { id: created.game.id })).data.joinGame;
  return { id: created.game.id, tokens: [created.tokens[0].token, joined.token] };
}

/** One move, the first legal action of the seat to act. */
export async function move(gql: Gql, id: string, tokens: string[]): Promise<void> {
  const game = (await gql(GAME, { id }, tokens[0])).data.game;
  const seat = game.toAct[0] as number;
  const legal = (await gql(GAME, { id }, tokens[seat])).data.game.legalActions;
  expect((await gql(ACT, { gameId: id, moveId: `m${game.version}`, action: legal[0], expectedVersion: game.version }, tokens[seat])).data.submitAction.__typename).toBe('MoveAccepted');
}
