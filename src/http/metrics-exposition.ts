// GET /metrics in the Prometheus text format: HTTP requests and durations, search and embedding
// durations, what the store holds, the search mode and model, the build, and the process.
import type { Services } from "~/services";
import type { RequestMetrics } from "./metrics";
import { processFamilies } from "./process-metrics";
import { toPrometheus, type Family } from "./prometheus";

const gauge = (name: string, help: string, value: number): Family => ({
  name,
  help,
  type: "gauge",
  samples: [{ value }],
});
const counter = (name: string, help: string, value: number): Family => ({
  name,
  help,
  type: "counter",
  samples: [{ value }],
});

function httpFamilies(m: RequestMetrics): Family[] {
  return [
    {
      name: "engram_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status",
      type: "counter",
      samples: m.requests.map((r) => ({
        labels: { method: r.method, route: r.route, status: r.status },
        value: r.count,
      })),
    },
    {
      name: "engram_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by method and route pattern",
      type: "histogram",
      series: m.durations.map((d) => ({
        labels: { method: d.method, route: d.route },
        histogram: d.histogram,
      })),
    },
  ];
}

function searchFamilies(s: Services): Family[] {
  const status = s.search.status();
  const t = s.search.timings;
  return [
    {
      name: "engram_search_duration_seconds",
      help: "Time to rank a search (query embedding included; answers from the search cache are not counted)",
      type: "histogram",
      series: [{ histogram: t.search }],
    },
    {
      name: "engram_embedding_duration_seconds",
      help: "Time of one embedding call: kind query (a search) or store (memories being written or re-embedded)",
      type: "histogram",
      series: [
        { labels: { kind: "query" }, histogram: t.embed.query },
        { labels: { kind: "store" }, histogram: t.embed.store },
      ],
    },
    {
      name: "engram_search_info",
      help: "Search mode (hybrid or keyword), embedding model and its state; always 1",
      type: "gauge",
      samples: [{ labels: { mode: status.mode, model: status.model ?? "none", state: status.semantic }, value: 1 }],
    },
    counter(
      "engram_query_embedding_cache_hits_total",
      "Query embeddings served from the cache",
      s.search.queryCacheHits,
    ),
    counter("engram_query_embedding_cache_misses_total", "Query embeddings computed", s.search.queryCacheMisses),
    gauge("engram_search_cache_hit_ratio", "Search result cache hits / lookups", s.memory.cache.hitRate),
    gauge(
      "engram_search_workers",
      "Search worker threads running (0 = searches rank on the server thread)",
      s.search.workers,
    ),
    gauge("engram_reembed_pending", "Memories waiting to be re-embedded for the current model", status.reembed.pending),
  ];
}

async function storeFamilies(s: Services): Promise<Family[]> {
  const inventory = await s.memory.inventory();
  return [
    gauge("engram_memories", "Memories in the store (expired ones until cleanup removes them)", inventory.memories),
    gauge("engram_users", "Users with at least one memory", inventory.users),
    gauge("engram_unique_users", "Distinct users seen by memory requests since start", s.memory.uniqueUsers),
    gauge(
      "engram_store_size_bytes",
      "Size of the store (SQLite: the main file's pages; the WAL is not counted)",
      inventory.storeBytes,
    ),
    gauge("engram_vector_erasures_pending", "Vectors of deleted memories still to be erased", s.search.erasure.pending),
  ];
}

export async function prometheusText(s: Services, m: RequestMetrics): Promise<string> {
  return toPrometheus([
    {
      name: "engram_build_info",
      help: "The running Engram's version; always 1",
      type: "gauge",
      samples: [{ labels: { version: s.version }, value: 1 }],
    },
    ...httpFamilies(m),
    ...searchFamilies(s),
    ...(await storeFamilies(s)),
    ...processFamilies(),
  ]);
}
