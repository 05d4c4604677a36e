import { createHash } from 'node:crypto';
import request from 'supertest';
import { startApp, type TestApp } from '../support/app.js';
import { capturedOutput } from '../support/captured-output.js';

const captured = capturedOutput();

let t: TestApp;
beforeAll(async () => {
  captured.start();
  t = await startApp({ logLevel: 'debug' });
});
afterAll(async () => {
  await t?.close();
  captured.stop();
});

const gql = async (query: string, key?: string) => {
  const req = request(t.app.getHttpServer()).post('/graphql').send({ query });
  if (key) req.set('authorization', `Bearer ${key}`);
  return (await req).body;
};

describe('keys in the logs', () => {
  it('never logs a key or its hash: created, used, refused for a scope, rotated, revoked, used after', async () => {
    const created = (await gql('mutation { createPlayer(name: "Ada") { __typename ... on PlayerCreated { player { id } key { id secret } } ... on Rejection { code message } } }')).data.createPlayer;
    const first = created.key.secret as string;
    const keyId = created.key.id as string;
    const narrow = (await gql('mutation { issueKey(scopes: [READ]) { __typename ... on IssuedKey { id secret } ... on Rejection { code message } } }', first)).data.issueKey;
    await gql('{ me { player { id } } }', first);
    await request(t.app.getHttpServer()).get('/api/me').set('authorization', `Bearer ${first}`).expect(200);
    expect((await gql('mutation { createGame(input: { kind: "duel" }) { __typename } }', narrow.secret)).errors[0].extensions.code).toBe('SCOPE_MISSING');
    const rotated = (await gql(`mutation { rotateKey(keyId: "${keyId}") { __typename ... on IssuedKey { secret } ... on Rejection { code message } } }`, first)).data.rotateKey.secret as string;
    expect((await gql('{ me { keyId } }', first)).errors[0].extensions.code).toBe('UNAUTHORIZED');
    await gql(`mutation { revokeKey(keyId: "${keyId}") { __typename ... on Key { id } ... on Rejection { code message } } }`, rotated);
    expect((await gql('{ me { keyId } }', rotated)).errors[0].extensions.code).toBe('UNAUTHORIZED');
    // The request log lines are written once the answers are done.
    await new Promise((r) => setTimeout(r, 200));

    expect(captured.text).toContain(created.player.id); // the logs were captured, and name the player
    for (const secret of [first, narrow.secret, rotated]) {
      const hex = createHash('sha256').update(secret).digest('hex');
      const b64 = createHash('sha256').update(secret).digest('base64url');
      expect(captured.text).not.toContain(secret);
      expect(captured.text).not.toContain(secret.slice(5)); // the random part alone
      expect(captured.text).not.toContain(hex);
      expect(captured.text).not.toContain(b64);
    }
  });
});
