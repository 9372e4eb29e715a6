// sqlite-vec and the portable index answer the same: on one store with the same random vectors, every
// ranking — rowids, order and scores — is identical, under every filter the contract names.
import { afterAll, describe, expect, test } from "bun:test";
import type { MemoryFilter } from "~/store/store";
import { PortableVectorIndex } from "~/store/sqlite/portable-vector-index";
import { VectorIndex } from "~/store/sqlite/vector-index";
import { NOW, row, seed, storeDb, type Memory } from "./vector-index.contract";

/** A small deterministic generator (mulberry32): the same workload on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIMS = 100;
const next = random(20);
const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)]!;
const vector = () => Array.from({ length: DIMS }, () => next() * 2 - 1);

const memories: Memory[] = Array.from({ length: 1200 }, (_, i) => ({
  rowid: i + 1,
  user: pick(["alice", "bob", "carol"]),
  agent: pick(["cursor", "claude"]),
  session: pick(["", "", "s1"]),
  expiresAt: pick([null, null, NOW - 1, NOW + 60_000]),
  metadata: { tags: [pick(["health", "work", "food"])] },
  vector: next() < 0.05 ? null : vector(),
}));

describe("sqlite-vec and the portable index", async () => {
  const db = await storeDb();
  afterAll(() => db.close());
  const vec = VectorIndex.forModel(db, "m", DIMS);
  const portable = PortableVectorIndex.forModel(db, "m", DIMS);
  seed(db, vec, memories);
  db.transaction(() => portable.upsert(memories.map(row))).immediate();

  test("rank the same memories in the same order with the same scores, under every filter", () => {
    let compared = 0;
    for (let i = 0; i < 300; i++) {
      const filter: MemoryFilter = {
        org: "default",
        userId: pick(["alice", "bob", "carol", "dave"]),
        sessionId: pick(["", "s1"]),
        now: NOW,
        ...(next() < 0.3 ? { agentId: pick(["cursor", "claude"]) } : {}),
        ...(next() < 0.2 ? { metadata: { tags: [pick(["health", "work"])] } } : {}),
      };
      const query = new Float32Array(vector());
      const n = pick([1, 5, 20, 100]);
      const expected = vec.rank(filter, query, n);
      expect(portable.rank(filter, query, n)).toEqual(expected);
      compared += expected.length;
    }
    expect(compared).toBeGreaterThan(3000);
  });
});
