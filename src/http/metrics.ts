// What the HTTP layer counts for GET /metrics: the seed's totals (requests, per endpoint, mean time)
// and, for Prometheus, requests by method, route and status and a duration histogram per method and route.
import { Histogram } from "~/shared/histogram";

/** Methods beyond these are counted as "other": a label must not take any value a client sends. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]);

export class RequestMetrics {
  readonly startedAt = Date.now();
  total = 0;
  private totalMs = 0;
  readonly byEndpoint: Record<string, number> = {};
  readonly byStatus: Record<string, number> = {};
  /** By "method route status": the counter engram_http_requests_total. */
  readonly requests = new Map<string, { method: string; route: string; status: string; count: number }>();
  /** By "method route": the histogram engram_http_request_duration_seconds. */
  readonly durations = new Map<string, { method: string; route: string; histogram: Histogram }>();

  /** `route` is the matched route pattern (e.g. /memories/:id/versions), never the raw path. */
  record(method: string, route: string, status: number, ms: number): void {
    this.total++;
    this.totalMs += ms;
    this.byEndpoint[route] = (this.byEndpoint[route] ?? 0) + 1;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
    const m = METHODS.has(method) ? method : "other";
    const key = `${m} ${route} ${status}`;
    const r = this.requests.get(key) ?? { method: m, route, status: String(status), count: 0 };
    r.count++;
    this.requests.set(key, r);
    const d = this.durations.get(`${m} ${route}`) ?? { method: m, route, histogram: new Histogram() };
    d.histogram.observe(ms / 1000);
    this.durations.set(`${m} ${route}`, d);
  }

  get uptimeSeconds(): number {
    return (Date.now() - this.startedAt) / 1000;
  }

  get avgResponseMs(): number {
    return this.total ? this.totalMs / this.total : 0;
  }
}
