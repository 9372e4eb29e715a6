// /health (never behind auth) and /metrics (JSON or Prometheus text).
import { router } from "./router";
import type { Services } from "~/services";
import { toPrometheus, type RequestMetrics } from "./metrics";
import { spec } from "./route-spec";
import { HealthResponse, MetricsResponse } from "./system.schema";

export const systemRoutes = (s: Services, metrics: RequestMetrics) =>
  router()
    .get(
      "/health",
      (): HealthResponse => {
        const search = s.search.status();
        const degraded = search.semantic === "failed";
        return {
          status: degraded ? "degraded" : "ok",
          version: s.version,
          search: {
            mode: search.mode,
            model: search.model,
            state: search.semantic,
            ...(search.error ? { error: search.error } : {}),
          },
        };
      },
      spec({
        tag: "system",
        summary: "Server health",
        description: "Never needs auth.",
        response: HealthResponse,
        open: true,
      }),
    )
    .get(
      "/metrics",
      ({ request }) => {
        const body = metricsBody(s, metrics);
        const accept = request.headers.get("accept") ?? "";
        if (/text\/plain/.test(accept) && !/application\/json/.test(accept))
          return new Response(prometheus(body), { headers: { "content-type": "text/plain; version=0.0.4" } });
        return body;
      },
      spec({
        tag: "system",
        summary: "Server statistics (JSON, or Prometheus text with Accept: text/plain)",
        response: MetricsResponse,
        text: {
          mediaType: "text/plain",
          description: "Prometheus text exposition format 0.0.4 (send Accept: text/plain)",
          example:
            "# HELP engram_uptime_seconds Seconds since start\n# TYPE engram_uptime_seconds gauge\nengram_uptime_seconds 3600.5\n",
        },
      }),
    );

function metricsBody(s: Services, m: RequestMetrics): MetricsResponse {
  const search = s.search.status();
  return {
    uptime: Number(m.uptimeSeconds.toFixed(3)),
    total_requests: m.total,
    requests_by_endpoint: m.byEndpoint,
    unique_users: s.memory.uniqueUsers,
    avg_response_time: Number(m.avgResponseMs.toFixed(3)),
    cache_hit_rate: Number(s.memory.cache.hitRate.toFixed(4)),
    responses_by_status: m.byStatus,
    search_mode: search.mode,
    embedding_model: search.model,
    embedding_state: search.semantic,
    query_embedding_cache: { hits: s.search.queryCacheHits, misses: s.search.queryCacheMisses },
    reembed: search.reembed,
    vector_erasures_pending: s.search.erasure.pending,
    search_workers: s.search.workers,
    memory_rss_bytes: process.memoryUsage().rss,
  };
}

function prometheus(b: ReturnType<typeof metricsBody>): string {
  return toPrometheus([
    { name: "engram_uptime_seconds", help: "Seconds since start", type: "gauge", values: [{ value: b.uptime }] },
    {
      name: "engram_requests_total",
      help: "Requests served",
      type: "counter",
      values: Object.entries(b.requests_by_endpoint).map(([endpoint, value]) => ({ labels: { endpoint }, value })),
    },
    {
      name: "engram_unique_users",
      help: "Distinct users seen since start",
      type: "gauge",
      values: [{ value: b.unique_users }],
    },
    {
      name: "engram_avg_response_time_ms",
      help: "Mean response time",
      type: "gauge",
      values: [{ value: b.avg_response_time }],
    },
    {
      name: "engram_search_cache_hit_rate",
      help: "Search cache hit fraction",
      type: "gauge",
      values: [{ value: b.cache_hit_rate }],
    },
    {
      name: "engram_semantic_search",
      help: "1 when semantic search is active",
      type: "gauge",
      values: [{ labels: { model: b.embedding_model ?? "none" }, value: b.search_mode === "hybrid" ? 1 : 0 }],
    },
    {
      name: "engram_reembed_pending",
      help: "Memories waiting to be re-embedded",
      type: "gauge",
      values: [{ value: b.reembed.pending }],
    },
    {
      name: "engram_search_workers",
      help: "Search worker threads running (0 = searches rank on the server thread)",
      type: "gauge",
      values: [{ value: b.search_workers }],
    },
    {
      name: "engram_vector_erasures_pending",
      help: "Vectors of deleted memories still to be erased",
      type: "gauge",
      values: [{ value: b.vector_erasures_pending }],
    },
    {
      name: "engram_resident_memory_bytes",
      help: "Resident set size",
      type: "gauge",
      values: [{ value: b.memory_rss_bytes }],
    },
  ]);
}
