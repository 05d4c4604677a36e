#!/usr/bin/env node
// Runs one compiled script without rebuilding: `node scripts/run-built.mjs bench/load.js [args]`
// (`npm run verify`, `npm run bench`). The build is made by `npm ci` / `npm run build`.
import { spawnSync } from 'node:child_process';
import { checkBuilt } from './check-built.mjs';

const [target, ...args] = process.argv.slice(2);
if (!target) {
  process.stderr.write('usage: node scripts/run-built.mjs <path under dist, e.g. src/cli/verify.js> [args]\n');
  process.exit(2);
}
const run = spawnSync(process.execPath, [checkBuilt(target), ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
