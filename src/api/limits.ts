import {
  type ArgumentNode,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { Extensions } from '@nestjs/graphql';

/**
 * What a GraphQL operation costs, read from its text before anything runs: depth, cost,
 * expensive fields and creations (the fields' `@Limits`). What each caller may spend is counted
 * in rate-budgets.ts; its open connections and subscriptions in connection-limits.ts.
 */

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
