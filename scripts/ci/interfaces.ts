// Usage: bun scripts/ci/interfaces.ts [path/to/engram]   (default dist/engram; from source when absent)
// Starts the server on a free port and checks what it serves with the ecosystems' own validators:
// /swagger/json with @apidevtools/swagger-parser and Redocly CLI lint (recommended rules, redocly.yaml),
// that docs/openapi.json is that same document, and /metrics (after some traffic) with
// `promtool check metrics`. Prints each validator's counts; exits 1 on any problem.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { freePort } from "../smoke";

const ROOT = resolve(import.meta.dir, "..", "..");
const binary = resolve(process.argv[2] ?? join(ROOT, "dist", "engram"));
const command = existsSync(binary) ? [binary] : [process.execPath, join(ROOT, "src/cli/index.ts")];
const dir = mkdtempSync(join(tmpdir(), "engram-interfaces-"));
const url = `http://127.0.0.1:${freePort()}`;
const server = Bun.spawn(
  [
    ...command,
    "serve",
    `--port=${url.split(":").at(-1)}`,
    `--store-url=${join(dir, "engram.db")}`,
    "--embedding-model=none",
  ],
  { env: { HOME: dir, PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdout: "ignore", stderr: "inherit" },
);
let failed = false;
const report = (name: string, errors: number, warnings: number, detail = "") => {
  console.log(`${name}: ${errors} errors, ${warnings} warnings${detail ? `\n${detail}` : ""}`);
  failed ||= errors + warnings > 0;
};
try {
  while ((await fetch(`${url}/health`).catch(() => null))?.status !== 200) {
    if (server.exitCode !== null) throw new Error("the server exited before serving");
    await Bun.sleep(20);
  }
  console.log(`checking ${command.join(" ")} at ${url}`);
  const text = await (await fetch(`${url}/swagger/json`)).text();
  const file = join(dir, "openapi.json");
  await Bun.write(file, `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  const committed = await Bun.file(join(ROOT, "docs", "openapi.json")).text();
  report("docs/openapi.json is the served document", (await Bun.file(file).text()) === committed ? 0 : 1, 0);

  const parsed = await SwaggerParser.validate(file).then(
    () => [] as string[],
    (e: Error & { details?: unknown[] }) => (e.details ?? [e.message]).map((d) => JSON.stringify(d)),
  );
  report("@apidevtools/swagger-parser validate", parsed.length, 0, parsed.slice(0, 20).join("\n"));

  const lint = Bun.spawn(
    [join(ROOT, "node_modules/.bin/redocly"), "lint", file, "--format=json", "--max-problems=1000"],
    {
      cwd: ROOT,
      stderr: "ignore",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
  const problems: { severity: string; ruleId: string; message: string }[] = JSON.parse(
    await new Response(lint.stdout).text(),
  ).problems;
  await lint.exited;
  report(
    "@redocly/cli lint (recommended, redocly.yaml)",
    problems.filter((p) => p.severity === "error").length,
    problems.filter((p) => p.severity === "warn").length,
    problems.map((p) => `  ${p.severity} ${p.ruleId}: ${p.message}`).join("\n"),
  );

  await promtool(url);
} finally {
  server.kill();
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** Prometheus's own linter on the text /metrics serves once a memory was added and searched. */
async function promtool(url: string) {
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  await post("/add_memories", { user_id: "ci", memory: "promtool reads the metrics" });
  await post("/search_memory", { user_id: "ci", query: "metrics" });
  const text = await (await fetch(`${url}/metrics`, { headers: { accept: "text/plain" } })).text();
  const tool = Bun.which("promtool");
  if (!tool) return report("promtool check metrics (promtool absent: apt-get install prometheus)", 1, 0);
  const check = Bun.spawn([tool, "check", "metrics"], { stdin: new TextEncoder().encode(text), stderr: "pipe" });
  const output = ((await new Response(check.stdout).text()) + (await new Response(check.stderr).text())).trim();
  const code = await check.exited;
  const problems = output ? output.split("\n").length : code === 0 ? 0 : 1;
  report(
    `promtool check metrics (${text.split("\n").filter((l) => l && !l.startsWith("#")).length} samples)`,
    problems,
    0,
    output,
  );
}
