#!/usr/bin/env node
// Bundles the GraphiQL page (scripts/graphiql/entry.mjs: GraphiQL 4, React, their CSS) into
// dist/graphiql/: index.html and assets/ with content-hashed names. The service serves them itself
// at /graphiql (src/api/graphiql.controller.ts): nothing is loaded from a CDN. Run by `npm run build`.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'graphiql');
const assets = join(out, 'assets');

rmSync(out, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { graphiql: 'scripts/graphiql/entry.mjs' },
  outdir: assets,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: true,
  sourcemap: false,
  legalComments: 'linked',
  // React and graphql-js pick their production builds (no development checks, smaller).
  define: { 'process.env.NODE_ENV': '"production"' },
  // Fonts and images the CSS names are inlined, so the page needs no other request.
  loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.png': 'dataurl', '.svg': 'dataurl' },
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
const script = outputs.find((f) => f.endsWith('.js'));
const style = outputs.find((f) => f.endsWith('.css'));
if (!script || !style) throw new Error(`build-graphiql: expected a .js and a .css bundle, got ${outputs.join(', ')}`);

// The CSS must not reach for anything outside the page (fonts from a CDN, ...).
const css = readFileSync(join(assets, style), 'utf8');
const external = [...css.matchAll(/url\(\s*['"]?([^'")]+)/g)].map((m) => m[1]).filter((u) => !u.startsWith('data:'));
if (external.length > 0) throw new Error(`build-graphiql: the CSS loads ${external.join(', ')}; inline it instead`);

// No inline script or style: the page runs under a self-only Content-Security-Policy.
writeFileSync(
  join(out, 'index.html'),
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>Arbiter GraphiQL</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/graphiql/assets/${style}" />
    <script type="module" src="/graphiql/assets/${script}"></script>
  </head>
  <body>
    <div id="graphiql">Loading GraphiQL…</div>
  </body>
</html>
`,
);
process.stdout.write(`build-graphiql: dist/graphiql/ (${outputs.join(', ')})\n`);
