import { Injectable } from '@nestjs/common';
import type { RefereeMetrics } from '../referee/application/metrics.port.js';

type Labels = Record<string, string>;

/** Latency buckets in seconds, tuned for a referee answering in milliseconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

class Histogram {
  readonly counts = new Array<number>(BUCKETS.length).fill(0);
  sum = 0;
  count = 0;
  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) this.counts[i]++;
  }
}

const key = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k].replace(/["\\\n]/g, '_')}"`)
    .join(',');

/** Counters and histograms rendered in Prometheus' text format at GET /metrics. */
@Injectable()
export class MetricsService implements RefereeMetrics {
  private readonly counters = new Map<string, Map<string, number>>();
  private readonly histograms = new Map<string, Map<string, Histogram>>();
  private readonly help = new Map<string, string>([
    ['arbiter_http_requests_total', 'HTTP requests by method, route and status'],
    ['arbiter_moves_accepted_total', 'Moves accepted and stored, by game kind'],
    ['arbiter_moves_rejected_total', 'Moves rejected, by game kind and code'],
    ['arbiter_move_duration_seconds', 'Time to decide and durably store a move'],
    ['arbiter_http_request_duration_seconds', 'HTTP request latency'],
    ['arbiter_games_created_total', 'Games created, by kind'],
  ]);

  inc(name: string, labels: Labels = {}, by = 1): void {
    let series = this.counters.get(name);
    if (!series) this.counters.set(name, (series = new Map()));
    const k = key(labels);
    series.set(k, (series.get(k) ?? 0) + by);
  }

  observe(name: string, labels: Labels, seconds: number): void {
    let series = this.histograms.get(name);
    if (!series) this.histograms.set(name, (series = new Map()));
    const k = key(labels);
    let h = series.get(k);
    if (!h) series.set(k, (h = new Histogram()));
    h.observe(seconds);
  }

  render(gauges: Record<string, number> = {}): string {
    const out: string[] = [];
    for (const [name, series] of this.counters) {
      out.push(`# HELP ${name} ${this.help.get(name) ?? name}`, `# TYPE ${name} counter`);
      for (const [k, v] of series) out.push(`${name}${k ? `{${k}}` : ''} ${v}`);
    }
    for (const [name, series] of this.histograms) {
      out.push(`# HELP ${name} ${this.help.get(name) ?? name}`, `# TYPE ${name} histogram`);
      for (const [k, h] of series) {
        const sep = k ? `${k},` : '';
        for (const [i, b] of BUCKETS.entries()) out.push(`${name}_bucket{${sep}le="${b}"} ${h.counts[i]}`);
        out.push(`${name}_bucket{${sep}le="+Inf"} ${h.count}`, `${name}_sum${k ? `{${k}}` : ''} ${h.sum}`, `${name}_count${k ? `{${k}}` : ''} ${h.count}`);
      }
    }
    for (const [name, v] of Object.entries(gauges)) out.push(`# TYPE ${name} gauge`, `${name} ${v}`);
    return `${out.join('\n')}\n`;
  }
}
