import { type DynamicModule, Module, type Type } from '@nestjs/common';
import type { Engine } from '../../engines/kit/index.js';
import { EngineRegistry } from '../core/engine-registry.js';
import { EventStore } from '../store/event-store.js';
import { PostgresEventStore } from '../store/postgres-event-store.js';
import { RefereeMetrics } from './metrics.port.js';
import { RefereeService } from './referee.service.js';

/**
 * The generic referee over PostgreSQL, with the engines the application gives it; game modules
 * add their typed APIs. Metrics come in through RefereeMetrics, which the host provides.
 */
@Module({})
export class RefereeModule {
  static forRoot(options: { engines: readonly Engine<any, any, any>[]; metrics: Type<RefereeMetrics> }): DynamicModule {
    return {
      module: RefereeModule,
      global: true,
      providers: [
        { provide: EngineRegistry, useFactory: () => EngineRegistry.of(options.engines) },
        { provide: EventStore, useClass: PostgresEventStore },
        options.metrics,
        { provide: RefereeMetrics, useExisting: options.metrics },
        RefereeService,
      ],
      exports: [EngineRegistry, RefereeService, EventStore, options.metrics, RefereeMetrics],
    };
  }
}
