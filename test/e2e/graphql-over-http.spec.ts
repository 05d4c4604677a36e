import { serverAudits } from 'graphql-http';
import { startApp, type TestApp } from '../support/app.js';

/**
 * The GraphQL-over-HTTP specification's own audit (graphql-http's serverAudits), run against the
 * service as any client meets it: no failure, and no warning either.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 120_000);

describe('GraphQL over HTTP, audited by graphql-http', () => {
  it('passes every audit with no failure (MUST) and no warning (SHOULD)', async () => {
    const results = await Promise.all(serverAudits({ url: `${t.url}/graphql`, fetchFn: fetch }).map((audit) => audit.fn()));
    const notOk = results.flatMap((r) => (r.status === 'error' || r.status === 'warn' ? [`${r.status} ${r.name}: ${r.reason}`] : []));
    expect(notOk).toEqual([]);
    // What is left are MAYs: GET queries, refused by the CSRF prevention unless they carry the preflight header (docs/integrating.md).
    const notices = results.filter((r) => r.status === 'notice').map((r) => r.name);
    expect(notices.every((name) => name.startsWith('MAY'))).toBe(true);
    process.stdout.write(`graphql-http audit: ${results.filter((r) => r.status === 'ok').length} ok, 0 warnings, 0 errors, ${notices.length} notices\n`);
  });

  it('runs a GET query that carries the preflight header, as docs/integrating.md shows', async () => {
    const res = await fetch(`${t.url}/graphql?query=${encodeURIComponent('{ gameKinds }')}`, { headers: { 'apollo-require-preflight': '1' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.gameKinds).toContain('backgammon');
  });

  it('answers a document that does not parse with 200 and errors to application/json, 400 to application/graphql-response+json', async () => {
    const post = (accept: string) => fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query: '{ game(' }) });
    const asJson = await post('application/json');
    expect(asJson.status).toBe(200);
    expect(((await asJson.json()) as any).errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const asGraphqlResponse = await post('application/graphql-response+json');
    expect(asGraphqlResponse.status).toBe(400);
    expect(((await asGraphqlResponse.json()) as any).errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });
});
