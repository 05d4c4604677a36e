import { Global, Module } from '@nestjs/common';
import { MetricsService } from '../ops/metrics.service.js';
import { createRegistry } from '../games/engines.js';
import { EngineRegistry } from './engine-registry.js';
import { EventStore } from './event-store.js';
import { RefereeService } from './referee.service.js';

/** The generic referee core, with every shipped engine registered; game modules add their typed APIs. */
@Global()
@Module({
  providers: [{ provide: EngineRegistry, useFactory: createRegistry }, EventStore, RefereeService, MetricsService],
  exports: [EngineRegistry, RefereeService, EventStore, MetricsService],
})
export class RefereeModule {}
