import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType } from 'graphql';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiJson, buildSchemaSdl, committedOpenApi, committedSchema } from '../../scripts/print-schema.js';

/** The first line where two texts differ, for the failure message. */
function firstDifference(committed: string, built: string): string {
  const a = committed.split('\n');
  const b = built.split('\n');
  const at = a.findIndex((line, i) => line !== b[i]);
  const line = at === -1 ? Math.min(a.length, b.length) : at;
  return `first difference at line ${line + 1}:\n  committed: ${a[line] ?? '(end of file)'}\n  built:     ${b[line] ?? '(end of file)'}`;
}

describe('schema.graphql (the committed GraphQL schema)', () => {
  it('is the schema the code-first resolvers build, with no database', async () => {
    const built = await buildSchemaSdl();
    const committed = committedSchema();
    if (committed === null) throw new Error('schema.graphql is missing: run npm run schema');
    if (committed !== built) throw new Error(`schema.graphql is out of date: run npm run schema\n${firstDifference(committed, built)}`);
  });

  it('describes every type, field, argument and input field a client uses', async () => {
    const schema = buildSchema(await buildSchemaSdl());
    const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((t) => (t ? [t.name] : [])));
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      // Introspection types and the built-in scalars are graphql-js's own; the root types are named by the spec.
      if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
      if (!roots.has(type.name) && !type.description?.trim()) missing.push(`${isEnumType(type) ? 'enum' : 'type'} ${type.name}`);
      if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (!field.description?.trim()) missing.push(`${isInputObjectType(type) ? 'input field' : 'field'} ${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) if (!arg.description?.trim()) missing.push(`argument ${type.name}.${field.name}(${arg.name})`);
      }
    }
    if (missing.length > 0) throw new Error(`${missing.length} without a description (add one to the decorator, then npm run schema):\n  ${missing.join('\n  ')}`);
  });

  it('types every point in time as DateTime (a data field named …At, deadline, until or expires)', async () => {
    const schema = buildSchema(await buildSchemaSdl());
    const untyped: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type))) continue;
      // The root types' fields are operations (gameStateAt reads a game at a version), not data.
      if (type === schema.getQueryType() || type === schema.getMutationType() || type === schema.getSubscriptionType()) continue;
      for (const field of Object.values(type.getFields())) {
        if (/At$|^(deadline|until|expires)$/.test(field.name) && String(field.type).replace(/[[\]!]/g, '') !== 'DateTime') untyped.push(`${type.name}.${field.name}: ${field.type}`);
      }
    }
    expect(untyped).toEqual([]);
  });
});

describe('openapi.json (the committed OpenAPI document)', () => {
  it('is the document GET /api/openapi.json serves over the games shipped, with no database', () => {
    const built = buildOpenApiJson();
    const committed = committedOpenApi();
    if (committed === null) throw new Error('openapi.json is missing: run npm run schema');
    if (committed !== built) throw new Error(`openapi.json is out of date: run npm run schema\n${firstDifference(committed, built)}`);
  });

  it('gives every field a type through openapi-typescript (no free JSON comes out as Record<string, never>)', async () => {
    const committed = committedOpenApi();
    if (committed === null) throw new Error('openapi.json is missing: run npm run schema');
    const types = astToString(await openapiTS(JSON.parse(committed))).split('\n');
    expect(types.length).toBeGreaterThan(1000);
    // The document has no webhooks and no $defs: the generator types those two top-level maps as empty.
    const emptyTopLevel = new Set(['export type webhooks = Record<string, never>;', 'export type $defs = Record<string, never>;']);
    const empty = types.flatMap((line, i) => (line.includes('Record<string, never>') && !emptyTopLevel.has(line.trim()) ? [`line ${i + 1}: ${line.trim()}`] : []));
    expect(empty).toEqual([]);
  });
});
