#!/usr/bin/env node
// Bundles the service's two browser pages into dist/<page>/: index.html and assets/ with
// content-hashed names. The service serves them itself (src/api/pages.ts): nothing is loaded
// from a CDN, and nothing inline (they run under a self-only Content-Security-Policy).
// - graphiql: GraphiQL 4, React and their CSS (scripts/graphiql/entry.mjs), at /graphiql;
// - web: the viewer and player page (web/src/main.ts), at /.
// Run by `npm run build`.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const PAGES = [
  { name: 'graphiql', entry: 'scripts/graphiql/entry.mjs', title: 'Arbiter GraphiQL', body: '<div id="graphiql">Loading GraphiQL…</div>' },
  // The page's script must stay small: it is what a phone downloads first (issue 28: under 80 kB gzipped).
  // The tournament badge runs the referee core's verifier with its game's engine, and an ended game's or
  // tournament's page checks its place in the transparency log with the core's tlog: chunks of their own
  // (the verifiers, and one per engine), loaded only by those pages (`lazy`), whose SHA-256 comes from
  // node:crypto: the browser gets a synchronous SHA-256 (@noble/hashes, web/src/verify/) in its place.
  { name: 'web', entry: 'web/src/main.ts', title: 'Arbiter', body: '<div id="app"><p class="loading">Loading…</p></div>', maxGzip: 80 * 1024, lazy: true },
];

/**
 * `node:crypto` and `Buffer` as far as src/referee/core uses them in the page, for a browser: `Buffer`
 * is the `buffer` package's, imported by each of the core's modules that names it (esbuild's `inject`
 * would import it into every module, and the first script would carry it).
 */
const nodeForTheBrowser = {
  plugins: [
    {
      name: 'node-for-the-browser',
      setup(b) {
        b.onResolve({ filter: /^node:crypto$/ }, () => ({ path: join(root, 'web/src/verify/node-crypto.ts') }));
        b.onLoad({ filter: /[/\\]src[/\\]referee[/\\]core[/\\].*\.ts$/ }, ({ path }) => {
          const source = readFileSync(path, 'utf8');
          return { contents: /\bBuffer\b/.test(source) ? `import { Buffer } from 'buffer';\n${source}` : source, loader: 'ts' };
        });
      },
    },
  ],
};

for (const page of PAGES) await bundle(page);

async function bundle({ name, entry, title, body, maxGzip, lazy }) {
  const out = join(root, 'dist', name);
  const assets = join(out, 'assets');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(assets, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { [name]: entry },
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
    ...(lazy ? { ...nodeForTheBrowser, splitting: true, chunkNames: '[name]-[hash]' } : {}),
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
  const [entryOut] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint) ?? [];
  const script = entryOut && basename(entryOut);
  const style = outputs.find((f) => f.endsWith('.css'));
  if (!script || !style) throw new Error(`build-pages: ${name}: expected a .js and a .css bundle, got ${outputs.join(', ')}`);

  // The CSS must not reach for anything outside the page (fonts from a CDN, ...).
  const css = readFileSync(join(assets, style), 'utf8');
  const external = [...css.matchAll(/url\(\s*['"]?([^'")]+)/g)].map((m) => m[1]).filter((u) => !u.startsWith('data:'));
  if (external.length > 0) throw new Error(`build-pages: ${name}: the CSS loads ${external.join(', ')}; inline it instead`);
  // What a page downloads first: its script and the chunks that script imports statically.
  const first = new Set([entryOut]);
  for (const file of first) for (const i of result.metafile.outputs[file].imports) if (i.kind === 'import-statement') first.add(i.path);
  const gzipOf = (files) => files.reduce((n, file) => n + gzipSync(readFileSync(join(root, file))).length, 0);
  const gzipped = gzipOf([...first]);
  const chunks = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js') && !first.has(f));
  const later = gzipOf(chunks);
  if (maxGzip && gzipped > maxGzip) throw new Error(`build-pages: ${name}: the script is ${gzipped} bytes gzipped, over ${maxGzip}`);

  writeFileSync(
    join(out, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>${title}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/${name}/assets/${style}" />
    <script type="module" src="/${name}/assets/${script}"></script>
  </head>
  <body>
    ${body}
  </body>
</html>
`,
  );
  process.stdout.write(
    `build-pages: dist/${name}/ (${outputs.join(', ')}; script ${(gzipped / 1024).toFixed(1)} kB gzipped${later ? `, ${(later / 1024).toFixed(1)} kB more loaded when needed: ${chunks.map((f) => `${basename(f)} ${(gzipOf([f]) / 1024).toFixed(1)} kB`).join(', ')}` : ''})\n`,
  );
}
