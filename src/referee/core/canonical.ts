import { hash } from 'node:crypto';

/**
 * RFC 8785 (JCS) canonical JSON: object keys sorted by UTF-16 code units, no whitespace,
 * numbers and strings as ECMAScript's JSON.stringify writes them (which JCS adopts). Anyone can
 * recompute an event hash from the event's JSON with any JCS implementation.
 */
/** Member names recur in every event (type, action, chance, values...): quote each once. */
const quoted = new Map<string, string>();
function quotedKey(k: string): string {
  let q = quoted.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quoted.size < 10_000) quoted.set(k, q);
  }
  return q;
}

export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no representation for non-finite numbers');
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      // Plain loops and concatenation: this runs for every event of every move.
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + (value[i] === undefined ? 'null' : canonicalJson(value[i]));
        return `${out}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = sortedInPlace(Object.keys(obj));
      let out = '{';
      let first = true;
      for (const k of keys) {
        if (obj[k] === undefined) continue;
        out += `${first ? '' : ','}${quotedKey(k)}:${canonicalJson(obj[k])}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot encode a ${typeof value}`);
  }
}

/**
 * Member names in UTF-16 code unit order. Most objects here have a handful of members: an
 * insertion sort in place costs less than Array.prototype.sort, which first copies the array.
 */
function sortedInPlace(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > k; j--) keys[j + 1] = keys[j];
    keys[j + 1] = k;
  }
  return keys;
}

/** One-shot SHA-256 (no hash object per call: this runs for every event folded). */
export function sha256Hex(data: string | Buffer): string {
  return hash('sha256', data, 'hex');
}

/** Whether two number lists are equal, element by element (ranges, drawn values). */
export function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const hashOf = (value: unknown): string => sha256Hex(canonicalJson(value));
