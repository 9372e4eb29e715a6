// Load generator, run as its own process by scripts/bench.ts so the client does not share the
// server's CPU accounting: closed loop, fixed concurrency, fixed duration; prints JSON stats.
// Usage: bun scripts/bench-load.ts spec.json   (spec: {urls, kind, concurrency, durationMs, users, seed, ids?, keys?})
// With several URLs (nodes on one store) each request goes to the next one in turn (round-robin).
import { loadVocabulary, makeText, mulberry32 } from "./bench-data";

interface Spec {
  urls: string[];
  kind: "add" | "search" | "list" | "get";
  concurrency: number;
  durationMs: number;
  users: number;
  seed?: number;
  ids?: [string, string][];
  /** With auth on (bench --auth): each user's member key, sent as `Authorization: Bearer` with its requests. */
  keys?: Record<string, string>;
}
const spec = JSON.parse(await Bun.file(process.argv[2]!).text()) as Spec;
const vocab = await loadVocabulary();
if (spec.kind === "get" && !spec.ids?.length) throw new Error("a get run needs ids in its spec");
// Each run of a bench has its own seed: a second search run with the first one's queries would be served by the result cache.
const rnd = mulberry32(spec.seed ?? 42);
const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
const user = () => `user-${Math.floor(rnd() * spec.users)}`;
const auth = (user: string): Record<string, string> =>
  spec.keys ? { authorization: `Bearer ${spec.keys[user]}` } : {};
const json = (user: string) => ({ "content-type": "application/json", ...auth(user) });
let turn = 0;

function request(): Promise<Response> {
  const url = spec.urls[turn++ % spec.urls.length];
  switch (spec.kind) {
    case "add": {
      const u = user();
      return fetch(`${url}/add_memories`, {
        method: "POST",
        headers: json(u),
        body: JSON.stringify({
          user_id: u,
          agent_id: `agent-${Math.floor(rnd() * 4)}`,
          memory: makeText(vocab, rnd),
        }),
      });
    }
    case "search": {
      const u = user();
      return fetch(`${url}/search_memory`, {
        method: "POST",
        headers: json(u),
        body: JSON.stringify({ user_id: u, query: makeText(vocab, rnd, 2, 6), limit: 10 }),
      });
    }
    case "list": {
      const u = user();
      return fetch(`${url}/list_memories?user_id=${u}&limit=20`, { headers: auth(u) });
    }
    case "get": {
      const [u, id] = pick(spec.ids!);
      return fetch(`${url}/get_memory?memory_id=${id}&user_id=${u}`, { headers: auth(u) });
    }
  }
}

const latencies: number[] = [];
let errors = 0;
const end = performance.now() + spec.durationMs;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: spec.concurrency }, async () => {
    while (performance.now() < end) {
      const s = performance.now();
      try {
        const res = await request();
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - s);
    }
  }),
);
const elapsed = (performance.now() - t0) / 1000;
latencies.sort((a, b) => a - b);
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
console.log(
  JSON.stringify({
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
  }),
);
