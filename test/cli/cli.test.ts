// The command line as a user runs it: subcommands, help, exit codes.
import { describe, expect, test, setDefaultTimeout } from "bun:test";
import { join } from "node:path";
import { ROOT, tempDir } from "../support/server-process";
import { CLI_TEST_TIMEOUT_MS } from "../support/cli";

setDefaultTimeout(CLI_TEST_TIMEOUT_MS); // test/support/cli.ts says why

async function run(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn(["bun", join(ROOT, "src/cli/index.ts"), ...args], {
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { stdout, stderr, code };
}

describe("engram CLI", () => {
  test("version prints the version and exits 0", async () => {
    expect(await run(["version"])).toEqual({ stdout: "0.1.0\n", stderr: "", code: 0 });
  });

  test("--help lists commands and every flag from the settings table", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    for (const s of [
      "serve",
      "mcp",
      "build-model",
      "reindex",
      "--store-url=",
      "--port=",
      "--auth",
      "--api-key=",
      "--log-level=",
      "--host=",
      "--cors-origins=",
      "--log-file=",
      "MCP_EXTRACT_FACTS",
    ])
      expect(r.stdout).toContain(s);
    // Defaults come from the schema, not from hand-written text.
    expect(r.stdout).toMatch(/--port=\s+MCP_PORT\s+Listen port; 0 picks a free port \(default 3000\)/);
    expect(r.stdout).toContain("(default one per core, up to 4)");
  });

  test("an unknown command exits 2 with one line", async () => {
    expect(await run(["serv"])).toEqual({
      stdout: "",
      stderr:
        "engram: unknown command 'serv' (commands: serve, mcp, build-model, models, reindex, check, repair, import, migrate-store, doctor, keys, enforce, version)\n",
      code: 2,
    });
  });

  test("migrate-store without both stores, or with the same one twice, exits 2 with the usage", async () => {
    const usage =
      "usage: engram migrate-store --from URL --to URL [--replace]  (URL: sqlite:///path/engram.db, a path, or postgres://owner@host/db)\n";
    expect(await run(["migrate-store", "--to=/tmp/x.db"])).toEqual({
      stdout: "",
      stderr: `engram migrate-store: --from is missing\n${usage}`,
      code: 2,
    });
    expect(await run(["migrate-store", "--from", "/tmp/x.db", "--to=/tmp/x.db"])).toEqual({
      stdout: "",
      stderr: `engram migrate-store: --from and --to name the same store\n${usage}`,
      code: 2,
    });
  });

  test("a bad flag exits 2 with one line naming it", async () => {
    expect(await run(["serve", "--port=x"])).toEqual({
      stdout: "",
      stderr: "engram: --port: invalid value 'x'; expected an integer from 0 to 65535\n",
      code: 2,
    });
  });

  test("reindex --graph needs a configured Neo4j mirror, and says when it is down", async () => {
    const store = `--store-url=${join(tempDir(), "g.db")}`;
    expect(await run(["reindex", "--graph", store, "--log-level=error"])).toEqual({
      stdout: "",
      stderr: "engram: no graph mirror is configured: set GRAPH_DB_ENABLED=true and GRAPH_DB_URI\n",
      code: 2,
    });
    const down = await run(["reindex", "--graph", store, "--log-level=error"], {
      GRAPH_DB_ENABLED: "true",
      GRAPH_DB_URI: "bolt://127.0.0.1:1",
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toStartWith("engram: Neo4j is unavailable");
  }, 20_000);

  test("reindex embeds memories stored without a vector", async () => {
    const store = join(tempDir(), "r.db");
    const { startServer } = await import("~/main");
    const { loadConfig } = await import("~/config/load-config");
    const { silentLogger } = await import("~/shared/logger");
    const s = await startServer(
      loadConfig({ options: { storeUrl: store, port: 0, embedding: { provider: "none" } } }),
      { logger: silentLogger() },
    );
    await fetch(`${s.url}/add_memories`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: "u", memory: "keyword only memory" }),
    });
    await s.stop();
    const r = await run(["reindex", `--store-url=${store}`, "--log-level=warn"]);
    expect(r).toEqual({ stdout: "re-embedded 1 memories with engram/glove-sif\n", stderr: "", code: 0 });
  });
});
