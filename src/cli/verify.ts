import { readFileSync } from 'node:fs';
import { EngineRegistry } from '../referee/core/engine-registry.js';
import { verifyBundle, type Bundle, type Verdict } from '../referee/core/audit.js';
import { createRegistry } from '../games/engines.js';

/**
 * Offline verifier: `npm run verify -- bundle.json`. Recomputes the hash chain, every random
 * outcome from the revealed seed and every action through the engine, with no service and no
 * database, and prints a verdict naming the first bad event. Exit 0 when valid, 1 otherwise.
 */
export function verifyFile(path: string, registry: EngineRegistry): Verdict {
  let bundle: Bundle;
  try {
    bundle = JSON.parse(readFileSync(path, 'utf8')) as Bundle;
  } catch (err) {
    return { ok: false, eventsChecked: 0, drawsRecomputed: 0, badSeq: null, problem: `cannot read ${path}: ${(err as Error).message}`, fairnessChecked: false, summary: `FAILED: cannot read ${path}` };
  }
  return verifyBundle(registry, bundle);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = process.argv[2];
  if (!path) {
    process.stderr.write('usage: npm run verify -- <bundle.json>\n');
    process.exit(2);
  }
  const verdict = verifyFile(path, createRegistry());
  const out = verdict.ok ? `VALID: ${verdict.summary}\n` : `INVALID: ${verdict.summary}\n`;
  process.stdout.write(out, () => process.exit(verdict.ok ? 0 : 1));
}
