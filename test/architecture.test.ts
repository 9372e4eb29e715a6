// Keeps DESIGN.md §3 and docs/ARCHITECTURE.md true: every rule of test/architecture/rules.ts holds for src/,
// and each one is shown to fail on a small fixture that breaks it (a rule that cannot fail proves nothing).
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RULES, type Rule } from "./architecture/rules";
import type { Sources } from "./architecture/imports";

const SRC = join(import.meta.dir, "..", "src");
const sources: Sources = new Map(
  [...new Glob("**/*.ts").scanSync(SRC)].map((f) => [f, readFileSync(join(SRC, f), "utf8")]),
);

/** For each rule, files that break it and exactly what the rule must say about them. */
const BROKEN: Record<string, { files: Record<string, string>; says: string[] }> = {
  "every source file is in a module the rules know": {
    files: { "billing/invoice.ts": "export const x = 1;" },
    says: ["billing/invoice.ts is in no module with rules"],
  },
  "each module imports only the modules it may (relative imports resolved)": {
    files: {
      "search/ranker.ts": 'import { MemoryService } from "../memory/memory.service";',
      "memory/memory.service.ts": 'import { app } from "~/http/pipeline";',
      "sdk/http-client.ts": 'const m = await import("../mcp/server");',
      "cli/index.ts": 'import { route } from "../http/memory.routes";',
      "client.ts": 'export { buildServices } from "./main";',
      "shared/ids.ts": 'import "../config/settings";',
      "config/settings.ts": "export {};",
      "mcp/server.ts": "export {};",
      "http/pipeline.ts": "export {};",
      "http/memory.routes.ts": "export {};",
      "main.ts": "export {};",
    },
    says: [
      "search/ranker.ts imports ../memory/memory.service",
      "memory/memory.service.ts imports ~/http/pipeline",
      "sdk/http-client.ts imports ../mcp/server (dynamic)",
      "cli/index.ts imports ../http/memory.routes",
      "client.ts imports ./main",
      "shared/ids.ts imports ../config/settings (side-effect)",
    ],
  },
  "outside store/, only the store's interface is imported, as types; only the composition roots open an engine": {
    files: {
      "search/ranker.ts": 'import { Store } from "~/store/store";\nimport type { Repos } from "~/store/store";',
      "graph/embedded-graph.ts": 'import { type EntityRow, type Repos } from "../store/store";',
      "governance/erasure.ts": 'import type { Db } from "../store/sqlite/connection";',
      "cli/serve.ts": 'const { openSqliteStore } = require("../store/sqlite/sqlite-store");',
      "main.ts": 'import { openSqliteStore } from "./store/sqlite/sqlite-store";',
      "store/store.ts": "export {};",
      "store/sqlite/connection.ts": "export {};",
      "store/sqlite/sqlite-store.ts": "export {};",
    },
    says: [
      "search/ranker.ts imports ~/store/store",
      "governance/erasure.ts imports ../store/sqlite/connection",
      "cli/serve.ts imports ../store/sqlite/sqlite-store (require)",
    ],
  },
  "the store's interface names no engine, and no engine imports another": {
    files: {
      "store/store.ts":
        'import type { Db } from "./sqlite/connection";\nimport type { MemoryRepo } from "./repos/memory-repo";',
      "store/repos/memory-repo.ts": 'import type { Sql } from "../postgres/connection";',
      "store/postgres/memory-repo.ts":
        'import { ftsQuery } from "../sqlite/fts-query";\nimport type { MemoryRepo } from "../repos/memory-repo";',
      "store/sqlite/connection.ts": "export {};",
      "store/sqlite/fts-query.ts": "export {};",
      "store/postgres/connection.ts": "export {};",
    },
    says: [
      "store/store.ts imports ./sqlite/connection",
      "store/repos/memory-repo.ts imports ../postgres/connection",
      "store/postgres/memory-repo.ts imports ../sqlite/fts-query",
    ],
  },
  "the governance rules stay pure: only shared/, each other and TypeBox; no Bun or Node module": {
    files: {
      "governance/plan.ts":
        'import { purge } from "./enforce";\nimport { readFileSync } from "node:fs";\nimport { x } from "./merge";',
      "governance/validate.ts":
        'import { Type } from "@sinclair/typebox";\nimport { AppError } from "~/shared/errors";',
      "governance/merge.ts": 'import type { Store } from "~/store/store";',
      "governance/enforce.ts": "export {};",
      "store/store.ts": "export {};",
      "shared/errors.ts": "export {};",
    },
    says: [
      "governance/plan.ts imports ./enforce",
      "governance/plan.ts imports node:fs",
      "governance/merge.ts imports ~/store/store",
    ],
  },
  "each third-party library is imported in exactly one place (side-effect imports, import() and require() too)": {
    files: {
      "search/ranker.ts": 'import { Database } from "bun:sqlite";',
      "memory/memory.service.ts": 'import "sqlite-vec";',
      "graph/graph.service.ts": 'const neo4j = require("neo4j-driver");',
      "cli/serve.ts": 'const { Elysia } = await import("elysia");',
      "store/sqlite/connection.ts": 'import { Database } from "bun:sqlite";\nimport * as vec from "sqlite-vec";',
    },
    says: [
      "search/ranker.ts imports bun:sqlite",
      "memory/memory.service.ts imports sqlite-vec (side-effect)",
      "graph/graph.service.ts imports neo4j-driver (require)",
      "cli/serve.ts imports elysia (dynamic)",
    ],
  },
  "no source file names one platform's native package: each platform finds its own (SPEC §10)": {
    files: { "store/sqlite/connection.ts": 'const p = require("sqlite-vec-linux-x64");' },
    says: ["store/sqlite/connection.ts imports sqlite-vec-linux-x64 (require)"],
  },
  "the package's entry outside Bun (client.ts) reaches no Bun or Node module, engine or composition root": {
    files: {
      "client.ts":
        'export { createClient } from "./sdk/http-client";\nexport type { ServerOptions } from "./config/config.schema";',
      "sdk/http-client.ts": 'import { readFileSync } from "node:fs";\nimport { check } from "~/governance/validate";',
      "governance/validate.ts": 'import { buildServices } from "~/main";',
      "config/config.schema.ts": 'import { Database } from "bun:sqlite";',
      "main.ts": "export {};",
    },
    says: ["sdk/http-client.ts imports node:fs", "governance/validate.ts imports ~/main"],
  },
  "a server's start (cli/index.ts and what it imports; import() is not followed) loads no library only some requests need":
    {
      files: {
        "cli/index.ts": 'import { serve } from "./serve";\nconst { mcp } = await import("./mcp");',
        "cli/serve.ts": 'import { SseTransport } from "~/mcp/sse-transport";\nconst jose = await import("jose");',
        "cli/mcp.ts": 'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";',
        "mcp/sse-transport.ts":
          'import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";\n' +
          'import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";',
      },
      says: ["mcp/sse-transport.ts imports @modelcontextprotocol/sdk/types.js"],
    },
  "nothing reads the environment outside the config loader and the CLI": {
    files: {
      "search/embedder.ts": "const dir = process.env.MODEL_DIR;",
      "memory/memory.service.ts": "// process.env is read by config/load-config.ts only\nexport {};",
      "config/load-config.ts": "const port = Bun.env.PORT;",
    },
    says: ["search/embedder.ts reads the environment"],
  },
  "every SQL statement is under store/": {
    files: {
      "governance/erasure.ts": 'const q = "DELETE FROM mutable_entries WHERE key = ?";',
      "search/search-cache.ts": "const q = `SELECT rowid, memory\n  FROM memories WHERE user_id = ?`;",
      "layers/immutable.service.ts": 'db.run("PRAGMA foreign_keys = ON");',
      "graph/neo4j-cypher.ts": 'const i = "CREATE INDEX engram_user IF NOT EXISTS FOR (e:Entity) ON (e.user_id)";',
      "memory/memory.service.ts": "// a comment may say SELECT memory FROM memories\nexport {};",
      "store/sqlite/memory-repo.ts": 'const q = "INSERT INTO memories (id) VALUES (?)";',
    },
    says: [
      "governance/erasure.ts holds SQL: DELETE FROM mutable_entries",
      "search/search-cache.ts holds SQL: SELECT rowid, memory FROM memories",
      "layers/immutable.service.ts holds SQL: PRAGMA foreign_keys",
    ],
  },
};

describe("architecture (DESIGN.md §3, docs/ARCHITECTURE.md)", () => {
  test("source files were found", () => {
    expect(sources.size).toBeGreaterThan(100);
  });

  test("every rule has a fixture that breaks it", () => {
    expect(Object.keys(BROKEN).sort()).toEqual(RULES.map((r) => r.name).sort());
  });

  describe.each(RULES.map((r): [string, Rule] => [r.name, r]))("%s", (_, rule) => {
    test("holds for src/", () => {
      expect(rule.check(sources)).toEqual([]);
    });

    test("fails on files that break it, naming each break", () => {
      const broken = BROKEN[rule.name]!;
      expect(rule.check(new Map(Object.entries(broken.files)))).toEqual(broken.says);
    });
  });
});
