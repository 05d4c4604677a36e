import { Global, Module } from '@nestjs/common';
import { MetricsService } from '../ops/metrics.service.js';
import { EngineRegistry } from './engine-registry.js';
import { EventStore } from './event-store.js';
import { RefereeService } from './referee.service.js';

/** The generic referee core; game modules register their engines with its registry. */
@Global()
@Module({
  providers: [EngineRegistry, EventStore, RefereeService, MetricsService],
  exports: [EngineRegistry, RefereeService, EventStore, MetricsService],
})
export class RefereeModule {}
