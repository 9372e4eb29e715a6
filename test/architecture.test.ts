// Keeps DESIGN.md §3 true: module dependency direction and one home per third-party library.
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { join, relative, dirname } from "node:path";

const SRC = join(import.meta.dir, "..", "src");
const files = [...new Glob("**/*.ts").scanSync(SRC)].filter((f) => !f.endsWith(".d.ts"));

interface Import {
  from: string;
  spec: string;
  typeOnly: boolean;
}
const imports: Import[] = files.flatMap((f) => {
  const text = require("node:fs").readFileSync(join(SRC, f), "utf8") as string;
  const out: Import[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s+["']([^"']+)["']/gm))
    out.push({ from: f, spec: m[3]!, typeOnly: !!m[2] });
  for (const m of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g))
    out.push({ from: f, spec: m[1]!, typeOnly: false });
  return out;
});

/** Resolves "~/x/y" and "./y" to the top-level module ("x") inside src, or null for packages. */
function moduleOf(i: Import): string | null {
  let target: string;
  if (i.spec.startsWith("~/")) target = i.spec.slice(2);
  else if (i.spec.startsWith(".")) target = relative(SRC, join(SRC, dirname(i.from), i.spec));
  else return null;
  return target.includes("/") ? target.split("/")[0]! : target.replace(/\.ts$/, "");
}
const moduleOfFile = (f: string) => (f.includes("/") ? f.split("/")[0]! : f.replace(/\.ts$/, ""));

const FORBIDDEN: Record<string, string[]> = {
  shared: [
    "config",
    "store",
    "search",
    "graph",
    "governance",
    "memory",
    "layers",
    "sessions",
    "facts",
    "identity",
    "http",
    "mcp",
    "sdk",
    "cli",
    "main",
    "app",
    "services",
  ],
  config: [
    "store",
    "search",
    "graph",
    "governance",
    "memory",
    "layers",
    "sessions",
    "facts",
    "identity",
    "http",
    "mcp",
    "sdk",
    "cli",
    "main",
    "app",
    "services",
  ],
  store: [
    "config",
    "search",
    "graph",
    "governance",
    "memory",
    "layers",
    "sessions",
    "facts",
    "identity",
    "http",
    "mcp",
    "sdk",
    "cli",
    "main",
    "app",
    "services",
  ],
  search: [
    "config",
    "graph",
    "governance",
    "memory",
    "layers",
    "sessions",
    "facts",
    "identity",
    "http",
    "mcp",
    "sdk",
    "cli",
    "main",
    "app",
    "services",
  ],
  graph: [
    "config",
    "search",
    "governance",
    "memory",
    "layers",
    "sessions",
    "facts",
    "identity",
    "http",
    "mcp",
    "sdk",
    "cli",
    "main",
    "app",
    "services",
  ],
  governance: ["http", "mcp", "sdk", "cli", "main", "app"],
  memory: ["http", "mcp", "sdk", "cli", "main", "app"],
  layers: ["http", "mcp", "sdk", "cli", "main", "app"],
  sessions: ["http", "mcp", "sdk", "cli", "main", "app"],
  facts: ["http", "mcp", "sdk", "cli", "main", "app"],
  identity: ["http", "mcp", "sdk", "cli", "main", "app"],
  http: ["store", "mcp", "cli", "main"],
  mcp: ["store", "http", "cli", "main"],
};

const ONE_HOME: Record<string, (f: string) => boolean> = {
  "bun:sqlite": (f) => f === "store/sqlite/connection.ts",
  "sqlite-vec": (f) => f === "store/sqlite/connection.ts",
  "neo4j-driver": (f) => f === "graph/neo4j-graph.ts",
  "@huggingface/transformers": (f) => f === "search/transformers-embedder.ts",
  elysia: (f) => f.startsWith("http/") || f === "app.ts",
  "swagger-ui-dist": (f) => f === "http/docs-page.ts",
  "@modelcontextprotocol/sdk": (f) => f.startsWith("mcp/"),
};

describe("architecture (DESIGN.md §3)", () => {
  test("source files were found", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  test("modules import only in the allowed direction", () => {
    const violations = imports.flatMap((i) => {
      const from = moduleOfFile(i.from);
      const to = moduleOf(i);
      if (!to || to === from) return [];
      // search and graph use the store's interface (store/store.ts), never an engine.
      if ((from === "search" || from === "graph") && to === "store" && i.typeOnly && i.spec.endsWith("store/store"))
        return [];
      return FORBIDDEN[from]?.includes(to) ? [`${i.from} imports ${i.spec}`] : [];
    });
    expect(violations).toEqual([]);
  });

  test("the governance rules stay pure: no store, no services, no I/O", () => {
    const pure = [
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
    const violations = imports.filter(
      (i) =>
        pure.includes(i.from) &&
        ((i.spec.startsWith("~/") && !i.spec.startsWith("~/shared/")) || /^(bun:|node:)/.test(i.spec)),
    );
    expect(violations.map((i) => `${i.from} imports ${i.spec}`)).toEqual([]);
  });

  test("each third-party library is imported in exactly one place", () => {
    const violations = imports.flatMap((i) => {
      const lib = Object.keys(ONE_HOME).find((l) => i.spec === l || i.spec.startsWith(`${l}/`));
      return lib && !ONE_HOME[lib]!(i.from) ? [`${i.from} imports ${i.spec}`] : [];
    });
    expect(violations).toEqual([]);
  });

  test("no source file names one platform's native package: each platform finds its own (SPEC §10)", () => {
    const named = imports.filter((i) => /^sqlite-vec-|^onnxruntime-node\/bin\//.test(i.spec));
    expect(named.map((i) => `${i.from} imports ${i.spec}`)).toEqual([]);
  });

  test("only the composition roots open an engine; the driver never leaves store/", () => {
    const violations = imports.filter(
      (i) =>
        /store\/sqlite/.test(i.spec) && !i.from.startsWith("store/") && !["main.ts", "rank-worker.ts"].includes(i.from),
    );
    expect(violations.map((i) => `${i.from} imports ${i.spec}`)).toEqual([]);
  });

  test("nothing reads the environment outside the config loader and the CLI", () => {
    const readers = files.filter((f) =>
      /process\.env\b|Bun\.env\b/.test(require("node:fs").readFileSync(join(SRC, f), "utf8")),
    );
    expect(readers.filter((f) => !["config/load-config.ts", "main.ts", "cli/index.ts"].includes(f))).toEqual([]);
  });
});
