// Usage: bun scripts/bench-chart.ts [bench-results/bench-*.json …] [--out=docs/bench-search-latency.svg]
// Draws search p50/p95/p99 latency against store size from bench.ts result files, as an SVG.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

interface Result {
  memories: number;
  endpoints: { endpoint: string; p50: number; p95: number; p99: number }[];
}

const out = process.argv.find((a) => a.startsWith("--out="))?.slice(6) ?? "docs/bench-search-latency.svg";
const files = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const inputs = files.length
  ? files
  : readdirSync("bench-results")
      .filter((f) => /^bench-\d+\.json$/.test(f))
      .map((f) => join("bench-results", f));
const points = inputs
  .map((f) => JSON.parse(readFileSync(f, "utf8")) as Result)
  .map((r) => ({ n: r.memories, ...r.endpoints.find((e) => e.endpoint === "search")! }))
  .sort((a, b) => a.n - b.n);
if (!points.length) throw new Error("no bench results found; run bun run bench first");

const W = 640,
  H = 360,
  L = 60,
  R = 20,
  T = 30,
  B = 50;
const xs = points.map((p) => Math.log10(p.n));
const [x0, x1] = [Math.min(...xs) - 0.2, Math.max(...xs) + 0.2];
const yMax = Math.max(25, ...points.map((p) => p.p99)) * 1.1;
const X = (n: number) => L + ((Math.log10(n) - x0) / (x1 - x0)) * (W - L - R);
const Y = (ms: number) => H - B - (ms / yMax) * (H - T - B);
const line = (key: "p50" | "p95" | "p99", color: string) =>
  `<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.map((p) => `${X(p.n).toFixed(1)},${Y(p[key]).toFixed(1)}`).join(" ")}"/>` +
  points.map((p) => `<circle cx="${X(p.n).toFixed(1)}" cy="${Y(p[key]).toFixed(1)}" r="3" fill="${color}"/>`).join("");
const ticks = Array.from({ length: 6 }, (_, i) => (yMax / 5) * i);
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="${W / 2}" y="18" text-anchor="middle" font-size="14">search_memory latency vs store size (built-in model, hybrid)</text>
${ticks.map((t) => `<line x1="${L}" x2="${W - R}" y1="${Y(t)}" y2="${Y(t)}" stroke="#eee"/><text x="${L - 6}" y="${Y(t) + 4}" text-anchor="end">${t.toFixed(0)} ms</text>`).join("\n")}
${points.map((p) => `<text x="${X(p.n)}" y="${H - B + 18}" text-anchor="middle">${p.n.toLocaleString("en")}</text>`).join("\n")}
<text x="${W / 2}" y="${H - 10}" text-anchor="middle">memories in the store (log scale)</text>
<line x1="${L}" x2="${W - R}" y1="${Y(5)}" y2="${Y(5)}" stroke="#999" stroke-dasharray="4 3"/><text x="${W - R}" y="${Y(5) - 4}" text-anchor="end" fill="#666">p50 target 5 ms</text>
<line x1="${L}" x2="${W - R}" y1="${Y(25)}" y2="${Y(25)}" stroke="#999" stroke-dasharray="4 3"/><text x="${W - R}" y="${Y(25) - 4}" text-anchor="end" fill="#666">p99 target 25 ms</text>
${line("p50", "#1f77b4")}${line("p95", "#ff7f0e")}${line("p99", "#d62728")}
<text x="${L + 10}" y="${T + 14}" fill="#1f77b4">p50</text><text x="${L + 45}" y="${T + 14}" fill="#ff7f0e">p95</text><text x="${L + 80}" y="${T + 14}" fill="#d62728">p99</text>
</svg>
`;
writeFileSync(out, svg);
console.log(`wrote ${out} from ${points.length} result(s)`);
