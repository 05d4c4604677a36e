import { Controller, Get, Header, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DatabaseService } from '../database/database.service.js';
import { EventStore } from '../referee/store/event-store.js';
import { RefereeService } from '../referee/application/referee.service.js';
import { MetricsService } from './metrics.service.js';

@Controller()
export class OpsController {
  constructor(
    private readonly db: DatabaseService,
    private readonly store: EventStore,
    private readonly metrics: MetricsService,
    private readonly referee: RefereeService,
  ) {}

  @Get('healthz')
  async health(@Res({ passthrough: true }) res: Response) {
    try {
      await this.store.ping();
      return { status: 'ok', database: this.db.description };
    } catch (err) {
      res.status(503);
      return { status: 'unavailable', database: this.db.description, error: (err as Error).message };
    }
  }

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4')
  render(): string {
    return this.metrics.render(this.referee.stats());
  }
}
