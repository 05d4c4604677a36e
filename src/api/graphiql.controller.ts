import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Controller, Get, Inject, Next, Param, Req, Res } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CONFIG, type Config } from '../config/config.js';
import { projectRoot } from '../config/project-root.js';

/** One built file of the page, kept in memory with its gzipped copy. */
interface Asset {
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

/** Where `npm run build` (scripts/build-graphiql.mjs) writes the page: index.html and assets/. */
export const GRAPHIQL_DIR = resolve(projectRoot(import.meta.dirname), 'dist', 'graphiql');

function asset(path: string): Asset {
  const body = readFileSync(path);
  return { type: TYPES[extname(path)] ?? 'application/octet-stream', body, gzip: gzipSync(body), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** The built page, read once: index.html and the assets by name; null when it is not built. */
function loadPage(dir: string): { index: Asset; assets: Map<string, Asset> } | null {
  const assetsDir = join(dir, 'assets');
  if (!existsSync(join(dir, 'index.html')) || !existsSync(assetsDir)) return null;
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(assetsDir)) if (TYPES[extname(name)]) assets.set(name, asset(join(assetsDir, name)));
  return { index: asset(join(dir, 'index.html')), assets };
}

/**
 * Self only: the page's script, styles and requests (HTTP and graphql-ws) stay on this origin;
 * fonts and images are inlined in the CSS as data: URLs. The WebSocket origin is also named
 * explicitly, for browsers whose 'self' does not cover ws:/wss:.
 */
function contentSecurityPolicy(req: Request): string {
  const host = req.headers.host;
  const ws = host && /^[A-Za-z0-9.\-[\]:]{1,300}$/.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${ws}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * GraphiQL at /graphiql, bundled from the npm packages at build time and served from here (no
 * CDN): on unless NODE_ENV=production, where GRAPHIQL=on turns it on. A browser opening
 * /graphql is sent to it (or told it is off, as JSON); every other GET /graphql goes on to Apollo.
 */
@Controller()
export class GraphiqlController {
  private page: ReturnType<typeof loadPage> | undefined;

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  @Get('graphiql')
  index(@Req() req: Request, @Res() res: Response): void {
    const page = this.built(res);
    if (page) this.send(req, res, page.index, 'no-cache');
  }

  @Get('graphiql/assets/:file')
  asset(@Param('file') file: string, @Req() req: Request, @Res() res: Response): void {
    const page = this.built(res);
    if (!page) return;
    const found = page.assets.get(file);
    if (!found) {
      res.status(404).json({ error: { code: 'NOT_FOUND', message: `no GraphiQL asset named ${JSON.stringify(file.slice(0, 100))}` } });
      return;
    }
    // Names carry a hash of their content: cached for good.
    this.send(req, res, found, 'public, max-age=31536000, immutable');
  }

  /** A browser's GET /graphql (HTML accepted before JSON, no query): GraphiQL, or a JSON refusal when it is off. */
  @Get('graphql')
  browser(@Req() req: Request, @Res() res: Response, @Next() next: NextFunction): void {
    if (req.query.query !== undefined || req.accepts(['application/json', 'text/html']) !== 'text/html') {
      next();
      return;
    }
    if (this.config.graphiql) {
      res.redirect(302, '/graphiql');
      return;
    }
    res.status(404).json({ error: { code: 'NOT_FOUND', message: this.offMessage() } });
  }

  private offMessage(): string {
    return 'GraphiQL is off (it is off under NODE_ENV=production unless GRAPHIQL=on); send GraphQL requests as POST /graphql with a JSON body';
  }

  /** The built page, or null after answering 404 (off) or 503 (not built). */
  private built(res: Response): NonNullable<ReturnType<typeof loadPage>> | null {
    if (!this.config.graphiql) {
      res.status(404).json({ error: { code: 'NOT_FOUND', message: this.offMessage() } });
      return null;
    }
    this.page ??= loadPage(GRAPHIQL_DIR) ?? undefined;
    if (!this.page) {
      res.status(503).json({ error: { code: 'NOT_BUILT', message: 'GraphiQL is not built: run `npm run build` (it writes dist/graphiql/)' } });
      return null;
    }
    return this.page;
  }

  private send(req: Request, res: Response, file: Asset, cacheControl: string): void {
    res.setHeader('content-security-policy', contentSecurityPolicy(req));
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('cross-origin-opener-policy', 'same-origin');
    res.setHeader('cache-control', cacheControl);
    res.setHeader('etag', file.etag);
    res.setHeader('vary', 'accept-encoding');
    res.setHeader('content-type', file.type);
    if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(file.etag)) {
      res.status(304).end();
      return;
    }
    const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip';
    if (gzip) res.setHeader('content-encoding', 'gzip');
    res.status(200).end(gzip ? file.gzip : file.body);
  }
}
