import { buildSchemaSdl, committedSchema } from '../../scripts/print-schema.js';

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
});
