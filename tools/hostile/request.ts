/** What the hostile generator sends (tools/hostile.ts), and how its parts are written. */

export interface HostileRequest {
  /** The family of input, for the figures: "gql:submitAction", "rest:GET /api/games/:id", ... */
  family: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** GraphQL fields answering no union: the data keys (a field's name or alias) whose answer, when not null, is a change of state, and the field each is. */
  changes?: Record<string, string>;
}

/** One field of a GraphQL document, with what it needs from the rest of the request. */
export interface Field {
  op: 'query' | 'mutation' | 'subscription';
  name: string;
  /** The field with its arguments and selection, variables suffixed with `sfx`. */
  text: string;
  defs: string[];
  vars: Record<string, unknown>;
  /** The request's token, when the field is the document's only one. */
  token?: string;
  /** A mutation that changes state when it answers anything but null or a Rejection. */
  changes?: boolean;
}

/**
 * The request's token when another field of the same document fixes it (aliases: then a field's
 * poison is never the token alone), or null when the field chooses its own.
 */
export type HeaderToken = string | undefined | null;

/** A JSON text spliced into a request body as is (nesting too deep for JSON.stringify to write). */
export class Raw {
  constructor(readonly text: string) {}
}

/** JSON.stringify, with Raw values written verbatim and own "__proto__" keys kept. */
export function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `@@RAW${raws.length - 1}@@`;
    }
    return v;
  });
  return text.replace(/"@@RAW(\d+)@@"/g, (_m, i) => raws[Number(i)]);
}

/** An object with own (enumerable) keys, "__proto__" included, as JSON.parse would build it. */
export function ownObject(entries: [string, unknown][]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) setOwn(o, k, v);
  return o;
}

/** Sets an own enumerable key, "__proto__" included. */
export function setOwn(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Percent-encodes a path segment; a lone surrogate becomes the (invalid UTF-8) bytes of its code unit. */
export function encodeSegment(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff)
      out += `%${(0xe0 | (c >> 12)).toString(16).toUpperCase()}%${(0x80 | ((c >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** A GraphQL document POSTed as JSON. */
export const gql = (family: string, query: string, variables: Record<string, unknown> | undefined, token?: string, changes?: Record<string, string>): HostileRequest => ({
  family,
  method: 'POST',
  path: '/graphql',
  headers: { 'content-type': 'application/json', ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) },
  body: toJson({ query, ...(variables ? { variables } : {}) }),
  ...(changes && Object.keys(changes).length > 0 ? { changes } : {}),
});
