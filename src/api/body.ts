import type { FastifyInstance } from 'fastify';

/**
 * Request bodies, read within MAX_BODY_BYTES (Fastify's `bodyLimit`) and parsed as the service
 * always has (body-parser's rules): JSON must be an object or an array, an empty JSON body is `{}`
 * and `__proto__` is an ordinary key (Fastify's own parser would refuse it); a record's text
 * comes whatever the client calls it (curl sends form encoding unless told otherwise); a body of
 * any other type is read and left out, for the handler to say what it wanted.
 */
export function bodyParsers(fastify: FastifyInstance, maxBodyBytes: number): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: maxBodyBytes }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    if (text[0] !== '{' && text[0] !== '[') return done(new BodyError(400, notObjectOrArray(text)));
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(new BodyError(400, (err as Error).message));
    }
  });
  const text = { parseAs: 'string', bodyLimit: maxBodyBytes } as const;
  const asText = (_req: unknown, body: string | Buffer, done: (err: null, body: string | Buffer) => void) => done(null, body);
  fastify.addContentTypeParser(/^text\//, text, asText);
  fastify.addContentTypeParser(['application/octet-stream', 'application/x-www-form-urlencoded'], text, asText);
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBodyBytes }, (_req, _body, done) => done(null, undefined));
}

/** body-parser's words for JSON that is not an object or an array: JSON.parse's own, about its first character. */
function notObjectOrArray(text: string): string {
  try {
    JSON.parse(`#${text.slice(1)}`);
  } catch (err) {
    return (err as Error).message.replace("'#'", `'${text[0]}'`).replace('"#', `"${text[0]}`);
  }
  return 'a JSON body must be an object or an array';
}

/** A body that could not be read or parsed. */
export class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What a body failure answers, or null if `err` is none: ours, or one of Fastify's while it
 * reads the body (FST_ERR_CTP_*: too large, a wrong Content-Length, a bad charset), which Nest
 * hands over as the cause of an HttpException.
 */
export function bodyFailure(err: unknown, maxBodyBytes: number): { code: string; message: string; status: number } | null {
  const fastify = [err, (err as { cause?: unknown } | null)?.cause].find(isFastifyBodyError);
  const status = err instanceof BodyError ? err.status : fastify ? fastify.statusCode : null;
  if (status === null) return null;
  if (status === 413) return { code: 'PAYLOAD_TOO_LARGE', message: `the request body is larger than ${maxBodyBytes} bytes`, status };
  return { code: 'INVALID_INPUT', message: `the request body is not valid: ${((fastify ?? err) as Error).message}`, status };
}

function isFastifyBodyError(err: unknown): err is Error & { statusCode: number } {
  if (typeof err !== 'object' || err === null) return false;
  const { code, statusCode } = err as { code?: unknown; statusCode?: unknown };
  return typeof code === 'string' && code.startsWith('FST_ERR_CTP_') && typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500;
}
