import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { RefereeError } from '../referee/index.js';

/**
 * Takes the response over from Fastify for newline-delimited JSON written line by line as it is
 * read (a long game's events, a followed game): the status and the headers set so far (request
 * id, CORS) go out now, with `headers`.
 */
export function ndjsonResponse(reply: FastifyReply, headers: Record<string, string> = {}): ServerResponse {
  reply.hijack();
  reply.raw.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': 'application/x-ndjson', ...headers });
  return reply.raw;
}

/** An empty line this often keeps idle proxies from closing a followed stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * Answers `lines` as newline-delimited JSON kept open: each line written as it comes (waiting
 * while the client reads slowly), an empty line every 15 s while none does, until `lines` ends
 * or the client goes away (which completes `lines`). A failure after the status was sent is the
 * answer's last line: `{ error: { code, message } }`.
 */
export async function followedNdjson(reply: FastifyReply, lines: AsyncIterableIterator<unknown>): Promise<void> {
  const res = ndjsonResponse(reply, { 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  const gone = () => void lines.return?.();
  res.on('close', gone);
  const keepAlive = setInterval(() => res.write('\n'), KEEP_ALIVE_MS);
  try {
    for await (const line of lines)
      if (!res.write(`${JSON.stringify(line)}\n`))
        await new Promise((r) => {
          res.once('drain', r);
          res.once('close', r);
        });
  } catch (err) {
    const { code, message } = err instanceof RefereeError ? err : { code: 'INTERNAL', message: 'the stream failed' };
    res.write(`${JSON.stringify({ error: { code, message } })}\n`);
  } finally {
    clearInterval(keepAlive);
    res.off('close', gone);
    res.end();
  }
}
