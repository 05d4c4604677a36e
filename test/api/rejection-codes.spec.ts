import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ChickenFootCodes } from '../../src/games/chicken-foot/engine/game.js';
import { Codes } from '../../src/engines/kit/index.js';
import { REJECTION_CODES as SHARED } from '../../src/api/rejection-codes.js';
import { GAMES } from '../../src/games/index.js';

/** The RejectionCode enum: the codes every game shares, and each game's own. */
const REJECTION_CODES: Record<string, string> = Object.assign({}, SHARED, ...GAMES.map((g) => g.rejectionCodes));

const SRC = resolve(import.meta.dirname, '../../src');
const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));

/** Codes written out where refusals are made: fail('X', …), new RefereeError('X', …), reject('X', …). */
function codesInSource(): Set<string> {
  const found = new Set<string>();
  for (const file of files(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\b(?:fail|RefereeError|reject)\(\s*'([A-Z][A-Z_]+)'/g)) found.add(m[1]);
  }
  return found;
}

describe('rejection codes', () => {
  it('lists every code the engines and the referee can refuse with, each described', () => {
    const listed = new Set(Object.keys(REJECTION_CODES));
    const given = new Set([...Object.values(Codes), ...Object.values(ChickenFootCodes), ...codesInSource()]);
    expect([...given].filter((c) => !listed.has(c))).toEqual([]);
    for (const description of Object.values(REJECTION_CODES)) expect(description.length).toBeGreaterThan(10);
  });

  it('are the table of docs/integrating.md, no more and no fewer', () => {
    const reference = readFileSync(resolve(import.meta.dirname, '../../docs/integrating.md'), 'utf8');
    // The section's table: one `| \`CODE\` | meaning |` row a code, up to the next heading.
    const section = reference.split(/^## Rejection codes$/m)[1]?.split(/^## /m)[0] ?? '';
    const documented = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect([...documented].sort()).toEqual(Object.keys(REJECTION_CODES).sort());
  });
});
