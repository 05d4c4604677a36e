import { createHash } from 'node:crypto';

/**
 * RFC 8785 (JCS) canonical JSON: object keys sorted by UTF-16 code units, no whitespace,
 * numbers and strings as ECMAScript's JSON.stringify writes them (which JCS adopts). Anyone can
 * recompute an event hash from the event's JSON with any JCS implementation.
 */
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
      const keys = Object.keys(obj).sort();
      let out = '{';
      let first = true;
      for (const k of keys) {
        if (obj[k] === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(k)}:${canonicalJson(obj[k])}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot encode a ${typeof value}`);
  }
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export const hashOf = (value: unknown): string => sha256Hex(canonicalJson(value));
