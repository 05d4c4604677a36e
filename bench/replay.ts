/**
 * Replay benchmark: `npm run bench -- bench/replay.js [--seconds N]`. Times the fold that loads,
 * verifies and serves a game (hash chain, seed commitment, every fair draw recomputed from the
 * seed, every move through the engine) on the finished games in test/fixtures/bundles/, one kind
 * at a time on one core: a warm-up, then the same bundle folded again and again for about N
 * seconds (default 2.5). Prints events, folds, events folded and verified per second, and the
 * verdict; exits 1 if any fold does not verify. For comparison it also times the lighter fold
 * that serves events to each viewer and replays history (`foldGame` without hashes or the seed).
 */
import { verifyBundle } from '../src/referee/core/audit.js';
import { foldGame } from '../src/referee/core/game/fold.js';
import { createRegistry } from '../src/games/index.js';

import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

type Bundle = Parameters<typeof verifyBundle>[1];
type Verdict = ReturnType<typeof verifyBundle>;

const KINDS = ['backgammon', 'chicken-foot', 'cerke'] as const;

const args = process.argv.slice(2);
const secondsAt = args.indexOf('--seconds');
const seconds = secondsAt >= 0 ? Number(args[secondsAt + 1]) : 2.5;
if (!(seconds > 0)) throw new Error('--seconds must be a positive number');

/** The project root (where package.json is), found from src/, bench/ or dist/bench/. */
function projectRoot(from = import.meta.dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) if (existsSync(resolve(dir, 'package.json'))) return dir;
  throw new Error('project root not found');
}

function loadBundle(kind: string): Bundle {
  const path = resolve(projectRoot(), 'test/fixtures/bundles', `${kind}.bundle.json`);
  const bundle = JSON.parse(readFileSync(path, 'utf8')) as Bundle;
  if (bundle.game.kind !== kind) throw new Error(`${path} holds a ${bundle.game.kind} game, not ${kind}`);
  return bundle;
}

/** Folds `bundle` for about `ms` milliseconds (at least `minFolds` times); every verdict must be the first one. */
function foldFor(registry: ReturnType<typeof createRegistry>, bundle: Bundle, ms: number, minFolds: number) {
  let folds = 0;
  let first: Verdict | null = null;
  let same = true;
  const start = performance.now();
  let elapsed = 0;
  while (folds < minFolds || elapsed < ms) {
    const verdict = verifyBundle(registry, bundle);
    first ??= verdict;
    same &&= verdict.ok === first.ok && verdict.eventsChecked === first.eventsChecked && verdict.badSeq === first.badSeq;
    folds++;
    elapsed = performance.now() - start;
  }
  return { folds, ms: elapsed, verdict: first!, same };
}

/** Events per second of the fold that serves views and history (no hash or draw rechecked). */
function timeServingFold(bundle: Bundle, ms: number): number {
  let folds = 0;
  const start = performance.now();
  while (folds < 3 || performance.now() - start < ms) {
    foldGame(registry, bundle.game.id, bundle.events, null);
    folds++;
  }
  return (bundle.events.length * folds) / ((performance.now() - start) / 1000);
}

const registry = createRegistry();
let allOk = true;
console.log(`Replay benchmark (one core): verifyBundle on test/fixtures/bundles, about ${seconds} s per kind after a warm-up`);
for (const kind of KINDS) {
  const bundle = loadBundle(kind);
  foldFor(registry, bundle, Math.min(1000, seconds * 400), 3); // warm-up
  const run = foldFor(registry, bundle, seconds * 1000, 3);
  const events = bundle.events.length;
  const ok = run.verdict.ok && run.same && run.verdict.eventsChecked === events && run.verdict.fairnessChecked;
  allOk &&= ok;
  const perSecond = (events * run.folds) / (run.ms / 1000);
  const serving = timeServingFold(bundle, seconds * 1000);
  console.log(
    `${kind.padEnd(12)}  ${String(events).padStart(5)} events  ${String(run.folds).padStart(5)} folds  ${Math.round(perSecond).toLocaleString('en').padStart(9)} events/s  ` +
      `${(run.ms / run.folds).toFixed(2).padStart(7)} ms/fold  verdict ${ok ? 'ok' : `FAILED: ${run.verdict.summary}`}  ` +
      `(serving fold: ${Math.round(serving).toLocaleString('en')} events/s)`,
  );
}
process.exit(allOk ? 0 : 1);
