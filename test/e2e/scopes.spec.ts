import { DiscoveryService, ModulesContainer } from '@nestjs/core';
import { buildSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { NEEDS } from '../../src/api/scopes.js';
import { KEY_SCOPES, type KeyScope } from '../../src/referee/index.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

const ROOT_FIELD = 'graphql:resolver_type';

describe('every operation says what scope it needs', () => {
  it('marks each GraphQL query, mutation and subscription and each REST route with @Needs or @Public', () => {
    const operations: string[] = [];
    const unmarked: string[] = [];
    const discovery = new DiscoveryService(t.app.get(ModulesContainer));
    for (const wrapper of [...discovery.getProviders(), ...discovery.getControllers()]) {
      const proto = wrapper.metatype?.prototype;
      if (!proto || !wrapper.metatype) continue;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const method = Object.getOwnPropertyDescriptor(proto, name)?.value;
        if (typeof method !== 'function' || name === 'constructor') continue;
        const root = Reflect.getMetadata(ROOT_FIELD, method);
        const route = Reflect.getMetadata('path', method) !== undefined && Reflect.getMetadata('method', method) !== undefined;
        if (!(['Query', 'Mutation', 'Subscription'].includes(root) || route)) continue;
        const id = `${wrapper.metatype.name}.${name}`;
        if (root) operations.push(id);
        if (!Reflect.hasMetadata(NEEDS, method)) unmarked.push(id);
      }
    }
    expect(unmarked).toEqual([]);
    // Every root field of the schema was found here: none escapes the check.
    const schema = buildSchema(readFileSync(resolve(import.meta.dirname, '../../schema.graphql'), 'utf8'));
    const rootFields = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].reduce((n, type) => n + Object.keys(type?.getFields() ?? {}).length, 0);
    expect(operations.length).toBe(rootFields);
  });
});

const gql = async (query: string, key: string, variables: Record<string, unknown> = {}) => {
  const res = await t.gql(query, variables, key);
  return res.errors ? (res.errors[0].extensions?.code as string) : 'OK';
};
const issue = async (key: string, scopes: string[]) => {
  const res = await t.gql('mutation($s: [Scope!]) { issueKey(scopes: $s) { __typename ... on IssuedKey { secret } ... on Rejection { code message } } }', { s: scopes }, key);
  return res.data.issueKey.secret as string;
};
const upper = (s: KeyScope) => s.toUpperCase();

/** One operation per scope: what it answers is beside the point, only whether the guard let it through. */
const NEEDING: Record<KeyScope, (key: string) => Promise<string>> = {
  read: (key) => gql('{ gameKinds }', key),
  play: (key) => gql('mutation { resignGame(gameId: "AAAAAAAAAAAA", moveId: "m-1") { __typename } }', key),
  create_games: (key) => gql('mutation { createGame(input: { kind: "duel" }) { __typename } }', key),
  tournaments: (key) => gql('mutation { finishTournament(tournamentId: "t-AAAAAAAAAAAA") { __typename ... on Tournament { id } ... on Rejection { code message } } }', key),
  webhooks: (key) => gql('{ webhook(id: "AAAAAAAAAAAA") { id } }', key),
  players: (key) => gql('mutation { createPlayer(name: "Gil") { __typename ... on PlayerCreated { player { id } } ... on Rejection { code message } } }', key),
};

describe('a key without the scope an operation needs', () => {
  it.each(KEY_SCOPES)('is refused with SCOPE_MISSING where %s is needed, and let through with it', async (scope) => {
    const app = (await t.gql('mutation { createApp(name: "Club") { __typename ... on AppCreated { key { secret } } ... on Rejection { code message } } }')).data.createApp.key.secret as string;
    const player = (await t.gql('mutation { createPlayer(name: "Hal") { __typename ... on PlayerCreated { key { secret } } ... on Rejection { code message } } }')).data.createPlayer.key
      .secret as string;
    // A player's keys for what a player may do, an app's for `players`.
    const holder = scope === 'players' ? app : player;
    const all = scope === 'players' ? KEY_SCOPES : KEY_SCOPES.filter((s) => s !== 'players');
    const without = await issue(holder, all.filter((s) => s !== scope).map(upper));
    const only = await issue(holder, [upper(scope)]);
    expect(await NEEDING[scope](without)).toBe('SCOPE_MISSING');
    expect(await NEEDING[scope](only)).not.toBe('SCOPE_MISSING');
  });

  it('is refused over REST with 403 and the same code; seat tokens and anonymous callers are not asked for scopes', async () => {
    const player = (await t.gql('mutation { createPlayer(name: "Ida", scopes: [PLAY]) { __typename ... on PlayerCreated { key { secret } } ... on Rejection { code message } } }')).data.createPlayer
      .key.secret as string;
    const server = t.app.getHttpServer();
    const refused = await request(server).get('/api/games/AAAAAAAAAAAA').set('authorization', `Bearer ${player}`).expect(403);
    expect(refused.body.error.code).toBe('SCOPE_MISSING');
    await request(server).get('/api/games/AAAAAAAAAAAA').expect(404);
    await request(server).get('/api/games/AAAAAAAAAAAA').set('authorization', 'Bearer arb_not-a-seat').expect(404);
    await request(server).get('/healthz').set('authorization', `Bearer ${player}`).expect(200);
    expect(await gql('{ gameKinds }', 'arb_some-seat-token')).toBe('OK');
  });

  it('is refused over WebSocket too: a subscription needs READ; with it, a key reads a game as a spectator', async () => {
    const player = (await t.gql('mutation { createPlayer(name: "Jo") { __typename ... on PlayerCreated { key { secret } } ... on Rejection { code message } } }')).data.createPlayer.key
      .secret as string;
    const game = (await t.gql('mutation { createGame(input: { kind: "duel" }) { ... on GameCreated { game { id } } } }')).data.createGame.game.id as string;
    const subscribe = (key: string) => {
      const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
      const first = new Promise<string>((resolve) => {
        client.subscribe(
          { query: 'subscription($id: ID!) { gameEvents(gameId: $id) { seq } }', variables: { id: game } },
          {
            // A refusal comes as a result with errors (then the end), as graphql-ws sends execution errors.
            next: (m) => resolve(m.errors ? ((m.errors[0].extensions?.code as string) ?? 'ERROR') : 'OK'),
            error: (errors) => resolve(((errors as { extensions?: { code?: string } }[])[0]?.extensions?.code as string) ?? 'ERROR'),
            complete: () => resolve('COMPLETE'),
          },
        );
      });
      return first.finally(() => client.dispose());
    };
    expect(await subscribe(await issue(player, ['PLAY']))).toBe('SCOPE_MISSING');
    const reader = await issue(player, ['READ']);
    expect(await subscribe(reader)).toBe('OK');
    // A key is no seat (yet): it reads a game as a spectator does.
    expect((await t.gql('query($id: ID!) { game(id: $id) { id mySeat } }', { id: game }, reader)).data.game).toEqual({ id: game, mySeat: null });
    await request(t.app.getHttpServer()).get(`/api/games/${game}`).set('authorization', `Bearer ${reader}`).expect(200);
  });
});
