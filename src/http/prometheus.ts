// The Prometheus text exposition format (0.0.4): metric families of gauges, counters and histograms,
// with label values escaped and histogram buckets made cumulative. `promtool check metrics` accepts
// the output (test/http/metrics.test.ts runs it).
import type { Histogram } from "~/shared/histogram";

export type Labels = Record<string, string>;
export type Family =
  | { name: string; help: string; type: "gauge" | "counter"; samples: { labels?: Labels; value: number }[] }
  | { name: string; help: string; type: "histogram"; series: { labels?: Labels; histogram: Histogram }[] };

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const escape = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const labelText = (labels: Labels | undefined) => {
  const pairs = Object.entries(labels ?? {});
  return pairs.length ? `{${pairs.map(([k, v]) => `${k}="${escape(v)}"`).join(",")}}` : "";
};
const number = (v: number) =>
  Number.isNaN(v) ? "NaN" : v === Infinity ? "+Inf" : v === -Infinity ? "-Inf" : String(v);

function histogramLines(name: string, labels: Labels | undefined, h: Histogram): string[] {
  const lines: string[] = [];
  let cumulative = 0;
  h.bounds.forEach((bound, i) => {
    cumulative += h.counts[i]!;
    lines.push(`${name}_bucket${labelText({ ...labels, le: String(bound) })} ${cumulative}`);
  });
  lines.push(`${name}_bucket${labelText({ ...labels, le: "+Inf" })} ${h.count}`);
  lines.push(`${name}_sum${labelText(labels)} ${number(h.sum)}`, `${name}_count${labelText(labels)} ${h.count}`);
  return lines;
}

export function toPrometheus(families: Family[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${f.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`, `# TYPE ${f.name} ${f.type}`);
    if (f.type === "histogram") for (const s of f.series) lines.push(...histogramLines(f.name, s.labels, s.histogram));
    else for (const s of f.samples) lines.push(`${f.name}${labelText(s.labels)} ${number(s.value)}`);
  }
  return `${lines.join("\n")}\n`;
}
