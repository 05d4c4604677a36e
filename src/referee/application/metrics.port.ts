type Labels = Record<string, string>;

/** What the referee reports; ops implements it (Prometheus). */
export abstract class RefereeMetrics {
  abstract inc(name: string, labels?: Labels, by?: number): void;
  abstract observe(name: string, labels: Labels, seconds: number): void;
}
