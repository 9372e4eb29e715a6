// CI: run the official MCP conformance suite (@modelcontextprotocol/conformance) against the real
// server started from source on a free loopback port: DNS-rebinding protection (SPEC §7), initialize,
// ping and tools/list. The suite needs Node ≥ 22's fs.globSync, so it runs under Bun (`bunx --bun`).
// Usage: bun scripts/ci/mcp-conformance.ts   (exit 0 when every scenario passes)
import { join } from "node:path";

const SUITE = "@modelcontextprotocol/conformance@0.1.16";
const SCENARIOS = ["dns-rebinding-protection", "server-initialize", "ping", "tools-list"];
const ROOT = join(import.meta.dir, "..", "..");

const server = Bun.spawn(
  ["bun", join(ROOT, "src/cli/index.ts"), "serve", "--port=0", "--store-url=sqlite::memory:", "--embedding-model=none"],
  { cwd: ROOT, stdout: "pipe", stderr: "inherit" },
);
let failed = 0;
try {
  const url = await startupUrl(server.stdout);
  console.log(`mcp-conformance: ${SUITE} against ${url}/mcp`);
  for (const scenario of SCENARIOS) {
    const run = Bun.spawn(["bunx", "--bun", SUITE, "server", "--url", `${url}/mcp`, "--scenario", scenario], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(run.stdout).text(),
      new Response(run.stderr).text(),
      run.exited,
    ]);
    // The suite's exit code is its verdict; its summary line is printed either way.
    const summary = out.split("\n").find((l) => /^Passed: /.test(l)) ?? "(no summary)";
    console.log(`mcp-conformance: ${scenario}: ${code === 0 ? "ok" : "FAILED"} — ${summary}`);
    if (code !== 0) {
      failed++;
      console.log(out + err);
    }
  }
} finally {
  server.kill();
  await server.exited;
}
process.exit(failed ? 1 : 0);

/** Reads the server's one startup line and returns the URL it listens on. */
async function startupUrl(stdout: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stdout.getReader();
  let text = "";
  const deadline = setTimeout(() => reader.cancel(), 60_000);
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the server exited before listening: ${text}`);
      text += new TextDecoder().decode(value);
    }
  } finally {
    clearTimeout(deadline);
    reader.releaseLock();
  }
  const url = /listening on (\S+)/.exec(text)?.[1];
  if (!url) throw new Error(`no URL in the startup line: ${text}`);
  return url;
}
