import { readdirSync, readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/**
 * The test tiers are package.json's `test:<tier>` scripts, each a list of folders under test/
 * (unit: no database, no build; int: a database; e2e: the built service and a browser; fuzz:
 * last, in its own process). A spec in no tier is silently skipped by every tier's run.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const scripts: Record<string, string> = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).scripts;
const tiers = Object.entries(scripts)
  .filter(([name, command]) => name.startsWith('test:') && command.includes('jest'))
  .map(([name, command]) => ({ name, folders: command.split(/\s+/).filter((arg) => arg.startsWith('test/')) }));
const specs = readdirSync(resolve(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.spec.ts'))
  .map((file) => `test/${file.split(sep).join('/')}`);

describe('test tiers', () => {
  it('put every spec under test/ in exactly one tier', () => {
    const tiersOf = (spec: string) => tiers.filter((t) => t.folders.some((folder) => spec.startsWith(folder))).map((t) => t.name);
    expect(specs.map((spec) => [spec, tiersOf(spec)]).filter(([, names]) => names.length !== 1)).toEqual([]);
  });

  it('name only folders that hold specs', () => {
    const empty = tiers.flatMap((t) => t.folders).filter((folder) => !folder.endsWith('/') || !specs.some((spec) => spec.startsWith(folder)));
    expect(empty).toEqual([]);
  });

  it('all run in npm test: the folders it leaves out are the tiers it runs afterwards in their own process', () => {
    const leftOut = [...scripts.test.matchAll(/--testPathIgnorePatterns=\/(\S+)/g)].map((m) => m[1]);
    const runAfter = [...scripts.test.matchAll(/npm run (test:\S+)/g)].flatMap((m) => tiers.find((t) => t.name === m[1])?.folders ?? [`(${m[1]} is no tier)`]);
    expect(leftOut).toEqual(runAfter);
  });
});
