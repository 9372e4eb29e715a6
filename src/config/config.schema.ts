// The settings of SPEC §1.1, written once as a TypeBox schema: each setting carries its default,
// description, environment variable and flag. The Config type, the loader's parsing and checks,
// the programmatic options and `engram --help` all derive from it (config/settings.ts walks it).
import { Type, type Static } from "@sinclair/typebox";
import { join } from "node:path";
import { LOG_LEVELS } from "~/shared/logger";
import { userDirs } from "~/shared/user-dirs";
import { ROLES } from "~/shared/principal";

/** Which vector index serves the semantic search (SPEC §10). */
export const VECTOR_INDEXES = ["auto", "sqlite-vec", "portable"] as const;

/** What the machine decides when a setting has no fixed default (XDG folders, cores). */
export interface DefaultsContext {
  env: Record<string, string | undefined>;
  home: string;
  cores: number;
}

/** Keywords of our own on a setting's schema (TypeBox keeps unknown options as they are). */
export interface SettingMeta {
  description: string;
  env?: string;
  flag?: string;
  /** A default that depends on the machine; `defaultText` says it in --help. */
  computeDefault?: (c: DefaultsContext) => unknown;
  defaultText?: string;
}

type Meta = SettingMeta & Record<string, unknown>;
const str = (meta: Meta) => Type.String({ minLength: 1, ...meta });
const optionalStr = (meta: Meta) => Type.Optional(str(meta));
const bool = (meta: Meta) => Type.Boolean(meta);
const list = (meta: SettingMeta & { default: string[] }) => Type.Array(Type.String({ minLength: 1 }), meta);

/** Per platform: XDG on Linux and macOS, %LOCALAPPDATA% on Windows (shared/user-dirs.ts). */
const dirs = (c: DefaultsContext) => userDirs(c.env, process.platform, c.home);

export const ConfigSchema = Type.Object({
  storeUrl: str({
    env: "STORE_URL",
    flag: "store-url",
    description:
      "Backing store: sqlite:///abs.db, sqlite://rel.db, sqlite::memory:, file:path, a bare path, or postgres://user:pass@host:5432/db[?schema=name] (PostgreSQL ≥ 15 with pgvector; docs/DEPLOY.md)",
    computeDefault: (c) => `sqlite://${join(dirs(c).data, "engram.db")}`,
    defaultText: "sqlite://$XDG_DATA_HOME/engram/engram.db; Windows: %LOCALAPPDATA%\\engram\\engram.db",
  }),
  storePoolSize: Type.Integer({
    env: "STORE_POOL_SIZE",
    flag: "store-pool-size",
    // One connection holds the lock of scheduled work (Store.exclusive) while the work uses another.
    minimum: 2,
    maximum: 1000,
    default: 10,
    description:
      "PostgreSQL only: connections this node keeps to the database (plus one that listens for other nodes' changes)",
  }),
  storeMigrationUrl: optionalStr({
    env: "STORE_MIGRATION_URL",
    flag: "store-migration-url",
    description:
      "PostgreSQL only: the schema owner's URL, used once at start-up to apply migrations (default: STORE_URL's role)",
  }),
  port: Type.Integer({
    env: "MCP_PORT",
    flag: "port",
    minimum: 0,
    maximum: 65535,
    default: 3000,
    description: "Listen port; 0 picks a free port",
  }),
  host: str({ env: "MCP_HOST", flag: "host", default: "127.0.0.1", description: "Bind address" }),
  logLevel: Type.Union(
    LOG_LEVELS.map((l) => Type.Literal(l)),
    { env: "MCP_LOG_LEVEL", flag: "log-level", default: "info", description: LOG_LEVELS.join(" | ") },
  ),
  logging: Type.Object({
    enabled: bool({ default: true, description: "Write log lines at all (false: none)" }),
    logFile: optionalStr({
      env: "ENGRAM_LOG_FILE",
      flag: "log-file",
      description: "Append log lines to this file instead of stderr",
    }),
  }),
  auth: Type.Object({
    enabled: bool({
      env: "MCP_AUTH_ENABLED",
      flag: "auth",
      default: false,
      description: "Require Authorization: Bearer <key> on every route but /health",
    }),
    apiKeys: list({
      env: "MCP_API_KEY",
      flag: "api-key",
      default: [],
      description: "API key(s), comma-separated; required with --auth",
    }),
  }),
  // SSO (SPEC §8): bearer tokens from an OIDC issuer, verified against its published keys (identity/oidc.ts).
  oidc: Type.Object({
    issuer: optionalStr({
      env: "ENGRAM_OIDC_ISSUER",
      flag: "oidc-issuer",
      description: "OIDC issuer URL: its JWT access/ID tokens are accepted as bearer tokens (keys found by discovery)",
    }),
    audience: list({
      env: "ENGRAM_OIDC_AUDIENCE",
      flag: "oidc-audience",
      default: [],
      description: "Accepted token audiences (aud), comma-separated; required with an issuer",
    }),
    orgClaim: str({
      env: "ENGRAM_OIDC_ORG_CLAIM",
      default: "org",
      description: "Claim naming the token's organization (a dotted path reaches nested claims)",
    }),
    userClaim: str({ env: "ENGRAM_OIDC_USER_CLAIM", default: "sub", description: "Claim naming the token's user" }),
    roleClaim: str({
      env: "ENGRAM_OIDC_ROLE_CLAIM",
      default: "roles",
      description:
        "Claim naming the role: admin, member or reader (a string, space-separated, or an array; e.g. realm_access.roles)",
    }),
    org: optionalStr({
      env: "ENGRAM_OIDC_ORG",
      description: "Organization of tokens without the org claim (unset: such tokens get 401)",
    }),
    defaultRole: Type.Optional(
      Type.Union(
        ROLES.map((r) => Type.Literal(r)),
        { env: "ENGRAM_OIDC_DEFAULT_ROLE", description: "Role of tokens whose role claim names none (unset: 403)" },
      ),
    ),
    clockSkewSeconds: Type.Integer({
      env: "ENGRAM_OIDC_CLOCK_SKEW",
      minimum: 0,
      maximum: 600,
      default: 60,
      description: "Seconds of clock difference with the issuer tolerated on exp and nbf",
    }),
  }),
  // SPEC §8: 429 RATE_LIMITED with Retry-After, counted in the store (shared by every process on it).
  rateLimit: Type.Object({
    requests: optionalStr({
      env: "ENGRAM_RATE_LIMIT",
      flag: "rate-limit",
      description: "Requests per key or token subject (per client address without auth): <count>/<s|m|h>, or off",
      defaultText: "off on a loopback bind, 600/m otherwise",
    }),
    authFailures: optionalStr({
      env: "ENGRAM_AUTH_FAILURE_LIMIT",
      flag: "auth-failure-limit",
      description: "Failed authentications per client address before its requests get 429: <count>/<s|m|h>, or off",
      defaultText: "off on a loopback bind, 30/m otherwise",
    }),
  }),
  allowRemoteUnauthenticated: bool({
    flag: "allow-remote-unauthenticated",
    default: false,
    description: "Allow a non-loopback --host without --auth",
  }),
  // DNS-rebinding protection (SPEC §7): what Host and Origin headers every route accepts besides the defaults.
  allowedHosts: list({
    env: "ENGRAM_ALLOWED_HOSTS",
    flag: "allowed-hosts",
    default: [],
    description:
      "Host names (any port) or host:port pairs accepted in the Host header besides localhost, 127.0.0.1, [::1] and the bind address; * = any",
  }),
  allowedOrigins: list({
    env: "ENGRAM_ALLOWED_ORIGINS",
    flag: "allowed-origins",
    default: [],
    description:
      "Origins accepted in the Origin header besides loopback ones, the CORS origins and the server's own; a port may be *",
  }),
  cors: Type.Object({
    origins: list({
      env: "ENGRAM_CORS_ORIGINS",
      flag: "cors-origins",
      default: [],
      description: "Origins allowed by CORS, comma-separated; a port may be * (http://localhost:*)",
    }),
    // Its default follows the origins (load-config.ts): given origins turn CORS on.
    enabled: Type.Optional(
      bool({ description: "Answer CORS requests from the allowed origins", defaultText: "on when origins are given" }),
    ),
  }),
  embedding: Type.Object({
    model: str({
      env: "EMBEDDING_MODEL",
      flag: "embedding-model",
      default: "engram/glove-sif",
      description: "Local transformers.js model id or folder; 'none' = keyword search only",
    }),
    apiKey: optionalStr({
      env: "EMBEDDING_API_KEY",
      description: "Key of a remote OpenAI-compatible embedding provider",
    }),
    baseUrl: optionalStr({
      env: "EMBEDDING_BASE_URL",
      description: "Base URL of the remote embedding provider (default https://api.openai.com/v1)",
    }),
    remoteModel: optionalStr({
      env: "EMBEDDING_REMOTE_MODEL",
      description: "Remote embedding model name (default text-embedding-3-small)",
    }),
  }),
  modelsDir: str({
    env: "ENGRAM_MODELS_DIR",
    description: "Where local models are looked for and pulled to",
    computeDefault: (c) => join(dirs(c).cache, "models"),
    defaultText: "$XDG_CACHE_HOME/engram/models; Windows: %LOCALAPPDATA%\\engram\\models",
  }),
  modelHub: str({
    env: "ENGRAM_MODEL_HUB",
    default: "https://huggingface.co",
    description:
      "Hub that `engram models pull` and a server missing its model download from (a mirror, or a local server)",
  }),
  cacheDir: str({
    description: "Where native files (sqlite-vec, ONNX Runtime) are unpacked",
    computeDefault: (c) => dirs(c).cache,
    defaultText: "$XDG_CACHE_HOME/engram; Windows: %LOCALAPPDATA%\\engram",
  }),
  factExtraction: Type.Object({
    enabled: bool({ env: "MCP_EXTRACT_FACTS", default: false, description: "Extract facts from added messages" }),
    autoExtract: bool({
      default: true,
      description: "Extract on every add with messages (false: only when a request asks)",
    }),
    minConfidence: Type.Number({
      env: "MCP_FACT_MIN_CONFIDENCE",
      minimum: 0,
      maximum: 1,
      default: 0.7,
      description: "Facts below this confidence are dropped",
    }),
  }),
  graph: Type.Object({
    enabled: bool({
      env: "GRAPH_DB_ENABLED",
      default: false,
      description: "Mirror the graph into Neo4j and traverse there",
    }),
    uri: optionalStr({ env: "GRAPH_DB_URI", description: "Neo4j address (bolt:// or neo4j://)" }),
    user: optionalStr({ env: "GRAPH_DB_USER", description: "Neo4j user" }),
    password: optionalStr({ env: "GRAPH_DB_PASSWORD", description: "Neo4j password" }),
  }),
  extractor: Type.Object({
    baseUrl: optionalStr({
      env: "EXTRACTOR_LLM_BASE_URL",
      description:
        "OpenAI-compatible endpoint for LLM entity extraction into the graph (rules are used without it, and when it fails)",
    }),
    apiKey: optionalStr({ env: "EXTRACTOR_LLM_API_KEY", description: "API key of the extraction endpoint" }),
    model: str({ env: "EXTRACTOR_LLM_MODEL", default: "gpt-4o-mini", description: "Chat model for extraction" }),
  }),
  orgId: str({ env: "ENGRAM_ORG_ID", default: "default", description: "Organization this store belongs to" }),
  maxBodyBytes: Type.Integer({
    env: "ENGRAM_MAX_BODY_BYTES",
    minimum: 1024,
    maximum: 1073741824,
    default: 1048576,
    description: "Largest accepted request body; larger → 413",
  }),
  searchWorkers: Type.Integer({
    env: "ENGRAM_SEARCH_WORKERS",
    flag: "search-workers",
    minimum: 0,
    maximum: 64,
    description:
      "Threads that rank searches beside the server thread, each with its own read connection; 0 = rank on the server thread",
    // One per core, up to 4: each holds its own connection and page cache (A/B at 100k on 2 cores:
    // 0 → 650–730 searches/s, 1 → 680–770, 2 → 920–970).
    computeDefault: (c: DefaultsContext) => Math.min(4, c.cores),
    defaultText: "one per core, up to 4",
  }),
  docs: bool({
    env: "ENGRAM_DOCS",
    flag: "docs",
    default: true,
    description: "Serve the API page /swagger and the OpenAPI document /swagger/json, without auth (off: both 404)",
  }),
  vectorIndex: Type.Union(
    VECTOR_INDEXES.map((v) => Type.Literal(v)),
    {
      env: "ENGRAM_VECTOR_INDEX",
      flag: "vector-index",
      default: "auto",
      description:
        "auto: sqlite-vec where SQLite loads it, else the portable index; sqlite-vec: refuse to start without it; portable: never load it",
    },
  ),
  sqliteLib: optionalStr({
    env: "ENGRAM_SQLITE_LIB",
    description:
      "macOS: a SQLite library that loads extensions, used instead of Apple's (default: Homebrew's libsqlite3 when installed)",
  }),
  userId: optionalStr({
    env: "ENGRAM_USER_ID",
    flag: "user-id",
    description: "Default user_id for MCP tool calls that omit it",
  }),
});

export type Settings = Static<typeof ConfigSchema>;

export interface Config extends Settings {
  /** Which engine storeUrl names. */
  storeKind: "sqlite" | "postgres";
  /** Resolved from storeUrl: a file path or ":memory:"; for PostgreSQL, the URL without its password (for display). */
  storePath: string;
  cors: { origins: string[]; enabled: boolean };
  /** Resolved: a rate (600/m) or "off". */
  rateLimit: { requests: string; authFailures: string };
}

type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

/**
 * Programmatic options: any setting by its path in Config, plus the seed's names for three of them
 * (`auth.apiKey`, `embedding.provider`, `logging.verbose`; see OPTION_ALIASES in load-config.ts).
 * Here, beside Settings, so the package's declarations of it need nothing of Node (scripts/build-lib.ts).
 */
export type ServerOptions = DeepPartial<Settings> & {
  auth?: { apiKey?: string | string[] };
  embedding?: { provider?: string };
  logging?: { verbose?: boolean };
};
