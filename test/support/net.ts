import { createServer } from 'node:net';

/** A loopback port free right now (for a service started as its own process). */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** One GraphQL request to a service at `url`, answered as parsed JSON. */
export async function gqlAt(url: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return res.json();
}
