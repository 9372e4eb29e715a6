// What the request pipeline costs per request in process (issue 18: auth + audit), without HTTP and the
// load generator on the same two cores: two apps on copies of one SQLite file, A with auth off and B with
// a member key per user (every request audited, the rate limit counted but out of reach), driven through
// app.handle one request at a time in alternating rounds. Reports the process CPU µs per request.
// Usage: bun scripts/bench-request-cost.ts [--memories=3000] [--users=30] [--requests=3000] [--rounds=6]
//          [--kinds=get,list,search]
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "~/config/load-config";
import { buildServices } from "~/main";
import { createApp } from "~/app";
import { silentLogger } from "~/shared/logger";
import { loadVocabulary, makeText, mulberry32 } from "./bench-data";
import { BENCH_RATE_LIMIT } from "./bench-auth";

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def;
const N = Number(arg("memories", "3000"));
const USERS = Number(arg("users", "30"));
const REQUESTS = Number(arg("requests", "3000"));
const ROUNDS = Number(arg("rounds", "6"));
const KINDS = arg("kinds", "get,list,search").split(",");
const users = Array.from({ length: USERS }, (_, u) => `user-${u}`);
const dir = mkdtempSync(join(tmpdir(), "engram-request-cost-"));

async function open(file: string, auth: boolean) {
  const config = loadConfig({
    options: {
      storeUrl: file,
      ...(auth ? { auth: { enabled: true }, rateLimit: { requests: BENCH_RATE_LIMIT } } : {}),
    } as never,
    env: { HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME },
  });
  const services = await buildServices(config, { logger: silentLogger(), embedder: null });
  const app = createApp(services);
  const keys: Record<string, string> = {};
  if (auth)
    for (const u of users) keys[u] = (await services.keys.create("default", { role: "member", user_id: u })).key;
  return { services, app, keys };
}
type App = Awaited<ReturnType<typeof open>>;

function requestOf(kind: string, a: App, rnd: () => number, vocab: any, ids: [string, string][]): Request {
  const base = "http://127.0.0.1";
  const bearer = (u: string): Record<string, string> => (a.keys[u] ? { authorization: `Bearer ${a.keys[u]}` } : {});
  if (kind === "get") {
    const [u, id] = ids[Math.floor(rnd() * ids.length)]!;
    return new Request(`${base}/get_memory?memory_id=${id}&user_id=${u}`, { headers: bearer(u) });
  }
  const u = users[Math.floor(rnd() * USERS)]!;
  const auth = bearer(u);
  if (kind === "list") return new Request(`${base}/list_memories?user_id=${u}&limit=20`, { headers: auth });
  return new Request(`${base}/search_memory`, {
    method: "POST",
    headers: { "content-type": "application/json", ...auth },
    body: JSON.stringify({ user_id: u, query: makeText(vocab, rnd, 2, 6), limit: 10 }),
  });
}

/** CPU µs per request (the process, every thread) for REQUESTS requests, eight in flight. */
async function round(kind: string, a: App, seed: number, ids: [string, string][], vocab: any): Promise<number> {
  const rnd = mulberry32(seed);
  const reqs = Array.from({ length: REQUESTS }, () => requestOf(kind, a, rnd, vocab, ids));
  let next = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < reqs.length) {
        const res = await a.app.handle(reqs[next++]!);
        const body = await res.text();
        // A memory a later one superseded answers 404 on both sides alike (same store, same requests).
        if (res.status !== 200 && !(kind === "get" && res.status === 404))
          throw new Error(`${kind}: ${res.status} ${body}`);
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

try {
  const vocab = await loadVocabulary();
  const first = join(dir, "a.db");
  const loader = await open(first, false);
  const rnd = mulberry32(7);
  const ids: [string, string][] = [];
  for (let i = 0; i < N; i += 50) {
    const user = users[(i / 50) % USERS]!;
    const messages = Array.from({ length: Math.min(50, N - i) }, () => ({
      role: "user",
      content: makeText(vocab, rnd),
    }));
    const res = await loader.app.handle(
      new Request("http://127.0.0.1/add_memories", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ user_id: user, messages }),
      }),
    );
    const body = (await res.json()) as { memory_ids: string[] };
    ids.push([user, body.memory_ids[0]!]);
  }
  await loader.app.close();
  await loader.services.close();
  copyFileSync(first, join(dir, "b.db"));
  const apps = [await open(first, false), await open(join(dir, "b.db"), true)];
  console.log(`\n${N} memories, ${USERS} users, ${REQUESTS} requests × ${ROUNDS} rounds, in process, keyword search`);
  console.log(
    "\n| endpoint | A: auth off, µs CPU/req | B: --auth, µs CPU/req | B − A µs (median of pairs) | rounds A | rounds B |",
  );
  console.log("|---|---|---|---|---|---|");
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  for (const kind of KINDS) {
    const got: number[][] = [[], []];
    for (const a of apps) await round(kind, a, 1, ids, vocab); // warm up (JIT, caches)
    for (let r = 0; r < ROUNDS; r++)
      for (const i of r % 2 ? [1, 0] : [0, 1]) got[i]!.push(await round(kind, apps[i]!, 100 + r, ids, vocab));
    const [a, b] = got.map(median) as [number, number];
    // Each round of B against the round of A next to it: a neighbour's load moves both alike.
    const pairs = median(got[1]!.map((x, r) => x - got[0]![r]!));
    const f = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(" ");
    console.log(
      `| ${kind} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${pairs.toFixed(1)} | ${f(got[0]!)} | ${f(got[1]!)} |`,
    );
  }
  for (const a of apps) await a.app.close(), await a.services.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
