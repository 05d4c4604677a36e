import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RefereeMetrics } from '../referee/index.js';
import type { GraphqlOperation } from './graphql-metrics.plugin.js';

type Labels = Record<string, string>;

/** Latency buckets in seconds, tuned for a referee answering in milliseconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Distinct GraphQL operation names given series of their own: the names are the clients' choice, later ones count as `other`. */
export const MAX_OPERATION_NAMES = 200;

const HELP: Readonly<Record<string, string>> = {
  arbiter_http_requests_total: 'HTTP requests by method, route and status',
  arbiter_http_request_duration_seconds: 'HTTP request latency',
  arbiter_graphql_operations_total: 'GraphQL operations over HTTP by operation name, type and outcome (ok, rejected, error)',
  arbiter_graphql_operation_duration_seconds: 'GraphQL operation latency over HTTP, by operation name and type',
  arbiter_moves_accepted_total: 'Moves accepted and stored, by game kind',
  arbiter_moves_rejected_total: 'Moves rejected, by game kind and code',
  arbiter_move_duration_seconds: 'Time to decide and durably store a move',
  arbiter_games_created_total: 'Games created, by kind',
  arbiter_live_games: 'Games held in memory (running and recently finished)',
  arbiter_commands_in_flight: 'Commands being decided or stored',
};

/**
 * Prometheus metrics (prom-client) at GET /metrics: the process' own (CPU, memory, heap, event
 * loop lag, GC), HTTP and GraphQL traffic, and what the referee reports through RefereeMetrics.
 * Metrics are created on first use, with the label names of that use.
 */
@Injectable()
export class MetricsService implements RefereeMetrics {
  /** One registry per service, not prom-client's global one: the tests run several services in one process. */
  readonly registry = new Registry();
  private readonly counters = new Map<string, Counter>();
  private readonly histograms = new Map<string, Histogram>();
  private readonly gauges = new Map<string, Gauge>();
  private readonly operationNames = new Set<string>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  inc(name: string, labels: Labels = {}, by = 1): void {
    let counter = this.counters.get(name);
    if (!counter) this.counters.set(name, (counter = new Counter({ name, help: HELP[name] ?? name, labelNames: Object.keys(labels), registers: [this.registry] })));
    counter.inc(labels, by);
  }

  observe(name: string, labels: Labels, seconds: number): void {
    let histogram = this.histograms.get(name);
    if (!histogram) {
      this.histograms.set(name, (histogram = new Histogram({ name, help: HELP[name] ?? name, labelNames: Object.keys(labels), buckets: BUCKETS, registers: [this.registry] })));
    }
    histogram.observe(labels, seconds);
  }

  /** One GraphQL operation answered over HTTP. */
  graphqlOperation({ operation, type, outcome }: GraphqlOperation, seconds: number): void {
    if (!this.operationNames.has(operation)) {
      if (this.operationNames.size < MAX_OPERATION_NAMES) this.operationNames.add(operation);
      else operation = 'other';
    }
    this.inc('arbiter_graphql_operations_total', { operation, type, outcome });
    this.observe('arbiter_graphql_operation_duration_seconds', { operation, type }, seconds);
  }

  /** Every metric in Prometheus' text format, with the gauges given (read at each scrape: `RefereeService.stats()`). */
  render(gauges: Record<string, number> = {}): Promise<string> {
    for (const [name, value] of Object.entries(gauges)) {
      let gauge = this.gauges.get(name);
      if (!gauge) this.gauges.set(name, (gauge = new Gauge({ name, help: HELP[name] ?? name, registers: [this.registry] })));
      gauge.set(value);
    }
    return this.registry.metrics();
  }
}
