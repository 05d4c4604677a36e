import { Controller, Get, Header, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DatabaseService } from '../database/database.service.js';
import { RefereeService } from '../referee/index.js';
import { MetricsService } from './metrics.service.js';
import { Public } from '../api/scopes.js';

/**
 * Health for orchestrators and load balancers. Answers carry short, stable reason codes only:
 * never the database's own error text, nor a path.
 *
 * - `/healthz` (liveness): 200 while the process serves. 503 `DATABASE_FAILED` only when the
 *   embedded database failed in a way only a restart recovers from.
 * - `/readyz` (readiness): 200 when requests can be served: not draining for shutdown, the
 *   database answers, its latest migration is applied and it can store; else 503 with
 *   `DRAINING`, `STORAGE_UNAVAILABLE` (disk full), `DATABASE_UNAVAILABLE` or `MIGRATIONS_PENDING`.
 */
@Controller()
export class OpsController {
  constructor(
    private readonly db: DatabaseService,
    private readonly metrics: MetricsService,
    private readonly referee: RefereeService,
  ) {}

  @Public()
  @Get('healthz')
  health(@Res({ passthrough: true }) reply: FastifyReply) {
    if (this.db.failed) {
      reply.code(503);
      return { status: 'failed', reason: 'DATABASE_FAILED', database: this.db.kind };
    }
    return { status: 'ok', database: this.db.kind };
  }

  @Public()
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    reply.header('cache-control', 'no-store');
    if (this.referee.draining) {
      reply.code(503);
      return { status: 'unavailable', reason: 'DRAINING' };
    }
    const readiness = await this.db.readiness();
    if (!readiness.ready) {
      reply.code(503);
      return { status: 'unavailable', reason: readiness.reason };
    }
    return { status: 'ready' };
  }

  @Public()
  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  render(): Promise<string> {
    return this.metrics.render(this.referee.stats());
  }
}
