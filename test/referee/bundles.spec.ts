import { readFileSync } from 'node:fs';
import { verifyBundle } from '../../src/referee/core/audit.js';
import { createRegistry } from '../../src/games/index.js';

type Bundle = Parameters<typeof verifyBundle>[1];

/** Finished games exported before the referee was reorganised (see test/fixtures/bundles/README.md). */
const KINDS = ['backgammon', 'chicken-foot', 'cerke'];

const load = (kind: string): Bundle => JSON.parse(readFileSync(new URL(`../fixtures/bundles/${kind}.bundle.json`, import.meta.url), 'utf8')) as Bundle;

/** Changes the first number, string or boolean found in `value` (depth first); answers its path, or null if there is none. */
function flipFirstLeaf(value: unknown, path: string[] = []): string[] | null {
  if (value === null || typeof value !== 'object') return null;
  const node = value as Record<string, unknown>;
  for (const key of Object.keys(node)) {
    const leaf = node[key];
    if (typeof leaf === 'number') node[key] = leaf + 1;
    else if (typeof leaf === 'string') node[key] = leaf === 'x' ? 'y' : 'x';
    else if (typeof leaf === 'boolean') node[key] = !leaf;
    else {
      const found = flipFirstLeaf(leaf, [...path, key]);
      if (found) return found;
      continue;
    }
    return [...path, key];
  }
  return null;
}

describe.each(KINDS)('a %s bundle exported before the refactor', (kind) => {
  const registry = createRegistry();
  const bundle = load(kind);

  it('is a finished, fairly drawn game whose seed is revealed last', () => {
    expect(bundle.game.kind).toBe(kind);
    expect(bundle.game.status).toBe('FINISHED');
    expect(bundle.game.randomSource).toBe('fair');
    expect(bundle.events.at(-1)!.type).toBe('SeedRevealed');
    expect(bundle.events.length).toBeGreaterThan(500);
  });

  it('verifies: every event checked, every random outcome recomputed from the seed', () => {
    const verdict = verifyBundle(registry, bundle);
    expect(verdict).toMatchObject({ ok: true, badSeq: null, problem: null, eventsChecked: bundle.events.length, fairnessChecked: true });
    expect(verdict.drawsRecomputed).toBeGreaterThan(0);
  });

  it('fails at exactly the event whose payload was changed, in the middle of the game', () => {
    const altered = structuredClone(bundle);
    const middle = Math.floor(altered.events.length / 2);
    // The first action from the middle on: a move, so the change is one a cheat would make.
    const index = altered.events.findIndex((e, i) => i >= middle && e.type === 'ActionTaken');
    expect(index).toBeGreaterThanOrEqual(middle);
    const event = altered.events[index];
    expect(flipFirstLeaf(event.payload)).not.toBeNull();
    expect(event.seq).toBeLessThan(altered.events.length - 1);

    const verdict = verifyBundle(registry, altered);
    expect({ ok: verdict.ok, badSeq: verdict.badSeq }).toEqual({ ok: false, badSeq: event.seq });
    // The fixture itself is untouched.
    expect(verifyBundle(registry, bundle).ok).toBe(true);
  });
});
