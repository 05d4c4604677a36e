#!/usr/bin/env node
// Builds the project (quietly) and runs one compiled script: `node scripts/run-built.mjs bench/load.js [args]`.
import { execSync, spawnSync } from 'node:child_process';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [target, ...args] = process.argv.slice(2);
if (!target) {
  process.stderr.write('usage: node scripts/run-built.mjs <path under dist, e.g. src/cli/verify.js> [args]\n');
  process.exit(2);
}
execSync('npm run --silent build', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const run = spawnSync(process.execPath, [resolve(root, 'dist', target), ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
