import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { type CreationAllowance, isKey, type KeyDirectory, type KeyHolder, RefereeError } from '../referee/index.js';

/** The GraphQL context: the HTTP request, or the graphql-ws connection's parameters. */
export interface GqlContext {
  req?: FastifyRequest;
  connectionParams?: Record<string, unknown>;
  /** The caller's address's creation quota, for what a command creates beyond the operation's own creations (a tournament's games). */
  creations?: CreationAllowance;
}

const bearer = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const m = /^Bearer\s+(\S+)$/i.exec(value.trim());
  return m ? m[1] : null;
};

/**
 * The caller's seat token: the `Authorization: Bearer <token>` header, or in graphql-ws
 * connection params `authorization` (with or without `Bearer `) or `token`. A value given
 * there that is no token at all is refused (UNAUTHORIZED), never taken for a spectator.
 */
export function tokenOf(ctx: GqlContext | FastifyRequest | IncomingMessage | undefined): string | null {
  if (!ctx) return null;
  if ('headers' in ctx && ctx.headers) return bearer(ctx.headers.authorization);
  const c = ctx as GqlContext;
  if (c.req?.headers) return bearer(c.req.headers.authorization);
  const params = c.connectionParams ?? {};
  const given = params.authorization ?? params.Authorization ?? params.token;
  if (given === undefined || given === null || given === '') return null;
  const token = bearer(given) ?? (typeof given === 'string' && /^\S+$/.test(given.trim()) ? given.trim() : null);
  if (!token) throw new RefereeError('UNAUTHORIZED', 'connectionParams.authorization must be a seat token, with or without "Bearer "');
  return token;
}

const holders = new WeakMap<object, Promise<KeyHolder | null>>();

/**
 * The holder of the caller's player or app key, looked up once per request (kept on the request,
 * or the graphql-ws operation's context, never longer: a revoked key is refused from the next
 * request on). Null when the caller sent no key (a seat, participant or organizer token, or
 * none); a key unknown, rotated or revoked is refused (UNAUTHORIZED).
 */
export function holderOf(ctx: GqlContext | FastifyRequest, keys: KeyDirectory): Promise<KeyHolder | null> {
  const request: object = ('req' in ctx && ctx.req) || ctx;
  let holder = holders.get(request);
  if (!holder) {
    const token = tokenOf(ctx);
    holder =
      token && isKey(token)
        ? keys.holder(token).then((h) => {
            if (!h) throw new RefereeError('UNAUTHORIZED', 'this key is unknown, rotated or revoked');
            return h;
          })
        : Promise.resolve(null);
    holders.set(request, holder);
  }
  return holder;
}

/** Whether the peer at `address`, `hops` proxies away, is a proxy we trust (proxy-addr's compiled TRUST_PROXY, as Fastify's `trustProxy` uses it). */
export type TrustProxy = (address: string, hops: number) => boolean;

/**
 * The client's address for an HTTP request Fastify has not seen (a WebSocket upgrade), the way
 * Fastify computes `request.ip`: walk X-Forwarded-For from the nearest hop while the hop is trusted.
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  const socketAddress = req.socket.remoteAddress ?? 'unknown';
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .reverse();
  const hops = [socketAddress, ...forwarded];
  for (let i = 0; i < hops.length - 1; i++) if (!trust(hops[i], i)) return hops[i];
  return hops[hops.length - 1];
}

/** Whether a request path is the GraphQL endpoint (as the router matches it: a trailing slash, any case). */
export const isGraphqlPath = (path: string): boolean => /^\/graphql\/?$/i.test(path);

/** A request's path, without the query string (which may hold a `token=`). */
export const pathOf = (req: { url: string }): string => req.url.split('?', 1)[0];

/** The client's address of an HTTP request (X-Forwarded-For only through trusted proxies). */
export function addressOf(req: FastifyRequest): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * The key limits count an address under: IPv4 as is (also when mapped into IPv6), IPv6 by its
 * /64 prefix (one subscriber usually holds a whole /64, so single addresses are free to rotate).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  const plain = address.split('%')[0];
  if (isIP(plain) !== 6) return address;
  const halves = plain.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const all = halves.length === 2 ? [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail] : head;
  return `${all
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
