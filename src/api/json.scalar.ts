import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/**
 * The deepest JSON the API takes (actions, rulesets, deals, records as JSON). Real inputs nest a
 * few levels; a bound keeps every recursive walk further on (hashing, messages that quote the
 * input) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 32;

const tooDeep = () => new GraphQLError(`JSON input nests deeper than ${MAX_JSON_DEPTH} levels`, { extensions: { code: 'INVALID_INPUT' } });

/** Whether `value` nests objects or arrays deeper than `max` levels; iterative, so any depth is measured safely. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

function literal(ast: ValueNode, variables: Record<string, unknown> | null | undefined, depth: number): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      if (depth > MAX_JSON_DEPTH) throw tooDeep();
      return ast.values.map((v) => literal(v, variables, depth + 1));
    case Kind.OBJECT:
      if (depth > MAX_JSON_DEPTH) throw tooDeep();
      // Own data properties only (fromEntries defines them): a "__proto__" field stays a field.
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables, depth + 1)]));
    case Kind.VARIABLE: {
      const value = variables && Object.hasOwn(variables, ast.name.value) ? variables[ast.name.value] : undefined;
      if (nestsDeeperThan(value, MAX_JSON_DEPTH - depth + 1)) throw tooDeep();
      return value;
    }
    default:
      return undefined;
  }
}

/** Arbitrary JSON: engine views, actions, rulesets and event payloads. */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: `Any JSON value (views, actions, rulesets and event payloads are game-specific), nested at most ${MAX_JSON_DEPTH} levels.`,
  serialize: (v) => v,
  parseValue: (v) => {
    if (nestsDeeperThan(v, MAX_JSON_DEPTH)) throw tooDeep();
    return v;
  },
  parseLiteral: (ast, variables) => literal(ast, variables, 1),
});
