// CI: run the official MCP conformance suite (@modelcontextprotocol/conformance) against the real
// server started from source on a free loopback port: DNS-rebinding protection (SPEC §7), initialize,
// ping and tools/list. The suite needs Node ≥ 22's fs.globSync, so it runs under Bun (`bunx --bun`).
// Usage: bun scripts/ci/mcp-conformance.ts   (exit 0 when every scenario passes)
import { spawnServer } from "../../test/support/server-process";

const SUITE = "@modelcontextprotocol/conformance@0.1.16";
const SCENARIOS = ["dns-rebinding-protection", "server-initialize", "ping", "tools-list"];

const server = await spawnServer(["--store-url=sqlite::memory:", "--embedding-model=none"], { timeoutMs: 60_000 });
let failed = 0;
try {
  console.log(`mcp-conformance: ${SUITE} against ${server.url}/mcp`);
  for (const scenario of SCENARIOS) {
    const run = Bun.spawn(["bunx", "--bun", SUITE, "server", "--url", `${server.url}/mcp`, "--scenario", scenario], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(run.stdout).text(),
      new Response(run.stderr).text(),
      run.exited,
    ]);
    // The suite's exit code is its verdict; its summary line is printed either way.
    const summary = out.split("\n").find((l) => l.startsWith("Passed: ")) ?? "(no summary)";
    console.log(`mcp-conformance: ${scenario}: ${code === 0 ? "ok" : "FAILED"} — ${summary}`);
    if (code !== 0) {
      failed++;
      console.log(out + err);
    }
  }
} finally {
  server.proc.kill();
  await server.proc.exited;
}
process.exit(failed ? 1 : 0);
