import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type DocumentNode, GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { Config } from '../config/config.js';
import { type CreationAllowance, durationWords, isKey, RefereeError, sha256Hex } from '../referee/index.js';
import { addressKey, addressOf, clientAddress, type GqlContext, isGraphqlPath, pathOf, type TrustProxy, tokenOf } from './caller.js';
import { EXPENSIVE_REQUEST_COST, measureOperation } from './limits.js';

/**
 * The per-caller rate budgets: requests a minute (a seat's reads and its moves apart), games
 * created an hour, and the HTTP hooks and Apollo plugin that charge them. Open connections and
 * subscriptions are counted in connection-limits.ts.
 */

export interface Refusal {
  code: 'RATE_LIMITED' | 'TOO_MANY_SUBSCRIPTIONS';
  message: string;
  /** Seconds before trying again helps; absent when only closing something helps. */
  retryAfter?: number;
}

export type LimitSettings = Pick<
  Config,
  | 'rateLimitPerMinute'
  | 'addressRateLimitPerMinute'
  | 'addressSeatsRateLimitPerMinute'
  | 'createQuotaPerHour'
  | 'maxSubscriptionsPerCaller'
  | 'maxSubscriptionsPerAddress'
  | 'maxConnectionsPerAddress'
  | 'maxQueryDepth'
  | 'maxQueryComplexity'
  | 'maxExpensiveFields'
>;

export interface LimitBindings {
  /**
   * Who a token was issued to (a seat, a participant, an organizer, a key's holder); null for a
   * made-up, rotated or revoked one. `request`: the HTTP request it came with (a key's holder is
   * then looked up once for the request, and the scopes guard finds it there).
   */
  tokenOwner(token: string, request?: FastifyRequest): Promise<unknown | null>;
  /** proxy-addr's compiled TRUST_PROXY. */
  trust: TrustProxy;
  schema(): GraphQLSchema | undefined;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const KNOWN_TOKENS = 100_000;
const UNKNOWN_TOKENS = 10_000;
const UNKNOWN_TTL = MINUTE;

/** When to try again, in words ("retry in 20 minutes"). */
const retryIn = (seconds: number): string => `retry in ${durationWords(seconds * 1000)}`;

/**
 * What each caller may spend: requests a minute, games created an hour. A caller is a seat token
 * this referee issued, or else the client's address (X-Forwarded-For only through a trusted
 * proxy; IPv6 by /64): a made-up token never gets a bucket of its own. A seat's requests also
 * count, with every other seat token used from the same address, against that address's seats
 * ceiling: creating games to mint tokens cannot multiply what one address may send. A token seen
 * for the first time is looked up on its address's lookup allowance (as many a minute as the
 * address's requests), not on its requests, so a seat's first request does not depend on its
 * neighbours' traffic; tokens found to be made up are remembered for a minute, so a flood of them
 * costs the database at most that allowance.
 */
export class RateBudgets {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly known = new Map<string, true>();
  private readonly unknown = new Map<string, number>();
  private readonly creations = new Map<string, { tokens: number; at: number }>();
  private readonly callers = new WeakMap<object, { key: string; overdrawn: Refusal | null }>();
  protected bindings: LimitBindings | null = null;
  private sweptWindows: number;
  private sweptCreations: number;

  constructor(
    readonly settings: LimitSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.sweptWindows = this.sweptCreations = now();
  }

  /** Wires the token lookup, the proxy trust and the schema, once the application exists. */
  bind(bindings: LimitBindings): void {
    this.bindings = bindings;
  }

  get trust(): TrustProxy {
    return this.bindings?.trust ?? (() => false);
  }

  get rateLimited(): boolean {
    return this.settings.rateLimitPerMinute > 0;
  }

  /**
   * Counts a request of `cost` against its caller's minute and answers the caller's key, or a
   * refusal. A token not seen before is paid for by the address, then looked up.
   */
  async admit(token: string | null, address: string, cost = 1, request?: FastifyRequest): Promise<{ key: string } | { key: string; refusal: Refusal }> {
    const byAddress = `a:${addressKey(address)}`;
    if (!token) return this.charged(byAddress, cost);
    const hash = sha256Hex(token);
    // A player's or an app's key may be revoked on any instance: it is looked up on every request
    // (a key seen valid before costs no lookup allowance), and a revoked one counts per address.
    const key = isKey(token);
    if (this.known.has(hash) && !key) {
      this.known.delete(hash);
      this.known.set(hash, true);
    } else {
      const until = this.unknown.get(hash);
      if (until !== undefined && until > this.now()) return this.charged(byAddress, cost);
      if (!this.known.has(hash)) {
        const lookup = this.charge(`l:${addressKey(address)}`, 1);
        if (lookup) return { key: byAddress, refusal: lookup };
      }
      if (!(await this.isIssued(token, hash, request))) return this.charged(byAddress, cost);
    }
    return this.chargedSeat(`t:${hash}`, address, cost);
  }

  /**
   * A seat's request: against its own minute and, with every seat token used from its address,
   * against that address's seats ceiling; both or neither. Over its own budget the refusal keeps
   * the seat's key (a GraphQL POST may still be a move, which has a budget of its own); over the
   * address's ceiling it is the address's, and final.
   */
  protected chargedSeat(key: string, address: string, cost: number): { key: string } | { key: string; refusal: Refusal } {
    const seats = `s:${addressKey(address)}`;
    const ceiling = this.charge(seats, cost);
    if (ceiling) return { key: seats, refusal: ceiling };
    const own = this.charge(key, cost);
    if (own) this.refund(seats, cost);
    return own ? { key, refusal: own } : { key };
  }

  /**
   * Counts `cost` more requests against a caller's current minute. Callers without a real token
   * share their address's budget, generous by default (twice a seat's): one address may hold
   * many spectators and players between moves.
   */
  charge(key: string, cost: number): Refusal | null {
    const perSeat = this.settings.rateLimitPerMinute;
    if (perSeat === 0 || cost <= 0) return null;
    const perMinute = this.perMinute(key, perSeat);
    const now = this.now();
    if (now - this.sweptWindows > MINUTE) {
      for (const [k, w] of this.windows) if (now - w.start >= MINUTE) this.windows.delete(k);
      this.sweptWindows = now;
    }
    let w = this.windows.get(key);
    if (!w || now - w.start >= MINUTE) this.windows.set(key, (w = { start: now, count: 0 }));
    // A request dearer than the whole minute still gets through on a fresh minute.
    const units = Math.min(cost, perMinute);
    if (w.count + units > perMinute) {
      const retryAfter = Math.max(1, Math.ceil((w.start + MINUTE - now) / 1000));
      return { code: 'RATE_LIMITED', message: `more than ${perMinute} requests a minute; ${retryIn(retryAfter)}`, retryAfter };
    }
    w.count += units;
    return null;
  }

  /** A bucket's size: a seat's (and its moves'), an address's requests or token lookups, or an address's seats together. */
  private perMinute(key: string, perSeat: number): number {
    if (key.startsWith('a:') || key.startsWith('l:')) return this.settings.addressRateLimitPerMinute ?? 2 * perSeat;
    if (key.startsWith('s:')) return this.settings.addressSeatsRateLimitPerMinute ?? 10 * perSeat;
    return perSeat;
  }

  /** Gives back units counted in the caller's current minute (a request found to belong to another budget). */
  private refund(key: string, units: number): void {
    const w = this.windows.get(key);
    if (w) w.count = Math.max(0, w.count - units);
  }

  /** Remembers which caller an HTTP request was counted under (for the GraphQL plugin). */
  remember(req: object, key: string, overdrawn: Refusal | null = null): void {
    this.callers.set(req, { key, overdrawn });
  }

  callerOf(req: object): string | null {
    return this.callers.get(req)?.key ?? null;
  }

  /** The refusal a seat's request over its reading budget is held to unless it turns out to be a move. */
  overdrawnOf(req: object): Refusal | null {
    return this.callers.get(req)?.overdrawn ?? null;
  }

  /** Takes `n` game creations from the address's hourly quota (a bucket refilled continuously). */
  takeCreations(address: string, n: number): Refusal | null {
    const perHour = this.settings.createQuotaPerHour;
    if (perHour === 0 || n <= 0) return null;
    const now = this.now();
    const refill = (b: { tokens: number; at: number }) => {
      b.tokens = Math.min(perHour, b.tokens + ((now - b.at) * perHour) / HOUR);
      b.at = now;
    };
    if (now - this.sweptCreations > 10 * MINUTE) {
      for (const [k, b] of this.creations) {
        refill(b);
        if (b.tokens >= perHour) this.creations.delete(k);
      }
      this.sweptCreations = now;
    }
    if (n > perHour) return { code: 'RATE_LIMITED', message: `one request may create at most ${perHour} games (${n} asked)`, retryAfter: 3600 };
    const key = addressKey(address);
    let b = this.creations.get(key);
    if (!b) this.creations.set(key, (b = { tokens: perHour, at: now }));
    refill(b);
    if (b.tokens < n) {
      const retryAfter = Math.max(1, Math.ceil(((n - b.tokens) * 3600) / perHour));
      return { code: 'RATE_LIMITED', message: `more than ${perHour} games, tournaments, players or apps created or imported an hour from this address; ${retryIn(retryAfter)}`, retryAfter };
    }
    b.tokens -= n;
    return null;
  }

  /**
   * The GraphQL context: over HTTP Fastify's request (Apollo's Fastify integration passes it; it
   * has `raw`), over graphql-ws the connection's parameters; with the caller's address's creation
   * quota for the commands that create games as they go (a tournament's pairing, a record).
   */
  graphqlContext(c: { raw?: unknown; connectionParams?: unknown; extra?: { request?: IncomingMessage } }): GqlContext {
    if (c.raw) return { req: c as FastifyRequest, creations: this.creationAllowance(addressOf(c as FastifyRequest)) };
    const request = c.extra?.request;
    const address = request ? clientAddress(request, this.trust) : 'unknown';
    return { connectionParams: (c.connectionParams ?? {}) as Record<string, unknown>, creations: this.creationAllowance(address) };
  }

  /**
   * An address's creation quota as the referee's command path charges it: the games a tournament
   * command creates or imports are counted once decided, and given back if nothing is stored.
   */
  creationAllowance(address: string): CreationAllowance {
    return {
      take: (games) => {
        const refused = this.takeCreations(address, games);
        if (refused) throw new RefereeError(refused.code, refused.message, refused.retryAfter);
      },
      giveBack: (games) => {
        const b = this.creations.get(addressKey(address));
        if (b) b.tokens = Math.min(this.settings.createQuotaPerHour, b.tokens + games);
      },
    };
  }

  /**
   * What an operation costs its caller beyond the request itself: expensive fields against the
   * minute, creations against the address's hour. A refusal, or null.
   */
  chargeOperation(schema: GraphQLSchema | undefined, document: DocumentNode, op: OperationDefinitionNode, caller: string | null, address: string, overdrawn: Refusal | null = null): Refusal | null {
    const m = measureOperation(schema, document, op, this.settings.maxQueryComplexity);
    if (caller?.startsWith('t:') && op.operation === 'mutation') {
      const refused = this.chargeMove(caller, address, overdrawn);
      if (refused) return refused;
    } else if (overdrawn) return overdrawn;
    if (caller && m.expensive > 0) {
      const refused = this.charge(caller, m.expensive * (EXPENSIVE_REQUEST_COST - 1));
      if (refused) return refused;
    }
    return op.operation === 'mutation' ? this.takeCreations(address, m.creations) : null;
  }

  /**
   * A seat's move (a GraphQL mutation, a REST seat command): a seat's moves have a budget of their
   * own, so reading (polling, spectating) never starves them. The request was counted as a read
   * (or let through over the reads budget, `overdrawn`): that count moves to the moves' budget.
   */
  chargeMove(caller: string, address: string, overdrawn: Refusal | null): Refusal | null {
    if (!overdrawn) this.refund(caller, 1);
    else {
      // Let through over the seat's reading budget, so not counted yet on its address's seats ceiling.
      const ceiling = this.charge(`s:${addressKey(address)}`, 1);
      if (ceiling) return ceiling;
    }
    return this.charge(`${caller}:moves`, 1);
  }

  protected charged(key: string, cost: number): { key: string } | { key: string; refusal: Refusal } {
    const refusal = this.charge(key, cost);
    return refusal ? { key, refusal } : { key };
  }

  private async isIssued(token: string, hash: string, request?: FastifyRequest): Promise<boolean> {
    if (!this.bindings) return false;
    let owner: unknown;
    try {
      owner = await this.bindings.tokenOwner(token, request);
    } catch {
      return false; // the database is unwell: count the request by address, remember nothing
    }
    if (owner) {
      this.known.set(hash, true);
      if (this.known.size > KNOWN_TOKENS) this.known.delete(this.known.keys().next().value as string);
      return true;
    }
    this.known.delete(hash);
    this.unknown.delete(hash);
    this.unknown.set(hash, this.now() + UNKNOWN_TTL);
    if (this.unknown.size > UNKNOWN_TOKENS) this.unknown.delete(this.unknown.keys().next().value as string);
    return false;
  }
}

/** A refusal as a GraphQL error; over HTTP also a 429 status and Retry-After. */
export function refusalError(refusal: Refusal, http = true): GraphQLError {
  const extensions: Record<string, unknown> = { code: refusal.code };
  if (refusal.retryAfter !== undefined) extensions.retryAfter = refusal.retryAfter;
  if (http) {
    const headers = new HeaderMap();
    if (refusal.retryAfter !== undefined) headers.set('retry-after', String(refusal.retryAfter));
    extensions.http = { status: 429, headers };
  }
  return new GraphQLError(refusal.message, { extensions });
}

/** 429 with Retry-After; the body is the REST error, or on /graphql a GraphQL `errors` list (nothing else at its top level). */
function refuse(req: FastifyRequest, reply: FastifyReply, refusal: Refusal): FastifyReply {
  if (refusal.retryAfter !== undefined) reply.header('retry-after', String(refusal.retryAfter));
  const { code, message, retryAfter } = refusal;
  return reply.code(429).send(isGraphqlPath(pathOf(req)) ? { errors: [{ message, extensions: { code, retryAfter } }] } : { error: { code, message } });
}

// ------------------------------------------------------------------ HTTP hooks and plugin

/** The REST seat commands (src/api/games.controller.ts): moves, as GraphQL's mutations are. */
const SEAT_COMMAND_REST = /^\/api\/games\/[^/]+\/(actions|resign|abort)\/?$/i;

const EXPENSIVE_REST = /^\/api\/games\/[^/]+\/(bundle|record)\/?$|^\/api\/games\/import\/?$|^\/api\/tournaments\/[^/]+\/bundle\/?$/i;

/**
 * The per-minute limit over HTTP (an `onRequest` hook: before the body is read): per seat token
 * this referee issued, else per client address (a made-up token counts against its address).
 * Expensive REST requests (bundle, record, import) count EXPENSIVE_REQUEST_COST. Answers 429
 * with Retry-After.
 */
export function rateLimiter(limits: RateBudgets) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const path = pathOf(req);
    if (!limits.rateLimited || path === '/healthz' || path === '/metrics') return;
    const cost = EXPENSIVE_REST.test(path) ? EXPENSIVE_REQUEST_COST : 1;
    const admitted = await limits.admit(tokenOf(req), addressOf(req), cost, req);
    const seat = admitted.key.startsWith('t:');
    const overdrawn = 'refusal' in admitted ? admitted.refusal : null;
    // A REST seat command is a move: charged as a GraphQL mutation is, on the seat's moves' budget.
    if (seat && req.method === 'POST' && SEAT_COMMAND_REST.test(path)) {
      const refused = limits.chargeMove(admitted.key, addressOf(req), overdrawn);
      if (refused) return refuse(req, reply, refused);
      limits.remember(req, admitted.key);
      return;
    }
    if (overdrawn) {
      // Over a seat's reading budget, a GraphQL POST may still be a move, which has its own:
      // the plugin decides once the operation is known (only real seat tokens get this far).
      if (seat && req.method === 'POST' && isGraphqlPath(path)) {
        limits.remember(req, admitted.key, overdrawn);
        return;
      }
      return refuse(req, reply, overdrawn);
    }
    limits.remember(req, admitted.key);
  };
}

/** An `onRequest` hook: a POST to /api/games/import takes one creation from the address's hourly quota, before the body is read. */
export function importQuota(limits: RateBudgets) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (req.method !== 'POST' || !/^\/api\/games\/import(\/|$)/i.test(pathOf(req))) return;
    const refused = limits.takeCreations(addressOf(req), 1);
    if (refused) return refuse(req, reply, refused);
  };
}

/**
 * Apollo plugin: once the operation is known (parsed, validated, chosen), charges its expensive
 * fields to the caller's minute and its creations to the address's hour, or refuses it with
 * RATE_LIMITED (HTTP 429, Retry-After) before anything runs.
 */
export function limitsPlugin(limits: RateBudgets): ApolloServerPlugin<GqlContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, contextValue, schema }) {
          const req = contextValue.req;
          if (!req || !operation) return;
          const refused = limits.chargeOperation(schema, document, operation, limits.callerOf(req), addressOf(req), limits.overdrawnOf(req));
          if (refused) throw refusalError(refused);
        },
      };
    },
  };
}
