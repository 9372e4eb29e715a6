// Usage: bun scripts/smoke.ts [path/to/engram]   (default dist/engram)
// The binary's promise, checked: copied alone into an empty folder with an empty HOME and a
// minimal environment, it starts on a free port, is healthy (not degraded), finds a memory by a
// paraphrase that shares no word with it (also when asked while the model still loads), and exits 0
// on SIGTERM. Prints timings as JSON. Another platform's binary runs through a launcher (an
// emulator: scripts/ci/platforms.sh runs linux-arm64 under qemu and windows-x64 under Wine).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";

export interface SmokeOptions {
  /** Runs the binary through this command (e.g. ["qemu-aarch64-static", "-L", root]). */
  launcher?: string[];
  /** Added to the minimal environment (e.g. WINEPREFIX). */
  env?: Record<string, string>;
  /** Copied beside the binary (e.g. a DLL the emulator lacks). */
  files?: string[];
  /** Windows has no SIGTERM: Wine turns SIGINT into the console's Ctrl+C, which Bun reports as SIGINT. */
  stopSignal?: "SIGTERM" | "SIGINT";
}

/** What smoke() started: killed at the end if a check failed while it still ran. */
const running = new Set<ReturnType<typeof Bun.spawn>>();

export interface SmokeResult {
  /** Spawn → first /health 200 (BENCH.md's cold start), with an empty cache: the model is unpacked first. */
  coldStartMs: number;
  /** Spawn → the startup line, printed once the model has loaded (semantic search live). */
  coldReadyMs: number;
  /** The same two, started again with the cache filled. */
  warmStartMs: number;
  warmReadyMs: number;
  /** Resident memory once the model has loaded (cold start; the warm one is lower by the unpacking). */
  rssAfterStartMb: number;
  warmRssAfterStartMb: number;
  firstHealthState: { cold: string; warm: string };
  health: unknown;
  /** The API page as the binary serves it: bytes of the page and of its embedded assets, operations documented. */
  apiPage: { pageBytes: number; assetBytes: Record<string, number>; operations: number };
  found: string;
  /** The same paraphrase search, sent right after the warm start's first /health. */
  foundWhileLoading: string;
  /** `engram doctor --json` of the binary, run after the servers stopped. */
  doctor: {
    platform: { os: string; arch: string; binary: boolean };
    vectorIndex: { inUse: string };
    model: { state: string };
  };
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(
    (r) => r.json() as Promise<any>,
  );

/** A port that was free a moment ago: cold start is timed to the first /health 200, not to the startup line. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

interface Started {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  ms: number;
  readyMs: number;
  rssMb: number;
  /** search.state in the first /health answer: "loading" while the model loads, or "ready". */
  firstState: string;
}

/** Starts the binary; `whileLoading` runs right after the first /health 200, alongside the model load. */
async function start(
  bin: string,
  home: string,
  o: SmokeOptions,
  whileLoading?: (url: string) => Promise<void>,
): Promise<Started> {
  const url = `http://127.0.0.1:${freePort()}`;
  const t0 = performance.now();
  const proc = Bun.spawn([...(o.launcher ?? []), bin, "serve", `--port=${url.split(":").at(-1)}`], {
    cwd: home,
    env: { HOME: home, PATH: "/usr/bin:/bin", ...o.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  running.add(proc);
  let first: Response | null;
  while ((first = await fetch(`${url}/health`).catch(() => null))?.status !== 200) {
    if (proc.exitCode !== null)
      throw new Error(`binary exited before serving: ${await new Response(proc.stderr as ReadableStream).text()}`);
    await Bun.sleep(1);
  }
  const ms = performance.now() - t0;
  const firstHealth = (await first!.json()) as { status?: string; search?: { state?: string } };
  if (firstHealth.status !== "ok") throw new Error(`first /health not ok: ${JSON.stringify(firstHealth)}`);
  const during = whileLoading?.(url);
  // The startup line comes once the model is loaded; the checks below need semantic search live.
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  for (let line = ""; !line.includes("\n"); ) {
    const { value, done } = await reader.read();
    if (done) throw new Error("binary closed stdout before its startup line");
    line += new TextDecoder().decode(value);
  }
  const readyMs = performance.now() - t0;
  await during;
  return { url, proc, ms, readyMs, rssMb: rssMb(proc.pid), firstState: firstHealth.search?.state ?? "?" };
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

async function findByParaphrase(url: string): Promise<string> {
  const r = await post(`${url}/search_memory`, { user_id: "smoke", query: "new dog", limit: 1 });
  const found = r.results?.[0]?.memory;
  if (found !== "I adopted a golden retriever puppy last week")
    throw new Error(`paraphrase not found: ${JSON.stringify(r)}`);
  return found;
}

/** The page, every asset it links (embedded in the binary: no network) and the OpenAPI document. */
async function apiPage(url: string): Promise<SmokeResult["apiPage"]> {
  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return res;
  };
  const page = await (await get("/swagger")).text();
  const assetBytes: Record<string, number> = {};
  for (const [, ref] of page.matchAll(/(?:src|href)="(\/swagger\/assets\/[^"]+)"/g))
    assetBytes[ref!.split("/").at(-1)!] = (await (await get(ref!)).arrayBuffer()).byteLength;
  const doc = (await (await get("/swagger/json")).json()) as { paths: Record<string, object> };
  const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
  return { pageBytes: page.length, assetBytes, operations };
}

/**
 * Stops the server; it must exit cleanly having logged no warning or error. A part that fails softly says so
 * only there: the typo word list's worker, say, missing from a binary ("no word list for typo tolerance").
 */
async function stop(proc: ReturnType<typeof Bun.spawn>, signal: SmokeOptions["stopSignal"] = "SIGTERM"): Promise<void> {
  proc.kill(signal);
  const code = await proc.exited;
  running.delete(proc);
  if (code !== 0) throw new Error(`binary exited with ${code} on ${signal}`);
  const logged = await new Response(proc.stderr as ReadableStream).text();
  const bad = logged.split("\n").filter((line) => /\s(WARN|ERROR)\s/.test(line));
  if (bad.length) throw new Error(`the server logged:\n${bad.join("\n")}`);
}

/** The binary's own report of its platform (the emulated one under an emulator). */
async function doctorOf(bin: string, home: string, o: SmokeOptions): Promise<SmokeResult["doctor"]> {
  const proc = Bun.spawn([...(o.launcher ?? []), bin, "doctor", "--json"], {
    cwd: home,
    env: { HOME: home, PATH: "/usr/bin:/bin", ...o.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`engram doctor exited with ${code}: ${err}${out}`);
  return JSON.parse(out);
}

export async function smoke(binary: string, o: SmokeOptions = {}): Promise<SmokeResult> {
  const dir = mkdtempSync(join(tmpdir(), "engram-smoke-"));
  try {
    return await smokeIn(dir, binary, o);
  } finally {
    for (const proc of running) proc.kill("SIGKILL");
    await Promise.all([...running].map((p) => p.exited));
    running.clear();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function smokeIn(dir: string, binary: string, o: SmokeOptions): Promise<SmokeResult> {
  const home = join(dir, "home");
  mkdirSync(home);
  const bin = join(dir, binary.endsWith(".exe") ? "engram.exe" : "engram");
  copyFileSync(binary, bin);
  for (const f of o.files ?? []) copyFileSync(f, join(dir, basename(f)));
  const cold = await start(bin, home, o);
  const health = await fetch(`${cold.url}/health`).then((r) => r.json() as Promise<any>);
  if (health.status !== "ok" || health.search?.mode !== "hybrid")
    throw new Error(`unhealthy: ${JSON.stringify(health)}`);
  const page = await apiPage(cold.url);
  await post(`${cold.url}/add_memories`, { user_id: "smoke", memory: "I adopted a golden retriever puppy last week" });
  await post(`${cold.url}/add_memories`, { user_id: "smoke", memory: "The quarterly budget review is on Thursday" });
  const found = await findByParaphrase(cold.url);
  await stop(cold.proc, o.stopSignal);
  // Again with the cache filled; the search is sent as soon as /health answers, so most likely while the
  // model still loads: it must wait for the model and find the memory semantically (BM25 cannot: no shared word).
  let foundWhileLoading = "";
  const warm = await start(bin, home, o, async (url) => void (foundWhileLoading = await findByParaphrase(url)));
  await stop(warm.proc, o.stopSignal);
  return {
    coldStartMs: cold.ms,
    coldReadyMs: cold.readyMs,
    warmStartMs: warm.ms,
    warmReadyMs: warm.readyMs,
    rssAfterStartMb: cold.rssMb,
    warmRssAfterStartMb: warm.rssMb,
    firstHealthState: { cold: cold.firstState, warm: warm.firstState },
    health,
    apiPage: page,
    found,
    foundWhileLoading,
    doctor: await doctorOf(bin, home, o),
  };
}

if (import.meta.main) {
  const result = await smoke(resolve(process.argv[2] ?? "dist/engram"));
  console.log(JSON.stringify(result, null, 2));
}
