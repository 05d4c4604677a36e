import request from 'supertest';
import { DatabaseService } from '../../src/database/database.service.js';
import { AccountService, StoredKeys } from '../../src/referee/application/accounts.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { PostgresAccountStore } from '../../src/referee/store/postgres-account-store.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

const KEY = 'id prefix scopes createdAt lastUsedAt revokedAt';
const CREATE_PLAYER = `mutation($name: String!, $externalId: String, $scopes: [Scope!]) {
  createPlayer(name: $name, externalId: $externalId, scopes: $scopes) { __typename ... on PlayerCreated { player { id name externalId appId } key { secret ${KEY} } } ... on Rejection { code message } }
}`;
const CREATE_APP = `mutation($name: String!, $scopes: [Scope!]) { createApp(name: $name, scopes: $scopes) { __typename ... on AppCreated { app { id name } key { secret ${KEY} } } ... on Rejection { code message } } }`;
const ME = `{ me { player { id name externalId } app { id name } keyId scopes keys { ${KEY} } } }`;
const ISSUE = `mutation($scopes: [Scope!], $playerId: ID) { issueKey(scopes: $scopes, playerId: $playerId) { __typename ... on IssuedKey { secret ${KEY} } ... on Rejection { code message } } }`;
const ROTATE = `mutation($keyId: ID!, $playerId: ID) { rotateKey(keyId: $keyId, playerId: $playerId) { __typename ... on IssuedKey { secret ${KEY} } ... on Rejection { code message } } }`;
const REVOKE = `mutation($keyId: ID!, $playerId: ID) { revokeKey(keyId: $keyId, playerId: $playerId) { __typename ... on Key { ${KEY} } ... on Rejection { code message } } }`;
const KEYS = `query($playerId: ID) { keys(playerId: $playerId) { ${KEY} } }`;

/** The data of an answer, or the refusal's code: an error's, or the Rejection a mutation answered. */
async function call(query: string, variables: Record<string, unknown> = {}, key?: string): Promise<any> {
  const res = await t.gql(query, variables, key);
  if (res.errors) return { code: res.errors[0].extensions?.code, message: res.errors[0].message };
  const rejection = Object.values(res.data).find((v: any) => v?.__typename === 'Rejection') as { code: string; message: string } | undefined;
  return rejection ? { code: rejection.code, message: rejection.message } : res.data;
}

const newPlayer = async (name = 'Ada', variables: Record<string, unknown> = {}, key?: string) => (await call(CREATE_PLAYER, { name, ...variables }, key)).createPlayer;
const newApp = async (name = 'Club') => (await call(CREATE_APP, { name })).createApp;

describe('players and their keys', () => {
  it('creates a player with a key shown once: 256 random bits after arbk_, listed by prefix and never again in full', async () => {
    const { player, key } = await newPlayer('Ada');
    expect(player).toEqual({ id: expect.stringMatching(/^pl-/), name: 'Ada', externalId: null, appId: null });
    expect(key.secret).toMatch(/^arbk_[A-Za-z0-9_-]{43}$/);
    expect(key.scopes).toEqual(['READ', 'PLAY', 'CREATE_GAMES', 'TOURNAMENTS', 'WEBHOOKS']);
    const { me } = await call(ME, {}, key.secret);
    expect(me.player).toEqual({ id: player.id, name: 'Ada', externalId: null });
    expect(me.keyId).toBe(key.id);
    expect(me.keys).toEqual([{ id: key.id, prefix: key.secret.slice(0, 12), scopes: key.scopes, createdAt: key.createdAt, lastUsedAt: expect.any(String), revokedAt: null }]);
    const rest = await request(t.app.getHttpServer()).get('/api/me').set('authorization', `Bearer ${key.secret}`).expect(200);
    expect(rest.body.player.id).toBe(player.id);
    expect(JSON.stringify([me, rest.body])).not.toContain(key.secret);
  });

  it('answers `me` only to a key: UNAUTHORIZED without one, for a made-up key and over REST', async () => {
    expect(await call(ME)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await call(ME, {}, `arbk_${'A'.repeat(43)}`)).toMatchObject({ code: 'UNAUTHORIZED' });
    const rest = await request(t.app.getHttpServer())
      .get('/api/me')
      .set('authorization', `Bearer arba_${'A'.repeat(43)}`)
      .expect(401);
    expect(rest.body.error.code).toBe('UNAUTHORIZED');
  });

  it('issues a narrower key, never one with a scope the caller lacks; rotates it (the old secret refused at once) and revokes it', async () => {
    const { key } = await newPlayer('Bo');
    const reader = (await call(ISSUE, { scopes: ['READ'] }, key.secret)).issueKey;
    expect(reader.scopes).toEqual(['READ']);
    expect(await call(ISSUE, { scopes: ['READ', 'PLAY'] }, reader.secret)).toMatchObject({ code: 'SCOPE_MISSING' });
    expect(await call(ROTATE, { keyId: key.id }, reader.secret)).toMatchObject({ code: 'SCOPE_MISSING' });
    expect(await call(ISSUE, { scopes: ['PLAYERS'] }, key.secret)).toMatchObject({ code: 'SCOPE_MISSING' });

    const rotated = (await call(ROTATE, { keyId: reader.id }, key.secret)).rotateKey;
    expect(rotated).toMatchObject({ id: reader.id, scopes: ['READ'] });
    expect(rotated.secret).not.toBe(reader.secret);
    expect(await call(ME, {}, reader.secret)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await call(ME, {}, rotated.secret)).me.keyId).toBe(reader.id);

    const revoked = (await call(REVOKE, { keyId: reader.id }, rotated.secret)).revokeKey;
    expect(revoked.revokedAt).toEqual(expect.any(String));
    expect(await call(ME, {}, rotated.secret)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await call(REVOKE, { keyId: reader.id }, key.secret)).toMatchObject({ code: 'KEY_REVOKED' });
    expect(await call(ROTATE, { keyId: reader.id }, key.secret)).toMatchObject({ code: 'KEY_REVOKED' });
    expect((await call(KEYS, {}, key.secret)).keys.map((k: { id: string; revokedAt: string | null }) => [k.id, k.revokedAt !== null])).toEqual([
      [key.id, false],
      [reader.id, true],
    ]);
  });

  it('refuses a key revoked on another instance from the next request on, both ways', async () => {
    const other = {
      accounts: new AccountService(new PostgresAccountStore(t.app.get(DatabaseService)), t.app.get(RefereeService)),
      keys: new StoredKeys(new PostgresAccountStore(t.app.get(DatabaseService))),
    };
    const { key } = await newPlayer('Cy');
    const second = (await call(ISSUE, {}, key.secret)).issueKey;
    expect((await call(ME, {}, second.secret)).me.keyId).toBe(second.id);
    await other.accounts.revokeKey(await other.keys.holder(key.secret), second.id);
    expect(await call(ME, {}, second.secret)).toMatchObject({ code: 'UNAUTHORIZED' });

    expect(await other.keys.holder(key.secret)).toMatchObject({ owner: 'player', keyId: key.id });
    await call(REVOKE, { keyId: key.id }, key.secret);
    expect(await other.keys.holder(key.secret)).toBeNull();
  });

  it("lets an app create players with its externalIds (each once) and manage their keys, and no other app's players", async () => {
    const app = await newApp('Club');
    expect(app.key.secret).toMatch(/^arba_/);
    expect(app.key.scopes).toEqual(['READ', 'PLAY', 'CREATE_GAMES', 'TOURNAMENTS', 'WEBHOOKS', 'PLAYERS']);
    const { player, key } = await newPlayer('Dee', { externalId: 'user-42' }, app.key.secret);
    expect(player).toMatchObject({ externalId: 'user-42', appId: app.app.id });
    expect(await call(CREATE_PLAYER, { name: 'Dee again', externalId: 'user-42' }, app.key.secret)).toMatchObject({ code: 'EXTERNAL_ID_TAKEN' });
    // Another app may use the same externalId; a player with none needs no app.
    const rival = await newApp('Rival');
    expect((await newPlayer('Eve', { externalId: 'user-42' }, rival.key.secret)).player.appId).toBe(rival.app.id);
    expect(await call(CREATE_PLAYER, { name: 'Eve', externalId: 'x' })).toMatchObject({ code: 'INVALID_INPUT' });

    const issued = (await call(ISSUE, { scopes: ['PLAY'], playerId: player.id }, app.key.secret)).issueKey;
    expect(issued.secret).toMatch(/^arbk_/);
    expect((await call(ME, {}, issued.secret)).me.player.id).toBe(player.id);
    expect((await call(KEYS, { playerId: player.id }, app.key.secret)).keys).toHaveLength(2);
    await call(REVOKE, { keyId: key.id, playerId: player.id }, app.key.secret);
    expect(await call(ME, {}, key.secret)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await call(KEYS, { playerId: player.id }, rival.key.secret)).toMatchObject({ code: 'NOT_FOUND' });
    expect(await call(REVOKE, { keyId: issued.id, playerId: player.id }, rival.key.secret)).toMatchObject({ code: 'NOT_FOUND' });
    const narrowApp = (await call(ISSUE, { scopes: ['READ'] }, app.key.secret)).issueKey;
    expect(await call(KEYS, { playerId: player.id }, narrowApp.secret)).toMatchObject({ code: 'SCOPE_MISSING' });
    expect(await call(CREATE_PLAYER, { name: 'Fay' }, narrowApp.secret)).toMatchObject({ code: 'SCOPE_MISSING' });
  });
});
