/** The `operations` routes: this document, health, readiness and metrics. */
import { json, type Paths, ref } from './builders.js';
import { freeObject } from './game-json.js';

export const operationPaths: Paths = {
  '/api/openapi.json': {
    get: {
      operationId: 'getOpenApi',
      summary: 'This document',
      tags: ['operations'],
      security: [],
      responses: { '200': { description: 'OpenAPI 3.1', content: json(freeObject('An OpenAPI 3.1 document')) }, '429': ref('responses', 'RateLimited') },
    },
  },
  '/healthz': {
    get: {
      operationId: 'health',
      summary: 'Liveness: 200 while the process serves',
      description: '503 `DATABASE_FAILED` only when the embedded database failed in a way only a restart recovers from. Not rate limited.',
      tags: ['operations'],
      security: [],
      responses: {
        '200': { description: 'Serving', content: json(ref('schemas', 'Health')) },
        '503': { description: 'Restart needed', content: json(ref('schemas', 'Health')) },
        '4XX': ref('responses', 'Unreadable'),
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'ready',
      summary: 'Readiness: 200 when requests can be served (point load balancers here)',
      tags: ['operations'],
      security: [],
      responses: {
        '200': { description: 'Ready', headers: { 'Cache-Control': { description: '`no-store`', schema: { type: 'string' } } }, content: json(ref('schemas', 'Readiness')) },
        '429': ref('responses', 'RateLimited'),
        '503': { description: 'Not ready, with a reason', headers: { 'Cache-Control': { description: '`no-store`', schema: { type: 'string' } } }, content: json(ref('schemas', 'Readiness')) },
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics (text exposition format 0.0.4). Not rate limited.',
      tags: ['operations'],
      security: [],
      responses: { '200': { description: 'The metrics', content: { 'text/plain': { schema: { type: 'string' } } } }, '4XX': ref('responses', 'Unreadable') },
    },
  },
};
