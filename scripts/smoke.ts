// Usage: bun scripts/smoke.ts [path/to/engram]   (default dist/engram)
// The binary's promise, checked: copied alone into an empty folder with an empty HOME and a
// minimal environment, it starts on a free port, is healthy (not degraded), finds a memory by a
// paraphrase that shares no word with it, and exits 0 on SIGTERM. Prints timings as JSON.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export interface SmokeResult {
  coldStartMs: number;
  warmStartMs: number;
  rssAfterStartMb: number;
  health: unknown;
  found: string;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);

/** A port that was free a moment ago: cold start is timed to the first /health 200, not to the startup line. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function start(bin: string, home: string): Promise<{ url: string; proc: ReturnType<typeof Bun.spawn>; ms: number }> {
  const url = `http://127.0.0.1:${freePort()}`;
  const t0 = performance.now();
  const proc = Bun.spawn([bin, "serve", `--port=${url.split(":").at(-1)}`], { cwd: home, env: { HOME: home, PATH: "/usr/bin:/bin" }, stdout: "pipe", stderr: "pipe" });
  while ((await fetch(`${url}/health`).catch(() => null))?.status !== 200) {
    if (proc.exitCode !== null) throw new Error(`binary exited before serving: ${await new Response(proc.stderr as ReadableStream).text()}`);
    await Bun.sleep(1);
  }
  const ms = performance.now() - t0;
  // The startup line comes once the model is loaded; the checks below need semantic search live.
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  for (let line = ""; !line.includes("\n"); ) {
    const { value, done } = await reader.read();
    if (done) throw new Error("binary closed stdout before its startup line");
    line += new TextDecoder().decode(value);
  }
  return { url, proc, ms };
}

async function stop(proc: ReturnType<typeof Bun.spawn>): Promise<void> {
  proc.kill("SIGTERM");
  const code = await proc.exited;
  if (code !== 0) throw new Error(`binary exited with ${code} on SIGTERM`);
}

export async function smoke(binary: string): Promise<SmokeResult> {
  const dir = mkdtempSync(join(tmpdir(), "engram-smoke-"));
  const home = join(dir, "home");
  mkdirSync(home);
  const bin = join(dir, "engram");
  copyFileSync(binary, bin);
  const cold = await start(bin, home);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${cold.proc.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  const health = await fetch(`${cold.url}/health`).then((r) => r.json() as Promise<any>);
  if (health.status !== "ok" || health.search?.mode !== "hybrid") throw new Error(`unhealthy: ${JSON.stringify(health)}`);
  await post(`${cold.url}/add_memories`, { user_id: "smoke", memory: "I adopted a golden retriever puppy last week" });
  await post(`${cold.url}/add_memories`, { user_id: "smoke", memory: "The quarterly budget review is on Thursday" });
  const r = await post(`${cold.url}/search_memory`, { user_id: "smoke", query: "new dog", limit: 1 });
  const found = r.results?.[0]?.memory;
  if (found !== "I adopted a golden retriever puppy last week") throw new Error(`paraphrase not found: ${JSON.stringify(r)}`);
  await stop(cold.proc);
  const warm = await start(bin, home);
  await stop(warm.proc);
  return { coldStartMs: cold.ms, warmStartMs: warm.ms, rssAfterStartMb: rss, health, found };
}

if (import.meta.main) {
  const result = await smoke(resolve(process.argv[2] ?? "dist/engram"));
  console.log(JSON.stringify(result, null, 2));
}
