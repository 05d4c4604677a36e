#!/usr/bin/env node
// Checks the build before a compiled file runs: `node scripts/check-built.mjs [path under dist]`
// (default src/main.js). Missing: says to run `npm run build` and exits 1. Older than a source
// file under src/, bench/ or tools/: warns on stderr and exits 0. Nothing is built here (npm ci builds).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The newest .ts file under dir (src/generated excluded: `prisma generate` rewrites it on its own). */
function newestSource(dir, newest = { path: null, mtimeMs: 0 }) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(root, 'src', 'generated')) newestSource(path, newest);
    } else if (entry.name.endsWith('.ts')) {
      const { mtimeMs } = statSync(path);
      if (mtimeMs > newest.mtimeMs) Object.assign(newest, { path, mtimeMs });
    }
  }
  return newest;
}

/** Returns the absolute path of dist/<target>; exits 1 with a message if it is not built. */
export function checkBuilt(target = 'src/main.js') {
  const built = resolve(root, 'dist', target);
  if (!existsSync(built)) {
    process.stderr.write(`arbiter: ${relative(root, built)} is missing: run \`npm run build\` first (npm ci and npm install build it)\n`);
    process.exit(1);
  }
  const builtAt = statSync(built).mtimeMs;
  const newest = ['src', 'bench', 'tools'].reduce((found, dir) => newestSource(join(root, dir), found), undefined);
  if (newest.path && newest.mtimeMs > builtAt) {
    process.stderr.write(`arbiter: warning: dist/ is older than ${relative(root, newest.path)}: run \`npm run build\` to run the current sources\n`);
  }
  return built;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) checkBuilt(process.argv[2]);
