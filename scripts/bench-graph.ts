// Usage: bun scripts/bench-graph.ts [entities=100000] [relationships=500000] [samples=300]
// Builds a random graph through the embedded graph in a temporary SQLite store, then reports p50/p99
// latency of traversals (depth 3 in each direction, a filtered one, and deeper worst cases),
// then how long deleting the whole user's graph takes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedGraph } from "~/graph/embedded-graph";
import type { TraverseOptions } from "~/graph/graph-store";
import { openSqliteStore } from "~/store/sqlite/sqlite-store";
import { silentLogger } from "~/shared/logger";

const [entities = 100_000, relationships = 500_000, samples = 300] = process.argv.slice(2).map(Number);
const USER = { org: "default", userId: "bench-user" };
const TYPES = ["KNOWS", "WORKS_WITH", "USES", "LIVES_NEAR", "MENTIONS_TOPIC"];
const BATCH = 5_000;

/** mulberry32: a seeded generator so every run builds the same graph. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ref = (i: number) => ({ type: "node", id: `n${i}` });

async function build(graph: EmbeddedGraph, rand: () => number): Promise<void> {
  for (let i = 0; i < entities; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, entities - i) }, (_, k) => ({
      ...ref(i + k),
      name: `Node ${i + k}`,
    }));
    await graph.upsertEntities(USER, batch);
  }
  for (let i = 0; i < relationships; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, relationships - i) }, () => ({
      from: ref(Math.floor(rand() * entities)),
      type: TYPES[Math.floor(rand() * TYPES.length)]!,
      to: ref(Math.floor(rand() * entities)),
    }));
    await graph.upsertRelationships(USER, batch);
  }
}

async function measure(
  graph: EmbeddedGraph,
  rand: () => number,
  label: string,
  o: Omit<TraverseOptions, "start">,
): Promise<void> {
  const times: number[] = [];
  let reached = 0;
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    const r = await graph.traverse(USER, { ...o, start: ref(Math.floor(rand() * entities)) });
    times.push(performance.now() - t);
    reached += r.entities.length;
  }
  times.sort((a, b) => a - b);
  const pct = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  console.log(
    `${label.padEnd(44)} p50 ${pct(0.5).padStart(8)} ms   p99 ${pct(0.99).padStart(8)} ms   avg entities ${(reached / samples).toFixed(0)}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "engram-bench-graph-"));
try {
  const store = await openSqliteStore({
    path: join(dir, "bench.db"),
    nativeCacheDir: join(dir, "cache"),
    homeOrg: "default",
    logger: silentLogger(),
  });
  const { db } = store;
  const graph = new EmbeddedGraph(store);
  const rand = rng(42);
  const t0 = performance.now();
  await build(graph, rand);
  console.log(
    `built ${entities} entities / ${relationships} relationships in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  db.run("ANALYZE");
  await measure(graph, rand, "depth 3, out, limit 100", { maxDepth: 3, direction: "out" });
  await measure(graph, rand, "depth 3, in, limit 100", { maxDepth: 3, direction: "in" });
  await measure(graph, rand, "depth 3, both, limit 100", { maxDepth: 3, direction: "both" });
  await measure(graph, rand, "depth 3, both, 2 relationship names", {
    maxDepth: 3,
    direction: "both",
    relationships: TYPES.slice(0, 2),
  });
  await measure(graph, rand, "depth 3, both, limit 1000", { maxDepth: 3, direction: "both", limit: 1000 });
  await measure(graph, rand, "depth 5, out, limit 100", { maxDepth: 5, direction: "out" });
  await measure(graph, rand, "depth 10, both, limit 100 (whole graph)", { maxDepth: 10, direction: "both" });
  const t1 = performance.now();
  const removed = await graph.deleteUser(USER);
  console.log(
    `deleteUser removed ${removed} entities (and their relationships) in ${((performance.now() - t1) / 1000).toFixed(2)} s`,
  );
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
