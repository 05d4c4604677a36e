import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { committedOpenApi } from '../../scripts/print-schema.js';
import { startApp, type TestApp } from '../support/app.js';

/** GET /api/openapi.json: a valid OpenAPI 3.1 document naming exactly the REST and operations routes the app registers. */
let t: TestApp;
let served: string;
let doc: any;

beforeAll(async () => {
  t = await startApp();
  const res = await request(t.app.getHttpServer()).get('/api/openapi.json').expect(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  served = res.text;
  doc = JSON.parse(served);
});
afterAll(async () => {
  await t?.close();
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** "METHOD /path/{param}" for every route Fastify was given, read from its printed route tree (HEAD, which it adds to every GET, left out). */
function registeredRoutes(): string[] {
  const tree = t.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false });
  // A node's path is its parent's followed by its own part; four characters of indentation a level.
  const paths: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const node = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line.trimEnd());
    if (!node) continue;
    const depth = node[1].length / 4;
    const path = (depth > 0 ? paths[depth - 1] : '') + node[2];
    paths[depth] = path;
    for (const method of node[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
  }
  return routes;
}

/** The REST API (under /api) and the operations endpoints; GraphQL and GraphiQL are described elsewhere. */
const isDocumented = (route: string) => / \/api\//.test(route) || / \/(healthz|readyz|metrics)$/.test(route);

describe('OpenAPI document', () => {
  it('is the committed openapi.json, byte for byte once unindented (nothing in it is the instance\'s own: its server is "/")', () => {
    const committed = committedOpenApi();
    if (committed === null) throw new Error('openapi.json is missing: run npm run schema');
    expect(served).toBe(JSON.stringify(JSON.parse(committed)));
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // Every $ref names something in the document.
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) {
      const pointer = r.slice('"$ref":"'.length, -1);
      expect(pointer.startsWith('#/')).toBe(true);
      const target = pointer
        .slice(2)
        .split('/')
        .reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      if (target === undefined) throw new Error(`unresolved $ref ${pointer}`);
    }
  });

  it('describes every REST and operations route the app registers, and no other', () => {
    const registered = registeredRoutes().filter(isDocumented).sort();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(registered).toContain('GET /api/games/{id}');
    expect(registered).toContain('GET /healthz');
    expect(documented).toEqual(registered);
  });

  it('declares each path parameter, the query parameters, the import body types, errors, ETag/304, 429 Retry-After and the bearer scheme', () => {
    const resolve = (x: any) =>
      x?.$ref
        ? x.$ref
            .slice(2)
            .split('/')
            .reduce((n: any, k: string) => n[k], doc)
        : x;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const m of METHODS) {
        const op = item[m];
        if (!op) continue;
        const params = (op.parameters ?? []).map(resolve);
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) expect(params).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
      }
    }
    const names = (path: string) => (doc.paths[path].get ?? doc.paths[path].post).parameters.map((p: any) => resolve(p).name);
    expect(names('/api/games/{id}')).toEqual(expect.arrayContaining(['id', 'atLeastVersion', 'If-None-Match']));
    expect(names('/api/games/{id}/events')).toEqual(expect.arrayContaining(['id', 'afterSeq', 'follow']));
    expect(names('/api/games/import')).toEqual(['kind']);
    expect(Object.keys(doc.paths['/api/games/import'].post.requestBody.content).sort()).toEqual(
      ['application/json', 'application/octet-stream', 'application/x-www-form-urlencoded', 'text/plain'].sort(),
    );
    const game = doc.paths['/api/games/{id}'].get.responses;
    expect(resolve(game['200']).headers.ETag).toBeDefined();
    expect(game['304']).toBeDefined();
    const limited = resolve(game['429']);
    expect(Object.keys(limited.headers)).toContain('Retry-After');
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
    expect(doc.components.securitySchemes.seatToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('matches what the endpoints answer: the error shape, the ETag and 304', async () => {
    const server = t.app.getHttpServer();
    const missing = await request(server).get('/api/games/nosuchgame12').expect(404);
    expect(Object.keys(missing.body.error).sort()).toEqual(['code', 'message']);
    const created = await t.gql('mutation { createGame(input: { kind: "duel" }) { ... on GameCreated { game { id } } } }');
    const id = created.data.createGame.game.id;
    const first = await request(server).get(`/api/games/${id}`).expect(200);
    expect(first.headers.etag).toMatch(new RegExp(doc.components.headers.ETag.schema.pattern));
    await request(server).get(`/api/games/${id}`).set('if-none-match', first.headers.etag).expect(304);
    for (const key of doc.components.schemas.GameDetail.required) expect(first.body).toHaveProperty(key);
  });
  it('types every schema, and says of every object its properties or that any are allowed (no free JSON comes out as an empty type)', () => {
    // openapi-typescript makes `{ type: object }` alone Record<string, never>, and a schema without a type `unknown`.
    const problems: string[] = [];
    const visit = (schema: any, at: string) => {
      if (schema.type === undefined && !schema.$ref && !schema.oneOf && schema.const === undefined) problems.push(`${at}: no type`);
      const types = [schema.type].flat();
      if (types.includes('object') && !schema.properties && schema.additionalProperties === undefined) problems.push(`${at}: an object with neither properties nor additionalProperties`);
      for (const [name, property] of Object.entries<any>(schema.properties ?? {})) visit(property, `${at}/properties/${name}`);
      if (schema.items) visit(schema.items, `${at}/items`);
      if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, `${at}/additionalProperties`);
      for (const [i, option] of (schema.oneOf ?? []).entries()) visit(option, `${at}/oneOf/${i}`);
    };
    // Every `schema` of a parameter, header or media type, and every component schema.
    let schemas = 0;
    const walk = (node: any, at: string) => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries<any>(node)) {
        if (key === 'schema') {
          schemas++;
          visit(value, `${at}/schema`);
        } else if (key !== 'schemas') walk(value, `${at}/${key}`);
      }
    };
    walk(doc, '#');
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) visit(schema, `#/components/schemas/${name}`);
    expect(schemas).toBeGreaterThan(50);
    expect(problems).toEqual([]);
    // The game kinds' own JSON is an object of any fields, its shape told per kind.
    const game = doc.components.schemas.GameDetail.properties;
    for (const free of [game.ruleset, game.view, doc.components.schemas.StoredEvent.properties.payload]) {
      expect(free).toMatchObject({ type: 'object', additionalProperties: true });
    }
    expect(game.legalActions.items).toMatchObject({ type: 'object', required: ['type'] });
    expect(game.ruleset.description).toMatch(/backgammon.*Cerke.*Chicken Foot/s);
  });

  it("passes redocly lint's recommended rules with no error and no warning", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
  });
});
