// The answers of /health and /metrics (JSON), written once for the routes, OpenAPI and the SDK.
import { Type, type Static } from "@sinclair/typebox";
import { example } from "~/shared/example";

const Mode = Type.Union([Type.Literal("hybrid"), Type.Literal("keyword")], {
  description: "hybrid (vectors + keywords) or keyword (no model)",
});
const State = Type.Union(
  [Type.Literal("off"), Type.Literal("loading"), Type.Literal("ready"), Type.Literal("failed")],
  {
    description: "State of the embedding model",
  },
);
const Model = Type.Union([Type.String(), Type.Null()], { description: "Embedding model id; null = none configured" });

export const HealthResponse = Type.Object(
  {
    status: Type.Union([Type.Literal("ok"), Type.Literal("degraded")], {
      description:
        "degraded: the configured model failed to load (search runs on keywords) or cannot be downloaded (the built-in model serves), or the store does not answer (requests that need it get 503 UNAVAILABLE)",
    }),
    version: Type.String(),
    store: Type.Object({
      kind: Type.Union([Type.Literal("sqlite"), Type.Literal("postgres")], {
        description: "sqlite (embedded file) or postgres (shared by every node; SPEC §9)",
      }),
      reachable: Type.Boolean({ description: "Whether the store answered just now" }),
    }),
    search: Type.Object({
      mode: Mode,
      model: Model,
      state: State,
      error: Type.Optional(Type.String({ description: "Why the model failed" })),
      vector_index: Type.String({
        description:
          "The vector index serving semantic search: sqlite-vec, or portable where SQLite cannot load it (macOS without Homebrew's SQLite)",
      }),
      download: Type.Optional(
        Type.Object(
          {
            model: Type.String(),
            state: Type.Union(
              ["downloading", "retrying", "loading", "done", "failed"].map((s) => Type.Literal(s)),
              {
                description:
                  "retrying: the hub could not be reached (tried again with growing pauses); failed: it never will be",
              },
            ),
            file: Type.Union([Type.String(), Type.Null()], { description: "The file being fetched" }),
            received: Type.Integer({ minimum: 0, description: "Bytes of that file on disk" }),
            total: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
              description: "Its size, when the hub said",
            }),
            attempts: Type.Integer({ minimum: 0 }),
            error: Type.Optional(Type.String()),
          },
          {
            description:
              "The configured model's background download (SPEC §4), when it was not in ENGRAM_MODELS_DIR: the built-in model serves meanwhile",
          },
        ),
      ),
    }),
  },
  example({
    status: "ok",
    version: "0.1.0",
    store: { kind: "sqlite", reachable: true },
    search: { mode: "hybrid", model: "engram/glove-sif", state: "ready", vector_index: "sqlite-vec" },
  }),
);
export type HealthResponse = Static<typeof HealthResponse>;

export const ReadyResponse = Type.Object({ ready: Type.Literal(true) }, example({ ready: true }));
export type ReadyResponse = Static<typeof ReadyResponse>;

export const MetricsResponse = Type.Object(
  {
    uptime: Type.Number({ description: "Seconds since start" }),
    total_requests: Type.Integer(),
    requests_by_endpoint: Type.Record(Type.String(), Type.Integer(), { description: "By route pattern" }),
    unique_users: Type.Integer(),
    avg_response_time: Type.Number({ description: "Mean response time, ms" }),
    cache_hit_rate: Type.Number({ minimum: 0, maximum: 1, description: "Search cache hits / lookups" }),
    responses_by_status: Type.Record(Type.String(), Type.Integer(), { description: "By HTTP status" }),
    search_mode: Mode,
    embedding_model: Model,
    embedding_state: State,
    query_embedding_cache: Type.Object({ hits: Type.Integer(), misses: Type.Integer() }),
    reembed: Type.Object({ pending: Type.Integer(), done: Type.Integer() }, { description: "Re-embedding progress" }),
    vector_erasures_pending: Type.Integer(),
    search_workers: Type.Integer({ description: "Search worker threads running" }),
    memory_rss_bytes: Type.Integer(),
  },
  {
    description: "The seed's fields first (uptime … cache_hit_rate), then Engram's own.",
    ...example({
      uptime: 3600.5,
      total_requests: 1250,
      requests_by_endpoint: { "/add_memories": 400, "/search_memory": 850 },
      unique_users: 12,
      avg_response_time: 3.2,
      cache_hit_rate: 0.31,
      responses_by_status: { "200": 1240, "400": 10 },
      search_mode: "hybrid",
      embedding_model: "engram/glove-sif",
      embedding_state: "ready",
      query_embedding_cache: { hits: 300, misses: 550 },
      reembed: { pending: 0, done: 0 },
      vector_erasures_pending: 0,
      search_workers: 2,
      memory_rss_bytes: 157286400,
    }),
  },
);
export type MetricsResponse = Static<typeof MetricsResponse>;
