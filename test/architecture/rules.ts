// The architecture rules of DESIGN.md §3 and docs/ARCHITECTURE.md as checks over source files: each takes the
// sources (path inside src/ → text) and returns its violations, one sentence each, so a fixture can break it.
import { allImports, moduleOf, stripComments, type Import, type Sources } from "./imports";

export interface Rule {
  name: string;
  check(sources: Sources): string[];
}

const SERVICES = ["governance", "memory", "layers", "sessions", "facts", "identity", "spaces"];
const EVERYTHING = ["shared", "config", "store", "search", "graph", ...SERVICES, "http", "mcp", "sdk", "cli"];
const TOP = ["main", "app", "services", "version", "client", "index", "rank-worker", "words-worker", "assets"];

/** What each module may import (besides itself). A module not listed here fails the first rule. */
export const MAY_IMPORT: Record<string, string[]> = {
  shared: [],
  config: ["shared"],
  store: ["shared"],
  search: ["shared", "store"],
  graph: ["shared", "store"],
  ...Object.fromEntries(SERVICES.map((s) => [s, ["shared", "store", "search", "graph", ...SERVICES]])),
  http: ["shared", "config", "search", "graph", ...SERVICES, "services", "version"],
  mcp: ["shared", "config", "search", "graph", ...SERVICES, "services", "version"],
  sdk: ["shared", "config", "search", "graph", ...SERVICES, "main", "version"],
  cli: [...EVERYTHING.filter((m) => m !== "store" && m !== "http"), ...TOP.filter((m) => m !== "cli")],
  main: [...EVERYTHING, ...TOP.filter((m) => m !== "main")],
  "rank-worker": ["shared", "search", "store"],
  "words-worker": ["search"],
  app: ["shared", "config", "http", "mcp", "services", "identity"],
  services: ["shared", "config", "search", "graph", ...SERVICES],
  client: ["shared", "config", "sdk", ...SERVICES],
  index: ["client", "main", "sdk"],
  version: ["<outside src>"],
  assets: [],
};

/** Files of governance that hold only rules: no store, no services, no I/O. */
export const PURE_GOVERNANCE = [
  "validate",
  "merge",
  "plan",
  "plan-summary",
  "templates",
  "durations",
  "retention-rules",
  "policy-checks",
  "policy.schema",
  "operations.schema",
].map((f) => `governance/${f}.ts`);

/** Third-party libraries and the one place each may be imported. */
export const ONE_HOME: Record<string, (f: string) => boolean> = {
  "bun:sqlite": (f) => f === "store/sqlite/connection.ts",
  "sqlite-vec": (f) => f === "store/sqlite/connection.ts",
  "neo4j-driver": (f) => f === "graph/neo4j-graph.ts",
  "@huggingface/transformers": (f) => f === "search/transformers-embedder.ts",
  elysia: (f) => f.startsWith("http/") || f === "app.ts",
  "swagger-ui-dist": (f) => f === "http/docs-page.ts",
  "@modelcontextprotocol/sdk": (f) => f.startsWith("mcp/"),
  jose: (f) => f === "identity/oidc.ts",
};

/** Libraries only some requests, settings or commands need: each is loaded by import() where it is used, not at start. */
export const LOADED_ON_USE = [
  "@modelcontextprotocol/sdk",
  "jose",
  "neo4j-driver",
  "@huggingface/transformers",
  "node:zlib",
];

/** The composition roots: the only files outside store/ that open an engine. */
const ROOTS = ["main.ts", "rank-worker.ts"];
const ENV_READERS = ["config/load-config.ts", "main.ts", "cli/index.ts"];

const said = (i: Import) => `${i.from} imports ${i.spec}${i.kind === "static" ? "" : ` (${i.kind})`}`;
/** The engine folder a path of store/ is in (store/<engine>/…); null for the interface and for other modules. */
const engineOf = (path: string | null) => {
  const folder = path && /^store\/([^/]+)\//.exec(path)?.[1];
  return folder && folder !== "repos" ? folder : null;
};

/** SQL statements as the code writes them (keywords in capitals); Cypher's `CREATE INDEX … FOR (n:Label)` names no table and is not one. */
const SQL =
  /\b(SELECT\s+[\s\S]{1,200}?\s+FROM\s+\w+|INSERT\s+(OR\s+\w+\s+)?INTO\s+\w+|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\s+\w+|CREATE\s+(UNIQUE\s+|VIRTUAL\s+)?(TABLE|INDEX\s+[\s\S]{1,80}?\bON\s+\w+\s*\(|TRIGGER|VIEW)|DROP\s+(TABLE|INDEX|TRIGGER)\b|ALTER\s+TABLE\b|PRAGMA\s+\w+|BEGIN\s+(IMMEDIATE|EXCLUSIVE|DEFERRED)\b|SAVEPOINT\s+\w+|WITH\s+RECURSIVE\b)/;

export const RULES: Rule[] = [
  {
    name: "every source file is in a module the rules know",
    check: (sources) =>
      [...sources.keys()].filter((f) => !(moduleOf(f) in MAY_IMPORT)).map((f) => `${f} is in no module with rules`),
  },
  {
    name: "each module imports only the modules it may (relative imports resolved)",
    check: (sources) =>
      allImports(sources).flatMap((i) => {
        if (!i.target) return [];
        const from = moduleOf(i.from);
        const to = moduleOf(i.target);
        return to === from || MAY_IMPORT[from]?.includes(to) ? [] : [said(i)];
      }),
  },
  {
    name: "outside store/, only the store's interface is imported, as types; only the composition roots open an engine",
    check: (sources) =>
      allImports(sources).flatMap((i) => {
        if (!i.target?.startsWith("store/") || i.from.startsWith("store/") || ROOTS.includes(i.from)) return [];
        const iface = i.target === "store/store.ts" || i.target.startsWith("store/repos/");
        return iface && i.typeOnly ? [] : [said(i)];
      }),
  },
  {
    name: "the store's interface names no engine, and no engine imports another",
    check: (sources) =>
      allImports(sources).flatMap((i) => {
        const to = engineOf(i.target);
        if (!to || !i.from.startsWith("store/")) return [];
        const from = engineOf(i.from);
        return from === to ? [] : [said(i)];
      }),
  },
  {
    name: "the governance rules stay pure: only shared/, each other and TypeBox; no Bun or Node module",
    check: (sources) =>
      allImports(sources).flatMap((i) => {
        if (!PURE_GOVERNANCE.includes(i.from)) return [];
        const ok = i.target
          ? i.target.startsWith("shared/") || PURE_GOVERNANCE.includes(i.target)
          : i.spec === "@sinclair/typebox";
        return ok ? [] : [said(i)];
      }),
  },
  {
    name: "each third-party library is imported in exactly one place (side-effect imports, import() and require() too)",
    check: (sources) =>
      allImports(sources).flatMap((i) => {
        const lib = Object.keys(ONE_HOME).find((l) => i.spec === l || i.spec.startsWith(`${l}/`));
        return lib && !ONE_HOME[lib]!(i.from) ? [said(i)] : [];
      }),
  },
  {
    name: "no source file names one platform's native package: each platform finds its own (SPEC §10)",
    check: (sources) =>
      allImports(sources)
        .filter((i) => /^sqlite-vec-|^onnxruntime-node\/bin\//.test(i.spec))
        .map(said),
  },
  {
    name: "the package's entry outside Bun (client.ts) reaches no Bun or Node module, engine or composition root",
    check: (sources) => reachableValueImports(sources, "client.ts").filter(bunOrServerOnly).map(said),
  },
  {
    name: "a server's start (cli/index.ts and what it imports; import() is not followed) loads no library only some requests need",
    check: (sources) =>
      reachableValueImports(sources, "cli/index.ts", false)
        .filter((i) => i.kind !== "dynamic" && LOADED_ON_USE.some((l) => i.spec === l || i.spec.startsWith(`${l}/`)))
        .map(said),
  },
  {
    name: "nothing reads the environment outside the config loader and the CLI",
    check: (sources) =>
      [...sources]
        .filter(([f, text]) => !ENV_READERS.includes(f) && /process\.env\b|Bun\.env\b/.test(stripComments(text)))
        .map(([f]) => `${f} reads the environment`),
  },
  {
    name: "every SQL statement is under store/",
    check: (sources) =>
      [...sources].flatMap(([f, text]) => {
        if (f.startsWith("store/")) return [];
        const m = SQL.exec(stripComments(text));
        return m ? [`${f} holds SQL: ${m[0].replace(/\s+/g, " ")}`] : [];
      }),
  },
];

const bunOrServerOnly = (i: Import) =>
  /^(bun:|node:|bun$)/.test(i.spec) ||
  (i.target !== null && (i.target.startsWith("store/") || i.target === "main.ts" || i.target === "app.ts"));

/**
 * Every value import of the files `entry` reaches through value imports (types are erased when bundled);
 * without `dynamic`, only what loads with `entry` itself: import() is neither followed nor listed.
 */
function reachableValueImports(sources: Sources, entry: string, dynamic = true): Import[] {
  const all = allImports(sources).filter((i) => !i.typeOnly && (dynamic || i.kind !== "dynamic"));
  const seen = new Set([entry]);
  const out: Import[] = [];
  for (const file of seen)
    for (const i of all.filter((x) => x.from === file)) {
      out.push(i);
      if (i.target && sources.has(i.target)) seen.add(i.target);
    }
  return out;
}
