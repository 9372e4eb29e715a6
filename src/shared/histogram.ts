// A duration histogram with fixed upper bounds in seconds: per-bucket counts, sum and count, which is
// what a Prometheus histogram exposes (http/prometheus.ts renders it). Observing is O(buckets), no allocation.

/** From 0.5 ms (a cached search) to 10 s (a model load or a large re-embed batch). */
export const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Histogram {
  /** counts[i]: observations in (bounds[i-1], bounds[i]]; the last slot holds those above every bound. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(readonly bounds: readonly number[] = DURATION_BUCKETS) {
    this.counts = new Array(bounds.length + 1).fill(0);
  }

  observe(seconds: number): void {
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += seconds;
    this.count++;
  }

  /** Times `fn` (sync or async) into this histogram, also when it throws. */
  async time<T>(fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.observe((performance.now() - t0) / 1000);
    }
  }
}
