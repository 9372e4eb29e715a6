// The settings of SPEC §1.1, written once: names, env vars, flags, defaults and descriptions
// drive the loader, validation and `engram --help`.
import { LOG_LEVELS, type LogLevel } from "~/shared/logger";

export interface Config {
  storeUrl: string;
  /** Resolved from storeUrl: a file path or ":memory:". */
  storePath: string;
  port: number;
  host: string;
  logLevel: LogLevel;
  auth: { enabled: boolean; apiKeys: string[] };
  allowRemoteUnauthenticated: boolean;
  cors: { enabled: boolean; origins: string[] };
  logging: { enabled: boolean; verbose: boolean; logFile?: string };
  embedding: { model: string; apiKey?: string; baseUrl?: string; remoteModel?: string };
  modelsDir: string;
  cacheDir: string;
  factExtraction: { enabled: boolean; autoExtract: boolean; minConfidence: number };
  graph: { enabled: boolean; uri?: string; user?: string; password?: string };
  /** An OpenAI-compatible chat endpoint for entity extraction; the rule-based extractor otherwise (and as fallback). */
  extractor: { baseUrl?: string; apiKey?: string; model: string };
  orgId: string;
  maxBodyBytes: number;
  /** Threads that rank searches beside the server thread (src/search/rank-pool.ts); 0 = on the server thread. */
  searchWorkers: number;
  userId?: string;
}

type Kind = "string" | "int" | "bool" | "float" | "enum" | "list";

export interface SettingDef {
  key: string;
  env?: string;
  flag?: string;
  kind: Kind;
  values?: readonly string[];
  min?: number;
  max?: number;
  description: string;
}

/** Flat setting table; `key` is a dotted path into Config. */
export const SETTINGS: SettingDef[] = [
  {
    key: "storeUrl",
    env: "STORE_URL",
    flag: "store-url",
    kind: "string",
    description:
      "Backing store: sqlite:///abs.db, sqlite://rel.db, sqlite::memory:, file:path or a bare path (default: sqlite://$XDG_DATA_HOME/engram/engram.db)",
  },
  {
    key: "port",
    env: "MCP_PORT",
    flag: "port",
    kind: "int",
    min: 0,
    max: 65535,
    description: "Listen port; 0 picks a free port (default 3000)",
  },
  { key: "host", env: "MCP_HOST", flag: "host", kind: "string", description: "Bind address (default 127.0.0.1)" },
  {
    key: "logLevel",
    env: "MCP_LOG_LEVEL",
    flag: "log-level",
    kind: "enum",
    values: LOG_LEVELS,
    description: "debug | info | warn | error (default info)",
  },
  {
    key: "auth.enabled",
    env: "MCP_AUTH_ENABLED",
    flag: "auth",
    kind: "bool",
    description: "Require Authorization: Bearer <key> on every route but /health",
  },
  {
    key: "auth.apiKeys",
    env: "MCP_API_KEY",
    flag: "api-key",
    kind: "list",
    description: "API key(s), comma-separated; required with --auth",
  },
  {
    key: "allowRemoteUnauthenticated",
    flag: "allow-remote-unauthenticated",
    kind: "bool",
    description: "Allow a non-loopback --host without --auth",
  },
  {
    key: "embedding.model",
    env: "EMBEDDING_MODEL",
    flag: "embedding-model",
    kind: "string",
    description: "Local transformers.js model id or folder; 'none' = keyword search only (default engram/glove-sif)",
  },
  {
    key: "embedding.apiKey",
    env: "EMBEDDING_API_KEY",
    kind: "string",
    description: "Key of a remote OpenAI-compatible embedding provider",
  },
  {
    key: "embedding.baseUrl",
    env: "EMBEDDING_BASE_URL",
    kind: "string",
    description: "Base URL of the remote embedding provider (default https://api.openai.com/v1)",
  },
  {
    key: "embedding.remoteModel",
    env: "EMBEDDING_REMOTE_MODEL",
    kind: "string",
    description: "Remote embedding model name (default text-embedding-3-small)",
  },
  {
    key: "modelsDir",
    env: "ENGRAM_MODELS_DIR",
    kind: "string",
    description: "Where local models are looked for (default $XDG_CACHE_HOME/engram/models)",
  },
  {
    key: "factExtraction.enabled",
    env: "MCP_EXTRACT_FACTS",
    kind: "bool",
    description: "Extract facts from added messages",
  },
  {
    key: "factExtraction.minConfidence",
    env: "MCP_FACT_MIN_CONFIDENCE",
    kind: "float",
    min: 0,
    max: 1,
    description: "Facts below this confidence are dropped (default 0.7)",
  },
  {
    key: "graph.enabled",
    env: "GRAPH_DB_ENABLED",
    kind: "bool",
    description: "Mirror the graph into Neo4j and traverse there",
  },
  { key: "graph.uri", env: "GRAPH_DB_URI", kind: "string", description: "Neo4j address (bolt:// or neo4j://)" },
  { key: "graph.user", env: "GRAPH_DB_USER", kind: "string", description: "Neo4j user" },
  { key: "graph.password", env: "GRAPH_DB_PASSWORD", kind: "string", description: "Neo4j password" },
  {
    key: "extractor.baseUrl",
    env: "EXTRACTOR_LLM_BASE_URL",
    kind: "string",
    description:
      "OpenAI-compatible endpoint for LLM entity extraction into the graph (rules are used without it, and when it fails)",
  },
  {
    key: "extractor.apiKey",
    env: "EXTRACTOR_LLM_API_KEY",
    kind: "string",
    description: "API key of the extraction endpoint",
  },
  {
    key: "extractor.model",
    env: "EXTRACTOR_LLM_MODEL",
    kind: "string",
    description: "Chat model for extraction (default gpt-4o-mini)",
  },
  {
    key: "orgId",
    env: "ENGRAM_ORG_ID",
    kind: "string",
    description: "Organization this store belongs to (default 'default')",
  },
  {
    key: "maxBodyBytes",
    env: "ENGRAM_MAX_BODY_BYTES",
    kind: "int",
    min: 1024,
    max: 1073741824,
    description: "Largest accepted request body; larger → 413 (default 1048576)",
  },
  {
    key: "searchWorkers",
    env: "ENGRAM_SEARCH_WORKERS",
    flag: "search-workers",
    kind: "int",
    min: 0,
    max: 64,
    description:
      "Threads that rank searches beside the server thread, each with its own read connection; 0 = rank on the server thread (default: one per core, up to 4)",
  },
  {
    key: "userId",
    env: "ENGRAM_USER_ID",
    flag: "user-id",
    kind: "string",
    description: "Default user_id for MCP tool calls that omit it",
  },
];
