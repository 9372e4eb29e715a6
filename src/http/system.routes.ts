// /health and /ready (never behind auth) and /metrics (JSON or Prometheus text).
import { router } from "./router";
import type { Services } from "~/services";
import type { RequestMetrics } from "./metrics";
import { prometheusText } from "./metrics-exposition";
import { PROMETHEUS_CONTENT_TYPE } from "./prometheus";
import { spec } from "./route-spec";
import { ACCESS } from "~/identity/access";
import { HealthResponse, MetricsResponse, ReadyResponse } from "./system.schema";
import { unavailable } from "~/shared/errors";

export const systemRoutes = (s: Services, metrics: RequestMetrics) =>
  router()
    .get(
      "/health",
      async (): Promise<HealthResponse> => {
        const search = s.search.status();
        const store = await s.storeStatus();
        // Also when the configured model cannot be downloaded (yet): the built-in model serves instead.
        const stuck = search.download?.state === "failed" || search.download?.state === "retrying";
        const degraded = search.semantic === "failed" || stuck || !store.reachable;
        return {
          status: degraded ? "degraded" : "ok",
          version: s.version,
          store,
          search: {
            mode: search.mode,
            model: search.model,
            state: search.semantic,
            ...(search.error ? { error: search.error } : {}),
            vector_index: search.vectorIndex,
            ...(search.download ? { download: search.download } : {}),
          },
        };
      },
      spec({
        tag: "system",
        summary: "Server health",
        description: "Never needs auth.",
        response: HealthResponse,
        access: ACCESS.public,
      }),
    )
    .get(
      "/ready",
      async (): Promise<ReadyResponse> => {
        // For load balancers: send traffic here only once the model has settled and the store answers.
        if (s.search.status().semantic === "loading") throw unavailable("the embedding model is still loading");
        if (!(await s.storeStatus()).reachable) throw unavailable("the store does not answer");
        return { ready: true };
      },
      spec({
        tag: "system",
        summary: "Whether this node should get traffic",
        description:
          "Never needs auth. 200 once the store's migrations are applied, the embedding model has loaded (or failed: search then runs on keywords) and the store answers; else 503 UNAVAILABLE saying which.",
        response: ReadyResponse,
        errors: ["UNAVAILABLE"],
        access: ACCESS.public,
      }),
    )
    .get(
      "/metrics",
      async ({ request }) => {
        // Prometheus asks for text/plain (or OpenMetrics, with text/plain as the fallback); anything else gets JSON.
        const accept = request.headers.get("accept") ?? "";
        if (/text\/plain/.test(accept) && !/application\/json/.test(accept))
          return new Response(await prometheusText(s, metrics), {
            headers: { "content-type": PROMETHEUS_CONTENT_TYPE },
          });
        return metricsBody(s, metrics);
      },
      spec({
        tag: "system",
        summary: "Server statistics (JSON, or Prometheus text with Accept: text/plain)",
        description: "Counts across the whole server: an admin key of the server's own organization (ENGRAM_ORG_ID).",
        response: MetricsResponse,
        access: ACCESS.operator,
        text: {
          mediaType: "text/plain",
          description:
            "Prometheus text exposition format 0.0.4 (send Accept: text/plain); docs/API.md lists the metrics",
          example:
            '# HELP engram_build_info The running Engram\'s version; always 1\n# TYPE engram_build_info gauge\nengram_build_info{version="0.1.0"} 1\n',
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
