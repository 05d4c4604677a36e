import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

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
