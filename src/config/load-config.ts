// The only reader of the environment: merges programmatic options > flags > env > defaults,
// validates once, and throws ConfigError naming the setting and what it accepts.
import { isAbsolute, join, resolve } from "node:path";
import { availableParallelism, homedir } from "node:os";
import { SETTINGS, type Config, type SettingDef } from "./config.schema";

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** The seed's programmatic options (plus a few of ours). */
export interface ServerOptions {
  port?: number;
  host?: string;
  storeUrl?: string;
  logLevel?: Config["logLevel"];
  auth?: { enabled?: boolean; apiKey?: string | string[] };
  cors?: { enabled?: boolean; origins?: string[] };
  logging?: { enabled?: boolean; verbose?: boolean; logFile?: string };
  embedding?: { provider?: string; apiKey?: string; model?: string; baseUrl?: string };
  factExtraction?: { enabled?: boolean; autoExtract?: boolean; minConfidence?: number };
  modelsDir?: string;
  orgId?: string;
  maxBodyBytes?: number;
  searchWorkers?: number;
  userId?: string;
  allowRemoteUnauthenticated?: boolean;
}

type Env = Record<string, string | undefined>;

export function defaultStoreUrl(env: Env): string {
  const data = env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share");
  return `sqlite://${join(data, "engram", "engram.db")}`;
}

/** STORE_URL → file path or ":memory:" (SPEC §1.1). */
export function resolveStorePath(url: string): string {
  if (url === "sqlite::memory:" || url === ":memory:") return ":memory:";
  let path: string;
  if (url.startsWith("sqlite://")) path = url.slice("sqlite://".length);
  else if (url.startsWith("file:")) path = url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[a-z][a-z0-9+.-]+:/i.test(url))
    throw new ConfigError(
      `STORE_URL: unsupported scheme in '${url}'; use sqlite:///abs/path.db, sqlite://rel/path.db, sqlite::memory:, file:path or a bare path`,
    );
  else path = url;
  if (!path) throw new ConfigError("STORE_URL: empty path; use sqlite:///abs/path.db or a bare path");
  return isAbsolute(path) ? path : resolve(path);
}

function parseFlags(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    if (!arg.startsWith("--"))
      throw new ConfigError(`unexpected argument '${arg}'; flags look like --port=3000 (see --help)`);
    const eq = arg.indexOf("=");
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const def = SETTINGS.find((s) => s.flag === name);
    if (!def) throw new ConfigError(`unknown flag --${name} (see --help)`);
    if (eq < 0 && def.kind !== "bool") throw new ConfigError(`--${name} needs a value: --${name}=<${def.kind}>`);
    flags.set(def.key, eq < 0 ? "true" : arg.slice(eq + 1));
  }
  return flags;
}

function coerce(def: SettingDef, raw: string, source: string): unknown {
  const bad = (accepted: string) => new ConfigError(`${source}: invalid value '${raw}'; expected ${accepted}`);
  switch (def.kind) {
    case "string":
      return raw;
    case "list":
      return raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    case "bool":
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      throw bad("true or false");
    case "enum":
      if (def.values!.includes(raw)) return raw;
      throw bad(def.values!.join(", "));
    case "int":
    case "float": {
      const n = Number(raw);
      const ok = raw.trim() !== "" && Number.isFinite(n) && (def.kind === "float" || Number.isInteger(n));
      if (!ok || n < (def.min ?? -Infinity) || n > (def.max ?? Infinity))
        throw bad(`${def.kind === "int" ? "an integer" : "a number"} from ${def.min} to ${def.max}`);
      return n;
    }
  }
}

function setPath(obj: Record<string, any>, path: string, value: unknown): void {
  const keys = path.split(".");
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys.at(-1)!] = value;
}

function fromOptions(o: ServerOptions): Map<string, unknown> {
  const m = new Map<string, unknown>();
  const put = (k: string, v: unknown) => v !== undefined && m.set(k, v);
  put("port", o.port);
  put("host", o.host);
  put("storeUrl", o.storeUrl);
  put("logLevel", o.logLevel ?? (o.logging?.verbose ? "debug" : undefined));
  put("auth.enabled", o.auth?.enabled);
  const key = o.auth?.apiKey;
  put(
    "auth.apiKeys",
    typeof key === "string"
      ? key
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : key,
  );
  put("embedding.apiKey", o.embedding?.apiKey);
  put("embedding.baseUrl", o.embedding?.baseUrl);
  put("embedding.model", o.embedding?.model ?? (o.embedding?.provider === "none" ? "none" : undefined));
  put("factExtraction.enabled", o.factExtraction?.enabled);
  put("factExtraction.minConfidence", o.factExtraction?.minConfidence);
  put("factExtraction.autoExtract", o.factExtraction?.autoExtract);
  put("modelsDir", o.modelsDir);
  put("orgId", o.orgId);
  put("maxBodyBytes", o.maxBodyBytes);
  put("searchWorkers", o.searchWorkers);
  put("userId", o.userId);
  put("allowRemoteUnauthenticated", o.allowRemoteUnauthenticated);
  return m;
}

function defaults(env: Env): Config {
  const cacheBase = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return {
    storeUrl: defaultStoreUrl(env),
    storePath: "",
    port: 3000,
    host: "127.0.0.1",
    logLevel: "info",
    auth: { enabled: false, apiKeys: [] },
    allowRemoteUnauthenticated: false,
    cors: { enabled: false, origins: [] },
    logging: { enabled: true, verbose: false },
    embedding: { model: "engram/glove-sif" },
    modelsDir: join(cacheBase, "engram", "models"),
    cacheDir: join(cacheBase, "engram"),
    factExtraction: { enabled: false, autoExtract: true, minConfidence: 0.7 },
    graph: { enabled: false },
    extractor: { model: "gpt-4o-mini" },
    orgId: "default",
    maxBodyBytes: 1048576,
    // One per core, up to 4: each holds its own connection and page cache (A/B at 100k on 2 cores:
    // 0 → 650–730 searches/s, 1 → 680–770, 2 → 920–970).
    searchWorkers: Math.min(4, availableParallelism()),
  };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

function check(c: Config): void {
  if (c.auth.enabled && c.auth.apiKeys.length === 0)
    throw new ConfigError("MCP_API_KEY: required when auth is on; pass --api-key=<key> or set MCP_API_KEY");
  if (!LOOPBACK.test(c.host) && !c.auth.enabled && !c.allowRemoteUnauthenticated)
    throw new ConfigError(
      `MCP_HOST: refusing to listen on non-loopback '${c.host}' without auth; enable --auth or pass --allow-remote-unauthenticated`,
    );
  if (c.graph.enabled && !c.graph.uri)
    throw new ConfigError("GRAPH_DB_URI: required when GRAPH_DB_ENABLED is true (bolt:// or neo4j://)");
  if (c.extractor.baseUrl && !/^https?:\/\//.test(c.extractor.baseUrl))
    throw new ConfigError(`EXTRACTOR_LLM_BASE_URL: '${c.extractor.baseUrl}' must start with http:// or https://`);
  if (c.graph.uri && !/^(bolt|neo4j)(\+s|\+ssc)?:\/\//.test(c.graph.uri))
    throw new ConfigError(`GRAPH_DB_URI: '${c.graph.uri}' must start with bolt:// or neo4j://`);
}

export function loadConfig(input: { argv?: string[]; env?: Env; options?: ServerOptions } = {}): Config {
  const env = input.env ?? process.env;
  const config = defaults(env) as unknown as Record<string, any>;
  for (const def of SETTINGS) {
    const raw = def.env ? env[def.env] : undefined;
    if (raw !== undefined && raw !== "") setPath(config, def.key, coerce(def, raw, def.env!));
  }
  for (const [key, raw] of parseFlags(input.argv ?? [])) {
    const def = SETTINGS.find((s) => s.key === key)!;
    setPath(config, key, coerce(def, raw, `--${def.flag}`));
  }
  for (const [key, value] of fromOptions(input.options ?? {})) setPath(config, key, value);
  if (input.options?.cors)
    config.cors = { enabled: input.options.cors.enabled ?? true, origins: input.options.cors.origins ?? [] };
  if (input.options?.logging) Object.assign(config.logging, input.options.logging);
  const c = config as Config;
  c.storePath = resolveStorePath(c.storeUrl);
  check(c);
  return c;
}
