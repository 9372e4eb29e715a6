// The only reader of the environment: merges programmatic options > flags > env > defaults, every
// value through the same check of its setting (config/settings.ts), then the checks across settings.
// Throws ConfigError naming the setting and what it accepts.
import { isAbsolute, resolve, win32 } from "node:path";
import { availableParallelism, homedir } from "node:os";
import type { Config, DefaultsContext, ServerOptions, Settings } from "./config.schema";
import { parseRate } from "~/shared/rate";
import { ConfigError, SETTINGS, checked, fromText, settingOf, valueName, type Setting } from "./settings";

export { ConfigError };
export type { ServerOptions };

type Env = Record<string, string | undefined>;

const splitList = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** The seed's option names that set another setting: [option path, setting key, value → setting value or undefined]. */
const OPTION_ALIASES: [string, string, (v: unknown, source: string) => unknown][] = [
  ["auth.apiKey", "auth.apiKeys", (v, source) => (typeof v === "string" ? splitList(v) : checkedList(v, source))],
  ["embedding.provider", "embedding.model", (v) => (v === "none" ? "none" : undefined)],
  ["logging.verbose", "logLevel", (v, source) => (checkedBool(v, source) ? "debug" : undefined)],
];

function checkedList(v: unknown, source: string): unknown {
  if (Array.isArray(v) && v.every((k) => typeof k === "string")) return v;
  throw new ConfigError(`${source}: invalid value ${JSON.stringify(v)}; expected a string or an array of strings`);
}

function checkedBool(v: unknown, source: string): boolean {
  if (typeof v !== "boolean")
    throw new ConfigError(`${source}: invalid value ${JSON.stringify(v)}; expected true or false`);
  return v;
}

const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

/** A PostgreSQL URL that parses, returned without its password (what logs and the startup line may show). */
function checkedPostgresUrl(url: string, source: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ConfigError(
      `${source}: '${url.replace(/:[^:@/]*@/, ":***@")}' is not a valid URL; use postgres://user:pass@host:5432/db`,
    );
  }
  if (!isPostgresUrl(url)) throw new ConfigError(`${source}: must start with postgres:// or postgresql://`);
  if (!u.hostname || u.pathname.length < 2)
    throw new ConfigError(`${source}: name the host and the database: postgres://user:pass@host:5432/db`);
  if (u.password) u.password = "***";
  return u.toString();
}

/** STORE_URL → file path or ":memory:" (SPEC §1.1). */
export function resolveStorePath(url: string, platform: NodeJS.Platform = process.platform): string {
  if (url === "sqlite::memory:" || url === ":memory:") return ":memory:";
  let path: string;
  if (url.startsWith("sqlite://")) path = url.slice("sqlite://".length);
  else if (url.startsWith("file:")) path = url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[a-z][a-z0-9+.-]+:/i.test(url))
    throw new ConfigError(
      `STORE_URL: unsupported scheme in '${url}'; use sqlite:///abs/path.db, sqlite://rel/path.db, sqlite::memory:, file:path, a bare path or postgres://user:pass@host:5432/db`,
    );
  else path = url;
  if (!path) throw new ConfigError("STORE_URL: empty path; use sqlite:///abs/path.db or a bare path");
  if (platform !== "win32") return isAbsolute(path) ? path : resolve(path);
  // sqlite:///C:/data/engram.db names a Windows drive, not the folder "/C:".
  path = path.replace(/^\/(?=[a-z]:[\\/])/i, "");
  return win32.isAbsolute(path) ? path : win32.resolve(path);
}

function fromFlags(argv: string[], values: Map<string, unknown>): void {
  for (const arg of argv) {
    if (!arg.startsWith("--"))
      throw new ConfigError(`unexpected argument '${arg}'; flags look like --port=3000 (see --help)`);
    const eq = arg.indexOf("=");
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const s = SETTINGS.find((x) => x.flag === name);
    if (!s) throw new ConfigError(`unknown flag --${name} (see --help)`);
    const isBool = s.schema.type === "boolean";
    if (eq < 0 && !isBool) throw new ConfigError(`--${name} needs a value: --${name}=<${valueName(s)}>`);
    values.set(s.key, fromText(s, eq < 0 ? "true" : arg.slice(eq + 1), `--${name}`));
  }
}

/**
 * Walks the options object: each leaf is a setting (checked) or a seed alias; anything else is an
 * unknown option. A setting given by its own name wins over an alias for it (logLevel over logging.verbose).
 */
function fromOptions(options: object, values: Map<string, unknown>): void {
  const direct = new Map<string, unknown>();
  const aliased = new Map<string, unknown>();
  const visit = (o: object, prefix: string) => {
    for (const [name, value] of Object.entries(o)) {
      const path = prefix + name;
      if (value === undefined) continue;
      const s = settingOf(path);
      const alias = OPTION_ALIASES.find(([from]) => from === path);
      if (s) direct.set(s.key, checked(s, value, path));
      else if (alias) aliased.set(alias[1], alias[2](value, path));
      else if (value !== null && typeof value === "object" && !Array.isArray(value) && isGroup(path))
        visit(value, `${path}.`);
      else throw new ConfigError(`unknown option '${path}' (the settings are listed by --help)`);
    }
  };
  visit(options, "");
  for (const [key, value] of aliased) if (value !== undefined && !direct.has(key)) values.set(key, value);
  for (const [key, value] of direct) values.set(key, value);
}

const isGroup = (path: string) => SETTINGS.some((s) => s.key.startsWith(`${path}.`));

function build(values: Map<string, unknown>, ctx: DefaultsContext): Config {
  const config: Record<string, any> = {};
  for (const s of SETTINGS) {
    const value = values.has(s.key) ? values.get(s.key) : defaultOf(s, ctx);
    if (value === undefined) continue;
    const keys = s.key.split(".");
    let o = config;
    for (const k of keys.slice(0, -1)) o = o[k] ??= {};
    o[keys.at(-1)!] = structuredClone(value);
  }
  for (const s of SETTINGS) if (s.key.includes(".")) config[s.key.split(".")[0]!] ??= {};
  return config as Config;
}

const defaultOf = (s: Setting, ctx: DefaultsContext) => (s.computeDefault ? s.computeDefault(ctx) : s.default);

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/** Checks across settings. */
function check(c: Config): void {
  if (!LOOPBACK.test(c.host) && !c.auth.enabled && !c.allowRemoteUnauthenticated)
    throw new ConfigError(
      `MCP_HOST: refusing to listen on non-loopback '${c.host}' without auth; enable --auth or pass --allow-remote-unauthenticated`,
    );
  checkOidc(c);
  for (const [name, value] of [
    ["ENGRAM_RATE_LIMIT", c.rateLimit.requests],
    ["ENGRAM_AUTH_FAILURE_LIMIT", c.rateLimit.authFailures],
  ] as const)
    if (parseRate(value) === undefined)
      throw new ConfigError(`${name}: '${value}' is not a rate; use <count>/<s|m|h> such as 600/m, or off`);
  if (c.graph.enabled && !c.graph.uri)
    throw new ConfigError("GRAPH_DB_URI: required when GRAPH_DB_ENABLED is true (bolt:// or neo4j://)");
  if (c.extractor.baseUrl && !/^https?:\/\//.test(c.extractor.baseUrl))
    throw new ConfigError(`EXTRACTOR_LLM_BASE_URL: '${c.extractor.baseUrl}' must start with http:// or https://`);
  if (c.graph.uri && !/^(bolt|neo4j)(\+s|\+ssc)?:\/\//.test(c.graph.uri))
    throw new ConfigError(`GRAPH_DB_URI: '${c.graph.uri}' must start with bolt:// or neo4j://`);
}

function checkOidc(c: Config): void {
  const { issuer, audience } = c.oidc;
  if (!issuer) return;
  if (!/^https?:\/\/[^/]/.test(issuer))
    throw new ConfigError(`ENGRAM_OIDC_ISSUER: '${issuer}' must be an http:// or https:// URL`);
  if (audience.length === 0)
    throw new ConfigError(
      "ENGRAM_OIDC_AUDIENCE: required with ENGRAM_OIDC_ISSUER (the aud your issuer puts in tokens for Engram)",
    );
  if (!c.auth.enabled)
    throw new ConfigError(
      "ENGRAM_OIDC_ISSUER: tokens are checked only with auth on; pass --auth or set MCP_AUTH_ENABLED=true",
    );
}

export function loadConfig(input: { argv?: string[]; env?: Env; options?: ServerOptions } = {}): Config {
  const env = input.env ?? process.env;
  const values = new Map<string, unknown>();
  for (const s of SETTINGS) {
    const raw = s.env ? env[s.env] : undefined;
    if (raw !== undefined && raw !== "") values.set(s.key, fromText(s, raw, s.env!));
  }
  fromFlags(input.argv ?? [], values);
  fromOptions(input.options ?? {}, values);
  const c = build(values, { env, home: homedir(), cores: availableParallelism() });
  c.cors.enabled ??= c.cors.origins.length > 0;
  // Off for the trusted operator on a loopback bind (SPEC §8), on for a server others reach.
  const remote = !LOOPBACK.test(c.host);
  c.rateLimit.requests ??= remote ? "600/m" : "off";
  c.rateLimit.authFailures ??= remote ? "30/m" : "off";
  c.storeKind = isPostgresUrl(c.storeUrl) ? "postgres" : "sqlite";
  c.storePath = c.storeKind === "postgres" ? checkedPostgresUrl(c.storeUrl, "STORE_URL") : resolveStorePath(c.storeUrl);
  if (c.storeMigrationUrl) checkedPostgresUrl(c.storeMigrationUrl, "STORE_MIGRATION_URL");
  check(c);
  return c;
}
