// Speed benchmark (BENCH.md §2): starts the real server (or dist/engram with --binary) on a free
// loopback port with a fresh store, loads N memories over HTTP, then drives each endpoint from a
// separate process at fixed concurrency. Prints a markdown table and writes a JSON file.
// Usage: bun run bench [--memories=10000] [--concurrency=16] [--latency-concurrency=4] [--duration=5] [--binary]
//                      [--users=N/1000] [--delete-all=10000] [--batch=1] [--embedding-model=none] [--out=bench-results/bench-N.json]
//                      [--store=sqlite|postgres] [--nodes=1] [--auth]
// --store=postgres runs on a throwaway PostgreSQL + pgvector (scripts/bench-nodes.ts); --nodes=N (PostgreSQL
// only) starts N servers on its one database and the load clients send each request to the next node in turn.
// --batch=100 loads 100 memories per request (for 1M-memory runs); ingest/s is then per memory.
// --users spreads the memories over that many users (default one per 1,000 memories; e.g. --users=2000
// with --memories=20000 gives each user 10, as on a server for many people).
// --auth serves with auth on, a member key per user on every request (scripts/bench-auth.ts).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { loadVocabulary, makeText, mulberry32 } from "./bench-data";
import { freePort } from "./smoke";
import { cpuNs } from "./proc-cpu";
import { benchStore, type BenchStore } from "./bench-nodes";
import { AUTH_SERVER_FLAGS, BENCH_RATE_LIMIT, bearer, createAdminKey, memberKeys } from "./bench-auth";

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def;
const N = Number(arg("memories", "10000"));
const C = Number(arg("concurrency", "16"));
/** Concurrency of the extra, unsaturated search run (latency without queueing). */
const LATENCY_C = Number(arg("latency-concurrency", "4"));
const DURATION = Number(arg("duration", "5")) * 1000;
const BINARY = process.argv.includes("--binary");
const MODEL = arg("embedding-model", "");
const OUT = arg("out", `bench-results/bench-${N}.json`);
const DELETE_ALL = Number(arg("delete-all", "10000"));
/** Memories per add request while loading (1 = one memory per request; >1 sends `messages`). */
const BATCH = Number(arg("batch", "1"));
const USERS = Number(arg("users", String(Math.max(1, Math.round(N / 1000)))));
if (!Number.isInteger(USERS) || USERS < 1)
  throw new Error(`--users must be a positive integer, got ${arg("users", "")}`);
const STORE = arg("store", "sqlite");
const NODES = Number(arg("nodes", "1"));
if (!Number.isInteger(NODES) || NODES < 1)
  throw new Error(`--nodes must be a positive integer, got ${arg("nodes", "")}`);
if (NODES > 1 && STORE !== "postgres")
  throw new Error("--nodes above 1 needs --store=postgres: nodes share one database");
const AUTH = process.argv.includes("--auth");
const ROOT = join(import.meta.dir, "..");
const ENGRAM = BINARY ? [join(ROOT, "dist/engram")] : ["bun", join(ROOT, "src/cli/index.ts")];
/** With --auth: the admin key (key creation, /metrics) and each user's member key. */
const auth: { admin?: string; keys?: Record<string, string> } = {};
const SEED_MS: Record<string, [number, number]> = {
  add: [20, 50],
  search: [50, 150],
  list: [10, 30],
  get: [10, 30],
  delete_all: [50, 200],
};

/** The server processes, killed if the bench stops early (even while they start). */
const serverProcs: ReturnType<typeof Bun.spawn>[] = [];

async function startServer(
  store: BenchStore,
): Promise<{ url: string; proc: ReturnType<typeof Bun.spawn>; coldStartMs: number; readyMs: number }> {
  const cmd = [...ENGRAM, "serve"];
  const port = freePort();
  const args = [
    `--port=${port}`,
    ...store.flags,
    ...(MODEL ? [`--embedding-model=${MODEL}`] : []),
    ...(AUTH ? AUTH_SERVER_FLAGS : []),
  ];
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const proc = Bun.spawn([...cmd, ...args], { stdout: "pipe", stderr: "inherit", env: { ...process.env } });
  serverProcs.push(proc);
  // Cold start = spawn → first /health 200 (BENCH.md); ready = the startup line (model loaded).
  while ((await fetch(`${url}/health`).catch(() => null))?.status !== 200) {
    if (proc.exitCode !== null) throw new Error("server exited during start-up");
    await Bun.sleep(1);
  }
  const coldStartMs = performance.now() - t0;
  const reader = proc.stdout.getReader();
  let buf = "";
  while (!buf.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${buf}`);
    buf += new TextDecoder().decode(value);
  }
  console.error(buf.trim());
  return { url, proc, coldStartMs, readyMs: performance.now() - t0 };
}

/** VmRSS, or its private part RssAnon; the rest is mapped files: the executable, libraries and the store (read through a map). */
const rssMb = (pid: number, field: "VmRSS" | "RssAnon" = "VmRSS") =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

async function load(
  urls: string[],
  server: { proc: { pid: number } },
): Promise<{ ids: [string, string][]; perSecond: number }> {
  const rnd = mulberry32(7);
  const vocab = await loadVocabulary();
  const ids: [string, string][] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < N) {
        const i = next;
        next += BATCH;
        const user = `user-${Math.floor(i / BATCH) % USERS}`;
        const count = Math.min(BATCH, N - i);
        const payload =
          count === 1 && BATCH === 1
            ? { user_id: user, agent_id: `agent-${i % 4}`, memory: makeText(vocab, rnd), metadata: { n: i } }
            : {
                user_id: user,
                agent_id: `agent-${i % 4}`,
                messages: Array.from({ length: count }, () => ({ role: "user", content: makeText(vocab, rnd) })),
                metadata: { n: i },
              };
        // Round-robin over the nodes, as a load balancer would.
        const res = await fetch(`${urls[(i / BATCH) % urls.length]}/add_memories`, {
          method: "POST",
          headers: { "content-type": "application/json", ...bearer(auth.keys?.[user]) },
          body: JSON.stringify(payload),
        });
        const body = (await res.json()) as { memory_ids?: string[] };
        if (res.status !== 200) throw new Error(`load failed: ${res.status} ${JSON.stringify(body)}`);
        if ((i / BATCH) % 7 === 0) ids.push([user, body.memory_ids![0]!]);
        if (i && i % 100_000 < BATCH)
          console.error(`  loaded ${i} memories, RSS ${rssMb(server.proc.pid).toFixed(0)} MB`);
      }
    }),
  );
  return { ids, perSecond: N / ((performance.now() - t0) / 1000) };
}

let runs = 0;
/**
 * Drives one endpoint; also reports the servers' CPU per request (µs, every thread): on a machine shared
 * with other work req/s moves with the neighbours, CPU per request much less.
 */
async function drive(urls: string[], kind: string, ids: [string, string][], concurrency = C) {
  const cpuBefore = serverCpuNs();
  // The spec (with thousands of ids) goes through a file: it would not fit in argv.
  const specFile = join(dir, `spec-${kind}.json`);
  writeFileSync(
    specFile,
    JSON.stringify({
      urls,
      kind,
      concurrency,
      durationMs: DURATION,
      users: USERS,
      seed: 42 + runs++,
      ids: kind === "get" ? ids : undefined,
      keys: auth.keys,
    }),
  );
  const p = Bun.spawn(["bun", join(ROOT, "scripts/bench-load.ts"), specFile], { stdout: "pipe", stderr: "inherit" });
  const r = JSON.parse(await new Response(p.stdout).text()) as {
    requests: number;
    errors: number;
    rps: number;
    p50: number;
    p95: number;
    p99: number;
  };
  return { ...r, cpu_us: (serverCpuNs() - cpuBefore) / 1000 / r.requests };
}

const serverCpuNs = () => serverProcs.reduce((ns, p) => ns + cpuNs(p.pid), 0);

// The store (tens of MB) lives in a temp folder that goes when the bench ends: done, failed or interrupted.
const dir = mkdtempSync(join(tmpdir(), "engram-bench-"));
const cleanUp = () => {
  for (const p of serverProcs) p.kill("SIGKILL");
  // A PostgreSQL of the bench's own stops when this process ends (its watchdog sees us go).
  rmSync(dir, { recursive: true, force: true });
};
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    cleanUp();
    process.exit(130);
  });
let benchStoreOf: BenchStore | undefined;
try {
  const store = (benchStoreOf = await benchStore(STORE, dir));
  if (AUTH) auth.admin = createAdminKey(ENGRAM, store.flags);
  // One at a time: the first node migrates the database; each later one finds nothing to do.
  const servers = [];
  for (let n = 0; n < NODES; n++) servers.push(await startServer(store));
  const server = servers[0]!;
  const urls = servers.map((s) => s.url);
  const rssStart = rssMb(server.proc.pid);
  const privateStart = rssMb(server.proc.pid, "RssAnon");
  const victim = "delete-all-user";
  if (AUTH) {
    const users = [...Array.from({ length: USERS }, (_, u) => `user-${u}`), victim];
    auth.keys = await memberKeys(server.url, auth.admin!, users);
    console.error(`auth on: ${users.length} member keys, rate limit ${BENCH_RATE_LIMIT}`);
  }
  console.error(`loading ${N} memories for ${USERS} users with concurrency ${C}…`);
  const { ids, perSecond } = await load(urls, server);
  const health = (await fetch(`${server.url}/health`).then((r) => r.json())) as {
    search: { mode: string; model: string | null };
  };
  const rows: Record<string, unknown>[] = [];
  // At concurrency C the server is saturated and latency is mostly queueing (p50 ≈ C / throughput), so
  // search latency is also measured below saturation, at LATENCY_C concurrent clients (other queries:
  // each run has its own seed, so the result cache does not answer the second).
  const runsOf = [
    ["search", C],
    ...(LATENCY_C !== C ? [["search", LATENCY_C]] : []),
    ["get", C],
    ["list", C],
    ["add", C],
  ] as [string, number][];
  for (const [kind, concurrency] of runsOf) {
    const r = await drive(urls, kind, ids, concurrency);
    const [lo, hi] = SEED_MS[kind]!;
    const endpoint = concurrency === C ? kind : `${kind} (concurrency ${concurrency})`;
    rows.push({ endpoint, concurrency, ...r, seed_ms: `${lo}–${hi}`, speedup_vs_seed_best: lo / r.p50 });
    console.error(
      `${endpoint}: p50 ${r.p50.toFixed(2)} ms, ${r.rps.toFixed(0)} req/s, ${r.cpu_us.toFixed(0)} µs server CPU/req`,
    );
  }
  // delete_all is timed on one user holding DELETE_ALL memories (BENCH.md: 10k), stored 100 per request;
  // three rounds (fill, delete), reported as the median: one round moves by ±2× on these machines.
  const drnd = mulberry32(11);
  const dvocab = await loadVocabulary();
  const erasurePending = async () =>
    (
      (await fetch(`${server.url}/metrics`, { headers: bearer(auth.admin) }).then((r) => r.json())) as {
        vector_erasures_pending: number;
      }
    ).vector_erasures_pending;
  const rounds: { ms: number; erasedMs: number }[] = [];
  let count = 0;
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < DELETE_ALL; i += 100) {
      const messages = Array.from({ length: Math.min(100, DELETE_ALL - i) }, () => ({
        role: "user",
        content: makeText(dvocab, drnd),
      }));
      await fetch(`${server.url}/add_memories`, {
        method: "POST",
        headers: { "content-type": "application/json", ...bearer(auth.keys?.[victim]) },
        body: JSON.stringify({ user_id: victim, messages }),
      });
    }
    count = (
      (await fetch(`${server.url}/list_memories?user_id=${victim}&limit=1`, {
        headers: bearer(auth.keys?.[victim]),
      }).then((r) => r.json())) as { total: number }
    ).total;
    const t0 = performance.now();
    await fetch(`${server.url}/delete_all_memories`, {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(auth.keys?.[victim]) },
      body: JSON.stringify({ user_id: victim }),
    });
    const ms = performance.now() - t0;
    // A bulk delete erases the vectors right after it answers (src/store/sqlite/vector-erasure.ts): time that too.
    while ((await erasurePending()) > 0) await Bun.sleep(2);
    rounds.push({ ms, erasedMs: performance.now() - t0 });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const deleteAllMs = median(rounds.map((r) => r.ms));
  const erasedMs = median(rounds.map((r) => r.erasedMs));
  const result = {
    date: new Date().toISOString(),
    commit: Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: ROOT }).stdout.toString().trim(),
    machine: `${navigator.hardwareConcurrency} cores, ${process.platform}-${process.arch}`,
    target: BINARY ? "dist/engram" : "bun src/cli/index.ts",
    store: STORE,
    nodes: NODES,
    auth: AUTH ? { keys: "member key per user", audit: true, rate_limit: BENCH_RATE_LIMIT } : false,
    search_mode: `${health.search.mode}${health.search.model ? ` (${health.search.model})` : ""}`,
    memories: N,
    users: USERS,
    concurrency: C,
    duration_s: DURATION / 1000,
    load_batch: BATCH,
    cold_start_ms: server.coldStartMs,
    ready_ms: server.readyMs,
    ingest_per_s: perSecond,
    rss_mb: { start: rssStart, end: rssMb(server.proc.pid) },
    rss_private_mb: { start: privateStart, end: rssMb(server.proc.pid, "RssAnon") },
    store_mb: await store.sizeMb(),
    delete_all: { memories: count, ms: deleteAllMs, vectors_erased_ms: erasedMs, rounds },
    endpoints: rows,
  };
  for (const s of servers) s.proc.kill("SIGTERM");
  await Promise.all(servers.map((s) => s.proc.exited));
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(result, null, 2));

  const f = (n: number) => n.toFixed(2);
  console.log(
    `\n### ${N} memories, ${USERS} users, concurrency ${C}, ${result.search_mode}, ${STORE}${NODES > 1 ? ` × ${NODES} nodes` : ""}${AUTH ? `, auth on (a member key per user, every request audited, rate limit ${BENCH_RATE_LIMIT})` : ""}, ${result.target} @ ${result.commit}\n`,
  );
  console.log(
    "| endpoint | p50 ms | p95 ms | p99 ms | req/s | server CPU µs/req | errors | seed p50 range | × faster than seed best |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of rows as any[])
    console.log(
      `| ${r.endpoint} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.rps.toFixed(0)} | ${r.cpu_us.toFixed(0)} | ${r.errors} | ${r.seed_ms} ms | ${r.speedup_vs_seed_best.toFixed(1)}× |`,
    );
  console.log(
    `\ningest ${perSecond.toFixed(0)} memories/s · delete_all of ${count} memories ${f(deleteAllMs)} ms, median of ${rounds.map((r) => r.ms.toFixed(0)).join(" / ")} (seed 50–200 ms; vectors erased after ${f(erasedMs)} ms) · cold start ${f(server.coldStartMs)} ms (model ready ${f(server.readyMs)} ms) · RSS ${rssStart.toFixed(0)} → ${result.rss_mb.end.toFixed(0)} MB (private ${privateStart.toFixed(0)} → ${result.rss_private_mb.end.toFixed(0)} MB; the rest is mapped files: code and store pages) · store ${result.store_mb.toFixed(1)} MB`,
  );
  console.log(`JSON: ${OUT}`);
} finally {
  cleanUp();
  await benchStoreOf?.stop();
}
