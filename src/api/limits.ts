import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type ArgumentNode,
  type ASTVisitor,
  type DocumentNode,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  specifiedRules,
  type ValidationContext,
  type ValidationRule,
  validate,
} from 'graphql';
import type { Context as WsContext, ServerOptions as WsServerOptions } from 'graphql-ws';
import { Extensions } from '@nestjs/graphql';
import type { Config } from '../config/config.js';
import { type CreationAllowance, isKey, RefereeError, sha256Hex } from '../referee/index.js';
import { addressKey, addressOf, clientAddress, type GqlContext, isGraphqlPath, pathOf, type TrustProxy, tokenOf } from './caller.js';

// ------------------------------------------------------------------ what a query costs

/** Tokens one GraphQL document may have: far more than any real query, far fewer than would exhaust the parser's stack. */
export const MAX_QUERY_TOKENS = 5000;

/**
 * Introspection is always allowed, within its own depth: graphql-js's getIntrospectionQuery()
 * (what GraphiQL, Apollo tooling and graphql-codegen send) reaches depth 15 with
 * every option on. Its fields count in the cost as any others, so a crafted, wider one is still
 * bounded.
 */
const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);
export const MAX_INTROSPECTION_DEPTH = 16;

/**
 * What the limits count of a field besides its cost (the `complexity` option of its decorator, 1
 * when none): set on the field with `@Limits(...)`, read from the schema's field extensions.
 */
export interface FieldLimits {
  /** It replays or checks a whole game: at most `maxExpensiveFields` of them per operation (aliases counted). */
  expensive?: true;
  /** It makes a game (or a tournament, a round's games, a player or an app): counted against the creation quota of the caller's address. */
  creates?: true;
  /** A list whose selection is paid once per item it may answer: `first` or `last` (a literal; a variable counts as `max`), `default` without either. */
  page?: { default: number; max: number };
}

export const Limits = (limits: FieldLimits) => Extensions({ limits });

type SchemaField = GraphQLField<unknown, unknown>;

/** A field's own cost: its `complexity`, 1 when it has none. */
export const costOf = (field: SchemaField | undefined): number => {
  const complexity = field?.extensions.complexity;
  return typeof complexity === 'number' ? complexity : 1;
};

export const limitsOf = (field: SchemaField | undefined): FieldLimits => (field?.extensions.limits ?? {}) as FieldLimits;

/** A connection's fields that hold one entry per item of the page (pageInfo and totalCount are paid once). */
const PAGE_ITEMS = new Set(['edges', 'nodes']);

/** An expensive field, or an expensive REST request, counts this many requests against the per-minute limit. */
export const EXPENSIVE_REQUEST_COST = 10;

export interface OperationMeasure {
  /** Deepest selection outside introspection. */
  depth: number;
  /** Deepest selection under `__schema` / `__type`. */
  introspectionDepth: number;
  cost: number;
  /** Expensive fields selected (FieldLimits.expensive), aliases and fragments expanded. */
  expensive: number;
  /** Top-level mutation fields that create a game. */
  creations: number;
  /** Gave up counting: the operation costs more than `budget`, or its text fans out without end. */
  exceeded: boolean;
}

/**
 * Measures one operation: depth, cost (each field's own, list items multiplied), expensive fields
 * and creations, with fragments expanded. Stops early once the
 * cost passes `budget` (or the walk visits far more selections than that), so a document built
 * to fan out costs little to refuse.
 */
/**
 * Measures per operation node and budget, once: Apollo's document cache hands back the same
 * parsed nodes for a repeated query, so validation and the limits plugin share one walk.
 */
const measured = new WeakMap<OperationDefinitionNode, { budget: number; schema: GraphQLSchema | undefined; measure: OperationMeasure }>();

export function measureOperation(schema: GraphQLSchema | undefined, document: DocumentNode, op: OperationDefinitionNode, budget: number): OperationMeasure {
  const known = measured.get(op);
  if (known && known.budget === budget && known.schema === schema) return known.measure;
  const measure = walkOperation(schema, document, op, budget);
  measured.set(op, { budget, schema, measure });
  return measure;
}

function walkOperation(schema: GraphQLSchema | undefined, document: DocumentNode, op: OperationDefinitionNode, budget: number): OperationMeasure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const maxVisits = budget * 4 + 1000;
  let visits = 0;
  let exceeded = false;
  let expensive = 0;
  let creations = 0;
  let introspectionDepth = 0;
  const typeNamed = (name: string): GraphQLNamedType | undefined => schema?.getType(name) ?? undefined;
  // `items`: the page size of the list field this selection set belongs to; its `edges` and `nodes` cost that many times.
  const measure = (set: SelectionSetNode, parent: GraphQLNamedType | undefined, depth: number, seen: Set<string>, top: boolean, items = 1): { depth: number; cost: number } => {
    let deepest = depth;
    let cost = 0;
    for (const sel of set.selections) {
      if (exceeded || ++visits > maxVisits) {
        exceeded = true;
        break;
      }
      if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        const fields = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields() : undefined;
        const def = fields?.[name];
        const limits = limitsOf(def);
        if (limits.expensive) expensive++;
        if (top && limits.creates) creations++;
        let own = costOf(def);
        if (sel.selectionSet) {
          const inner = measure(sel.selectionSet, def ? getNamedType(def.type) : undefined, depth + 1, seen, false, itemsOf(limits.page, sel.arguments ?? []));
          // Introspection has its own, deeper bound: tools' standard query nests type references deeply.
          if (top && INTROSPECTION_FIELDS.has(name)) introspectionDepth = Math.max(introspectionDepth, inner.depth);
          else deepest = Math.max(deepest, inner.depth);
          own += inner.cost * (PAGE_ITEMS.has(name) ? items : 1);
        } else deepest = Math.max(deepest, depth + 1);
        cost += own;
      } else {
        let inner: SelectionSetNode;
        let type = parent;
        let innerSeen = seen;
        if (sel.kind === Kind.INLINE_FRAGMENT) {
          inner = sel.selectionSet;
          if (sel.typeCondition) type = typeNamed(sel.typeCondition.name.value);
        } else {
          const f = fragments.get(sel.name.value);
          if (!f || seen.has(f.name.value)) continue;
          inner = f.selectionSet;
          type = typeNamed(f.typeCondition.name.value);
          innerSeen = new Set(seen).add(f.name.value);
        }
        const m = measure(inner, type, depth, innerSeen, top, items);
        deepest = Math.max(deepest, m.depth);
        cost += m.cost;
      }
      if (cost > budget) exceeded = true;
    }
    return { depth: deepest, cost };
  };
  const root = op.operation === 'query' ? schema?.getQueryType() : op.operation === 'mutation' ? schema?.getMutationType() : schema?.getSubscriptionType();
  const m = measure(op.selectionSet, root ?? undefined, 0, new Set(), true);
  return { depth: m.depth, introspectionDepth, cost: m.cost, expensive, creations, exceeded: exceeded || m.cost > budget };
}

/** How many items a list field may answer, from its `first` (or `last`, paging backwards) argument. */
function itemsOf(page: FieldLimits['page'], args: readonly ArgumentNode[]): number {
  if (!page) return 1;
  const first = args.find((a) => a.name.value === 'first') ?? args.find((a) => a.name.value === 'last');
  if (!first) return page.default;
  if (first.value.kind === Kind.INT) return Math.min(page.max, Math.max(1, Number(first.value.value)));
  return page.max;
}

/**
 * Refuses operations nested deeper than `maxDepth`, costing more than `maxCost` (each field its
 * own cost, list selections times their items) or selecting more than `maxExpensive` expensive
 * fields, before anything runs: a query's cost is bounded by its text.
 */
export function queryLimits(maxDepth: number, maxCost: number, maxExpensive = 5): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(op) {
      const m = measureOperation(context.getSchema(), context.getDocument(), op, maxCost);
      if (m.depth > maxDepth) {
        context.reportError(new GraphQLError(`query depth ${m.depth} exceeds the limit of ${maxDepth}`, { extensions: { code: 'QUERY_TOO_DEEP' } }));
      }
      if (m.introspectionDepth > MAX_INTROSPECTION_DEPTH) {
        context.reportError(new GraphQLError(`introspection depth ${m.introspectionDepth} exceeds the limit of ${MAX_INTROSPECTION_DEPTH}`, { extensions: { code: 'QUERY_TOO_DEEP' } }));
      }
      if (m.exceeded) {
        const query = context.getSchema().getQueryType()?.getFields();
        context.reportError(
          new GraphQLError(
            `query costs more than the limit of ${maxCost} (a field costs 1, verifyGame ${costOf(query?.verifyGame)}, gameEvents ${costOf(query?.gameEvents)}, a games page its items)`,
            {
              extensions: { code: 'QUERY_TOO_COMPLEX' },
            },
          ),
        );
      }
      if (m.expensive > maxExpensive) {
        context.reportError(
          new GraphQLError(
            `query selects ${m.exceeded ? 'at least ' : ''}${m.expensive} expensive fields (verifyGame, gameStateAt, importGame, record exports), more than the limit of ${maxExpensive}`,
            {
              extensions: { code: 'QUERY_TOO_EXPENSIVE' },
            },
          ),
        );
      }
    },
  });
}

// ------------------------------------------------------------------ per-caller limits

export interface Refusal {
  code: 'RATE_LIMITED' | 'TOO_MANY_SUBSCRIPTIONS';
  message: string;
  /** Seconds before trying again helps; absent when only closing something helps. */
  retryAfter?: number;
}

type LimitSettings = Pick<
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

/**
 * Everything counted per caller, in one place: requests a minute, games created an hour, open
 * subscriptions and connections. A caller is a seat token this referee issued, or else the
 * client's address (X-Forwarded-For only through a trusted proxy; IPv6 by /64): a made-up
 * token never gets a bucket of its own. A seat's requests also count, with every other seat
 * token used from the same address, against that address's seats ceiling: creating games to mint
 * tokens cannot multiply what one address may send. A token seen for the first time is looked
 * up on its address's lookup allowance (as many a minute as the address's requests), not on its
 * requests, so a seat's first request does not depend on its neighbours' traffic; tokens found
 * to be made up are remembered for a minute, so a flood of them costs the database at most that
 * allowance.
 */
export class CallerLimits {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly known = new Map<string, true>();
  private readonly unknown = new Map<string, number>();
  private readonly creations = new Map<string, { tokens: number; at: number }>();
  private readonly subscriptions = new Map<string, number>();
  private readonly connections = new Map<string, number>();
  private readonly callers = new WeakMap<object, { key: string; overdrawn: Refusal | null }>();
  private bindings: LimitBindings | null = null;
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
  private chargedSeat(key: string, address: string, cost: number): { key: string } | { key: string; refusal: Refusal } {
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
      return { code: 'RATE_LIMITED', message: `more than ${perMinute} requests a minute; retry in ${retryAfter} s`, retryAfter };
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
      return { code: 'RATE_LIMITED', message: `more than ${perHour} games, tournaments, players or apps created or imported an hour from this address; retry in ${retryAfter} s`, retryAfter };
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

  /** Opens a subscription for a caller at an address: the release, or a refusal. */
  openSubscription(caller: string, address: string): (() => void) | Refusal {
    const { maxSubscriptionsPerCaller: perCaller, maxSubscriptionsPerAddress: perAddress } = this.settings;
    const byAddress = `A:${addressKey(address)}`;
    if (perCaller > 0 && (this.subscriptions.get(caller) ?? 0) >= perCaller) {
      return { code: 'TOO_MANY_SUBSCRIPTIONS', message: `at most ${perCaller} open subscriptions per caller; complete one first` };
    }
    if (perAddress > 0 && (this.subscriptions.get(byAddress) ?? 0) >= perAddress) {
      return { code: 'TOO_MANY_SUBSCRIPTIONS', message: `at most ${perAddress} open subscriptions per address; complete one first` };
    }
    const keys = [caller, byAddress];
    for (const k of keys) this.subscriptions.set(k, (this.subscriptions.get(k) ?? 0) + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      for (const k of keys) decrement(this.subscriptions, k);
    };
  }

  /** Opens a connection from an address: the release, or null past the cap. */
  openConnection(address: string): (() => void) | null {
    const cap = this.settings.maxConnectionsPerAddress;
    const key = addressKey(address);
    if (cap > 0 && (this.connections.get(key) ?? 0) >= cap) return null;
    this.connections.set(key, (this.connections.get(key) ?? 0) + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      decrement(this.connections, key);
    };
  }

  /** Counts (for tests and metrics). */
  stats(): { subscriptions: number; connections: number } {
    let subscriptions = 0;
    for (const [k, n] of this.subscriptions) if (k.startsWith('A:')) subscriptions += n;
    let connections = 0;
    for (const n of this.connections.values()) connections += n;
    return { subscriptions, connections };
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

  private charged(key: string, cost: number): { key: string } | { key: string; refusal: Refusal } {
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

  /** The graphql-ws hooks: count the connection, check and count every operation sent over it. */
  graphqlWs(): Partial<WsServerOptions> {
    const rules = [...specifiedRules, queryLimits(this.settings.maxQueryDepth, this.settings.maxQueryComplexity, this.settings.maxExpensiveFields)];
    const connections = new WeakMap<object, { key: string; address: string; subscriptions: Map<string, () => void> }>();
    type Ctx = WsContext<Record<string, unknown> | undefined, { request?: IncomingMessage; socket?: { once(event: 'close', listener: () => void): unknown } }>;
    return {
      onConnect: async (ctx: Ctx) => {
        const request = ctx.extra?.request;
        const address = request ? clientAddress(request, this.trust) : 'unknown';
        let token: string | null;
        try {
          token = tokenOf({ connectionParams: ctx.connectionParams ?? {} });
        } catch {
          return false; // a malformed token: 4403 Forbidden, not a silent spectator
        }
        const admitted = await this.admit(token, address);
        // A seat over its reading budget still connects: a move it sends has a budget of its own (onSubscribe charges each operation).
        if ('refusal' in admitted && !admitted.key.startsWith('t:')) return false;
        const conn = { key: admitted.key, address, subscriptions: new Map<string, () => void>() };
        connections.set(ctx, conn);
        // Free the connection's slots as soon as its socket closes: graphql-ws calls onClose only
        // after every subscription has returned, and a stream waiting for its next event may not.
        ctx.extra?.socket?.once('close', () => {
          for (const release of conn.subscriptions.values()) release();
        });
        return true;
      },
      onSubscribe: async (ctx: Ctx, id: string, payload: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null }) => {
        const conn = connections.get(ctx);
        const schema = this.bindings?.schema();
        if (!conn || !schema) return undefined; // not wired (no application): graphql-ws validates with `validate` below
        // Over a seat's reading budget, the operation may still be a move, which has its own (as over HTTP: see chargeOperation).
        const counted: { key: string; refusal?: Refusal } = conn.key.startsWith('t:') ? this.chargedSeat(conn.key, conn.address, 1) : this.charged(conn.key, 1);
        const overdrawn = counted.refusal ?? null;
        if (overdrawn && !counted.key.startsWith('t:')) return [refusalError(overdrawn, false)];
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: MAX_QUERY_TOKENS });
        } catch (err) {
          return [err instanceof GraphQLError ? err : new GraphQLError('the query does not parse', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
        }
        const errors = validate(schema, document, rules);
        if (errors.length > 0) return errors;
        const op = getOperationAST(document, payload.operationName ?? undefined);
        if (!op) return [new GraphQLError('name the operation to run', { extensions: { code: 'INVALID_INPUT' } })];
        const refused = this.chargeOperation(schema, document, op, conn.key, conn.address, overdrawn);
        if (refused) return [refusalError(refused, false)];
        if (op.operation === 'subscription') {
          conn.subscriptions.get(id)?.();
          const opened = this.openSubscription(conn.key, conn.address);
          if (typeof opened !== 'function') return [refusalError(opened, false)];
          conn.subscriptions.set(id, opened);
        }
        const args: ExecutionArgs = { schema, document, operationName: payload.operationName, variableValues: payload.variables };
        return args;
      },
      onComplete: (ctx: Ctx, id: string) => {
        const conn = connections.get(ctx);
        conn?.subscriptions.get(id)?.();
        conn?.subscriptions.delete(id);
      },
      onClose: (ctx: Ctx) => {
        const conn = connections.get(ctx);
        for (const release of conn?.subscriptions.values() ?? []) release();
        connections.delete(ctx);
      },
      validate: (schema: GraphQLSchema, document: DocumentNode) => [...validate(schema, document, rules)],
    } as Partial<WsServerOptions>;
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
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
export function rateLimiter(limits: CallerLimits) {
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
export function importQuota(limits: CallerLimits) {
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
export function limitsPlugin(limits: CallerLimits): ApolloServerPlugin<GqlContext> {
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

const registry = new WeakMap<Config, CallerLimits>();

/** The one CallerLimits of an application (keyed by its Config: the module and createApp share it). */
export function callerLimits(config: Config): CallerLimits {
  let limits = registry.get(config);
  if (!limits) registry.set(config, (limits = new CallerLimits(config)));
  return limits;
}
