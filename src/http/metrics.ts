// Request counters for GET /metrics: totals, per-endpoint counts and mean latency.

export class RequestMetrics {
  readonly startedAt = Date.now();
  total = 0;
  private totalMs = 0;
  readonly byEndpoint: Record<string, number> = {};
  readonly byStatus: Record<string, number> = {};

  record(endpoint: string, status: number, ms: number): void {
    this.total++;
    this.totalMs += ms;
    this.byEndpoint[endpoint] = (this.byEndpoint[endpoint] ?? 0) + 1;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }

  get uptimeSeconds(): number {
    return (Date.now() - this.startedAt) / 1000;
  }

  get avgResponseMs(): number {
    return this.total ? this.totalMs / this.total : 0;
  }
}

/** Renders flat numeric gauges/counters in the Prometheus text exposition format. */
export function toPrometheus(
  samples: {
    name: string;
    help: string;
    type: "gauge" | "counter";
    values: { labels?: Record<string, string>; value: number }[];
  }[],
): string {
  const esc = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
  const lines: string[] = [];
  for (const s of samples) {
    lines.push(`# HELP ${s.name} ${s.help}`, `# TYPE ${s.name} ${s.type}`);
    for (const v of s.values) {
      const labels = v.labels
        ? `{${Object.entries(v.labels)
            .map(([k, x]) => `${k}="${esc(x)}"`)
            .join(",")}}`
        : "";
      lines.push(`${s.name}${labels} ${Number.isFinite(v.value) ? v.value : 0}`);
    }
  }
  return lines.join("\n") + "\n";
}
