// What the group commit's keyword-index merge (keyword-upkeep.ts `batchIndexed`) costs an add and saves a
// keyword search: two stores loaded alike in group commits of 16 (100 users), one with the keyword upkeep (its
// idle-time run never starts: quiet time Infinity), one without; then keyword searches on each, then more adds,
// alternating which store goes first. In process, store API only (no HTTP, no embedding): CPU µs per operation.
// Usage: bun scripts/bench-keyword-merge.ts [--memories=100000] [--rounds=6]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "~/shared/logger";
import { openSqliteStore, type SqliteStore } from "~/store/sqlite/sqlite-store";
import { loadVocabulary, makeText, mulberry32 } from "./bench-data";
import { NOW, newMemory } from "../test/support/memory-rows";

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def;
const N = Number(arg("memories", "100000"));
const ROUNDS = Number(arg("rounds", "6"));
const dir = mkdtempSync(join(tmpdir(), "engram-keyword-merge-"));
const vocabulary = await loadVocabulary();
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** `n` adds in group commits of 16 (16 ready in the same turn share one); CPU µs per add. */
async function add(store: SqliteStore, prefix: string, n: number, seed: number): Promise<number> {
  const rnd = mulberry32(seed);
  const start = cpuUs();
  for (let i = 0; i < n; i += 16)
    await Promise.all(
      Array.from({ length: Math.min(16, n - i) }, (_, j) => {
        const k = i + j;
        const m = newMemory(`${prefix}${k}`, makeText(vocabulary, rnd), { user_id: `user-${k % 100}` });
        return store.group((r) => r.memories.insert(m));
      }),
    );
  return (cpuUs() - start) / n;
}

const segments = (s: SqliteStore) =>
  s.db.query<{ n: number }, []>("SELECT count(DISTINCT segid) AS n FROM memories_fts_idx").get()!.n;

const stores: Record<"merged" | "plain", SqliteStore> = {} as never;
try {
  for (const name of ["merged", "plain"] as const) {
    stores[name] = await openSqliteStore({
      path: join(dir, `${name}.db`),
      nativeCacheDir: join(dir, "native"),
      homeOrg: "default",
      logger: silentLogger(),
      keywordUpkeep: name === "merged" ? { quietMs: Number.POSITIVE_INFINITY, maxSegments: 3, stepPages: 32 } : false,
    });
    const us = await add(stores[name], "m", N, 7);
    console.log(
      `${name}: loading ${N} cost ${us.toFixed(1)} µs CPU an add and left ${segments(stores[name])} segments`,
    );
  }
  const qr = mulberry32(99);
  const queries = Array.from({ length: 1000 }, (_, i) => ({
    user: `user-${i % 100}`,
    q: makeText(vocabulary, qr, 2, 5),
  }));
  const results = {
    search: { merged: [] as number[], plain: [] as number[] },
    add: { merged: [] as number[], plain: [] as number[] },
  };
  // All searches first, on the stores as loaded; then the adds.
  for (let round = 0; round < ROUNDS; round++)
    for (const name of round % 2 ? (["merged", "plain"] as const) : (["plain", "merged"] as const)) {
      const start = cpuUs();
      for (const { user, q } of queries)
        await stores[name].read((r) =>
          r.search.keyword({ org: "default", userId: user, sessionId: "", now: NOW, agentId: "a1" }, q, 20),
        );
      results.search[name].push((cpuUs() - start) / queries.length);
    }
  for (let round = 0; round < ROUNDS; round++)
    for (const name of round % 2 ? (["merged", "plain"] as const) : (["plain", "merged"] as const))
      results.add[name].push(await add(stores[name], `r${round}-`, 1000, 1000 + round));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  for (const kind of ["search", "add"] as const)
    for (const name of ["plain", "merged"] as const)
      console.log(
        `${kind === "search" ? "keyword search" : "later add"}, ${name}: median ${median(results[kind][name]).toFixed(0)} µs CPU (${results[kind][name].map((x) => x.toFixed(0)).join(" ")})`,
      );
  console.log(`segments at the end: merged ${segments(stores.merged)}, plain ${segments(stores.plain)}`);
} finally {
  for (const s of Object.values(stores)) await s.close();
  rmSync(dir, { recursive: true, force: true });
}
