import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import accepts from 'accepts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { projectRoot } from '../config/project-root.js';

/**
 * The browser pages `npm run build` bundles (scripts/build-pages.mjs) into dist/<page>/:
 * index.html and content-hashed assets, read once, kept in memory with their gzipped copies and
 * served under a self-only Content-Security-Policy. GraphiQL (/graphiql) and the web page (/)
 * are two of them.
 */
/** One built file of the page, kept in memory with its gzipped copy. */
export interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** Where `npm run build` writes a page: index.html and assets/. */
export const pageDir = (name: string): string => resolve(projectRoot(import.meta.dirname), 'dist', name);

function asset(path: string): Asset {
  const body = readFileSync(path);
  return { type: TYPES[extname(path)] ?? 'application/octet-stream', body, gzip: gzipSync(body), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** The built page, read once: index.html and the assets by name; null when it is not built. */
export function loadPage(dir: string): { index: Asset; assets: Map<string, Asset> } | null {
  const assetsDir = join(dir, 'assets');
  if (!existsSync(join(dir, 'index.html')) || !existsSync(assetsDir)) return null;
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(assetsDir)) if (TYPES[extname(name)]) assets.set(name, asset(join(assetsDir, name)));
  return { index: asset(join(dir, 'index.html')), assets };
}

/**
 * Self only: the page's script, styles and requests (HTTP and graphql-ws: CSP Level 3's 'self'
 * covers ws: and wss: on this host) stay on this origin; fonts and images are inlined in the CSS
 * as data: URLs. Nothing of the request goes into the policy (a Host header is the client's to forge).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Answers one built file: cache headers, ETag (304 when unchanged), gzip when accepted, the page's security headers. */
export function sendAsset(req: FastifyRequest, reply: FastifyReply, file: Asset, cacheControl: string): void {
  reply.headers({
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cache-control': cacheControl,
    etag: file.etag,
    vary: 'accept-encoding',
    'content-type': file.type,
  });
  if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(file.etag)) {
    reply.code(304).send();
    return;
  }
  const gzip = accepts(req.raw).encodings(['gzip', 'identity']) === 'gzip';
  if (gzip) reply.header('content-encoding', 'gzip');
  reply.code(200).send(gzip ? file.gzip : file.body);
}

/** Names carry a hash of their content: cached for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** One built page: its index and assets answered, or 503 while it is not built. */
export class BuiltPage {
  private page: ReturnType<typeof loadPage> | undefined;

  constructor(
    readonly dir: string,
    /** What the page is, in messages ("GraphiQL", "the web page"). */
    private readonly what: string,
  ) {}

  index(req: FastifyRequest, reply: FastifyReply): void {
    const page = this.built(reply);
    if (page) sendAsset(req, reply, page.index, 'no-cache');
  }

  asset(file: string, req: FastifyRequest, reply: FastifyReply): void {
    const page = this.built(reply);
    if (!page) return;
    const found = page.assets.get(file);
    if (!found) reply.code(404).send({ error: { code: 'NOT_FOUND', message: `no ${this.what} asset named ${JSON.stringify(file.slice(0, 100))}` } });
    else sendAsset(req, reply, found, IMMUTABLE);
  }

  private built(reply: FastifyReply): NonNullable<ReturnType<typeof loadPage>> | null {
    this.page ??= loadPage(this.dir) ?? undefined;
    if (!this.page) reply.code(503).send({ error: { code: 'NOT_BUILT', message: `${this.what} is not built: run \`npm run build\` (it writes ${this.dir})` } });
    return this.page ?? null;
  }
}
