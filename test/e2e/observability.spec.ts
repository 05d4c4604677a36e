import request from 'supertest';
import { createLogger, PinoLogger } from '../../src/ops/logger.js';
import { MAX_OPERATION_NAMES, MetricsService } from '../../src/ops/metrics.service.js';
import { startApp, type TestApp } from '../support/app.js';
import { capturedOutput } from '../support/captured-output.js';
import { ACT, CREATE } from '../support/queries.js';

/** Everything the service writes to stdout while the suite runs (its logs), kept off the terminal. */
const captured = capturedOutput();
const lines = () =>
  captured.text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The log line of a request: written when the response is done, which the client may see first. */
async function lineOf(requestId: string): Promise<Record<string, unknown>> {
  for (;;) {
    const line = lines().find((l) => l.requestId === requestId && l.msg === 'request');
    if (line) return line;
    await new Promise((r) => setTimeout(r, 10));
  }
}

const metrics = async () => (await request(t.app.getHttpServer()).get('/metrics').expect(200)).text;
const series = (text: string, name: string, labels: string) => Number(new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);

let t: TestApp;
beforeAll(async () => {
  captured.start();
  // Debug: probes are logged at that level only.
  t = await startApp({ logLevel: 'debug' });
});
afterAll(async () => {
  await t?.close();
  captured.stop();
});

describe('metrics (prom-client)', () => {
  it("exposes the process' own metrics and the referee's gauges in Prometheus' format", async () => {
    const res = await request(t.app.getHttpServer()).get('/metrics').expect(200);
    expect(res.headers['content-type']).toBe(t.app.get(MetricsService).registry.contentType);
    for (const name of [
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'arbiter_live_games',
      'arbiter_commands_in_flight',
    ]) {
      expect(res.text).toMatch(new RegExp(`^# TYPE ${name} (gauge|counter)$`, 'm'));
      expect(res.text).toMatch(new RegExp(`^${name} \\d`, 'm'));
    }
  });

  it('counts and times a named GraphQL operation under its name, type and outcome', async () => {
    const named = CREATE.replace('mutation(', 'mutation CreateDuel(');
    expect((await t.gql(named, { input: { kind: 'duel' } })).data.createGame.__typename).toBe('GameCreated');
    await t.gql(named, { input: { kind: 'duel' } });
    const text = await metrics();
    expect(series(text, 'arbiter_graphql_operations_total', 'operation="CreateDuel",type="mutation",outcome="ok"')).toBe(2);
    expect(series(text, 'arbiter_graphql_operation_duration_seconds_count', 'operation="CreateDuel",type="mutation"')).toBe(2);
    expect(series(text, 'arbiter_graphql_operation_duration_seconds_bucket', 'le="\\+Inf",operation="CreateDuel",type="mutation"')).toBe(2);
  });

  it('counts an anonymous operation under its root field, a Rejection as rejected and an unparsable one as invalid', async () => {
    const { game, tokens } = (await t.gql(CREATE, { input: { kind: 'duel' } })).data.createGame;
    expect((await t.gql('{ gameKinds }')).data.gameKinds).toContain('duel');
    const refused = await t.gql(ACT.replace('mutation(', 'mutation IllegalPlay('), { gameId: game.id, moveId: 'x', action: { type: 'play', card: 99 } }, tokens[0].token);
    expect(refused.data.submitAction.__typename).toBe('Rejection');
    expect((await t.gql('{ gameKinds')).errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const text = await metrics();
    expect(series(text, 'arbiter_graphql_operations_total', 'operation="gameKinds",type="query",outcome="ok"')).toBe(1);
    expect(series(text, 'arbiter_graphql_operations_total', 'operation="createGame",type="mutation",outcome="ok"')).toBeGreaterThanOrEqual(1);
    expect(series(text, 'arbiter_graphql_operations_total', 'operation="IllegalPlay",type="mutation",outcome="rejected"')).toBe(1);
    expect(series(text, 'arbiter_graphql_operations_total', 'operation="invalid",type="unknown",outcome="rejected"')).toBe(1);
    expect(series(text, 'arbiter_moves_rejected_total', 'kind="duel",code="ILLEGAL_MOVE"')).toBe(1);
  });

  it('gives at most MAX_OPERATION_NAMES operation names a series of their own, the rest count as "other"', async () => {
    const m = new MetricsService();
    for (let i = 0; i < MAX_OPERATION_NAMES + 50; i++) m.graphqlOperation({ operation: `Op${i}`, type: 'query', outcome: 'ok' }, 0.001);
    m.graphqlOperation({ operation: 'Op0', type: 'query', outcome: 'ok' }, 0.001);
    const text = await m.render();
    const names = new Set([...text.matchAll(/^arbiter_graphql_operations_total\{operation="([^"]+)"/gm)].map((x) => x[1]));
    expect(names.size).toBe(MAX_OPERATION_NAMES + 1);
    expect(series(text, 'arbiter_graphql_operations_total', 'operation="other",type="query",outcome="ok"')).toBe(50);
    expect(series(text, 'arbiter_graphql_operations_total', 'operation="Op0",type="query",outcome="ok"')).toBe(2);
  });
});

describe('logs (pino)', () => {
  it('logs one line per request with the request id it echoes, the operation, the status and the duration', async () => {
    const res = await request(t.app.getHttpServer()).post('/graphql').set('x-request-id', 'client-req.42').send({ query: 'query Kinds { gameKinds }' }).expect(200);
    expect(res.headers['x-request-id']).toBe('client-req.42');
    const line = await lineOf('client-req.42');
    expect(line).toMatchObject({ level: 'info', method: 'POST', path: '/graphql', status: 200, operation: 'Kinds', client: '127.0.0.1' });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(new Date(String(line.time)).toISOString()).toBe(line.time);
  });

  it('makes up a request id when the incoming one is missing or not well formed', async () => {
    for (const incoming of [undefined, 'x'.repeat(65), 'a b', 'id\u00e9']) {
      const req = request(t.app.getHttpServer()).get('/api/games/AAAAAAAAAAAA');
      if (incoming) req.set('x-request-id', incoming);
      const id = (await req).headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(await lineOf(id)).toMatchObject({ method: 'GET', path: '/api/games/AAAAAAAAAAAA', status: 404 });
    }
  });

  it('never logs a token, a cookie, the query string or a body', async () => {
    const server = t.app.getHttpServer();
    const from = captured.text.length;
    await request(server).get('/api/games/AAAAAAAAAAAA/events?token=abc').set('x-request-id', 'secret-1').set('authorization', 'Bearer secret-token-123').set('cookie', 'session=secret-cookie-456');
    await request(server)
      .post('/graphql?token=abc')
      .set('x-request-id', 'secret-2')
      .set('authorization', 'Bearer secret-token-123')
      .send({ query: 'query Secret($id: ID!) { game(id: $id) { id } } #secret-body-789', variables: { id: 'secret-body-789' } });
    expect((await lineOf('secret-1')).path).toBe('/api/games/AAAAAAAAAAAA/events');
    expect(await lineOf('secret-2')).toMatchObject({ path: '/graphql', operation: 'Secret' });
    const written = captured.text.slice(from);
    for (const secret of ['secret-token-123', 'abc', 'secret-cookie-456', 'secret-body-789']) expect(written).not.toContain(secret);
  });

  it('logs health, readiness and metrics requests at debug level only', async () => {
    for (const [path, id] of [
      ['/healthz', 'probe-1'],
      ['/readyz', 'probe-2'],
      ['/metrics', 'probe-3'],
    ]) {
      await request(t.app.getHttpServer()).get(path).set('x-request-id', id).expect(200);
      expect(await lineOf(id)).toMatchObject({ level: 'debug', path, status: 200 });
    }
  });

  it('writes Nest logs with their context, and nothing under LOG_LEVEL', async () => {
    const from = captured.text.length;
    new PinoLogger(createLogger('info')).log('shown', 'Probe');
    new PinoLogger(createLogger('info')).error('failed', 'Error: failed\n    at here', 'Probe');
    new PinoLogger(createLogger('info')).debug('hidden below info', 'Probe');
    new PinoLogger(createLogger('silent')).error('hidden when silent', 'Probe');
    const written = captured.text
      .slice(from)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(written).toEqual([
      { level: 'info', time: expect.any(String), context: 'Probe', msg: 'shown' },
      { level: 'error', time: expect.any(String), context: 'Probe', stack: 'Error: failed\n    at here', msg: 'failed' },
    ]);
  });
});
