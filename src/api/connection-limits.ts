import type { IncomingMessage } from 'node:http';
import { type DocumentNode, type ExecutionArgs, GraphQLError, type GraphQLSchema, getOperationAST, parse, specifiedRules, validate } from 'graphql';
import type { Context as WsContext, ServerOptions as WsServerOptions } from 'graphql-ws';
import type { Config } from '../config/config.js';
import { addressKey, clientAddress, tokenOf } from './caller.js';
import { MAX_QUERY_TOKENS, queryLimits } from './limits.js';
import { RateBudgets, type Refusal, refusalError } from './rate-budgets.js';

/**
 * Everything counted per caller, in one place: its rate budgets (RateBudgets) and its open
 * subscriptions and connections, which only closing one frees.
 */
export class CallerLimits extends RateBudgets {
  private readonly subscriptions = new Map<string, number>();
  private readonly connections = new Map<string, number>();

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

const registry = new WeakMap<Config, CallerLimits>();

/** The one CallerLimits of an application (keyed by its Config: the module and createApp share it). */
export function callerLimits(config: Config): CallerLimits {
  let limits = registry.get(config);
  if (!limits) registry.set(config, (limits = new CallerLimits(config)));
  return limits;
}
