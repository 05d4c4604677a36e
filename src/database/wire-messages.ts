/**
 * The bytes of the PostgreSQL wire protocol's few messages the embedded database's bridge writes
 * or reads itself (the protocol's own layout: a type byte, a 32-bit length, the body).
 */

export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;
export const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

export function query(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const head = Buffer.alloc(5);
  head[0] = 0x51; // Q
  head.writeInt32BE(text.length + 4, 1);
  return Buffer.concat([head, text]);
}

export function readyForQuery(status: 'I' | 'T' | 'E'): Buffer {
  return Buffer.from([0x5a, 0, 0, 0, 5, status.charCodeAt(0)]);
}

export function errorResponse(severity: string, code: string, message: string): Buffer {
  const fields = Buffer.concat(
    [
      ['S', severity],
      ['V', severity],
      ['C', code],
      ['M', message],
    ].map(([k, v]) => Buffer.from(`${k}${v}\0`, 'utf8')),
  );
  const head = Buffer.alloc(5);
  head[0] = 0x45; // E
  head.writeInt32BE(fields.length + 1 + 4, 1);
  return Buffer.concat([head, fields, Buffer.from([0])]);
}

/** An ErrorResponse's fields by their one-letter code (S severity, V severity, C SQLSTATE, M message). */
export function errorFields(body: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let at = 0; at < body.length && body[at] !== 0; ) {
    const key = String.fromCharCode(body[at]);
    const end = body.indexOf(0, at + 1);
    if (end < 0) break;
    fields[key] = body.toString('utf8', at + 1, end);
    at = end + 1;
  }
  return fields;
}

/** The first error in an answer, as text, or null. */
export function errorIn(out: Buffer): string | null {
  for (let at = 0; at + 5 <= out.length; ) {
    const end = at + 1 + out.readInt32BE(at + 1);
    if (end > out.length) break;
    if (out[at] === 0x45) {
      const f = errorFields(out.subarray(at + 5, end));
      return `${f.M ?? ''} (${f.C ?? ''})`;
    }
    at = end;
  }
  return null;
}
