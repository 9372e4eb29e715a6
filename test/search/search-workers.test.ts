// Search workers (src/search/rank-pool.ts): ranking on worker threads over their own connections must
// answer exactly what the server thread answers, see every committed write, and keep users apart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../support/app";
import { builtinEmbedder } from "../support/embedders";
import { RankPool } from "~/search/rank-pool";
import { silentLogger } from "~/shared/logger";
import type { SqliteStore } from "~/store/sqlite/sqlite-store";

const WORKER = new URL("../../src/rank-worker.ts", import.meta.url).href;

const dir = mkdtempSync(join(tmpdir(), "engram-workers-"));
const store = `sqlite://${join(dir, "engram.db")}`;
let pooled: TestApp;
let inThread: TestApp;

const MEMORIES = [
  "I adopted a golden retriever puppy named Biscuit last spring",
  "My sister lives in Lisbon and teaches chemistry",
  "Do you remember where we had dinner on my birthday?",
  "We had dinner at the little Thai place by the river",
  "The quarterly report is due on the first Friday of March",
  "I switched from coffee to green tea because of my sleep",
  "Our team moved the standup meeting to half past nine",
  "My favourite hiking trail goes up to the old lighthouse",
];
const QUERIES = [
  "what dog do I have",
  "where does my sister live",
  "birthday dinner",
  "deadline for the report",
  "morning drink",
  "meeting time",
  "walks outdoors",
];

const search = async (t: TestApp, body: Record<string, unknown>) => t.post("/search_memory", body);

beforeAll(async () => {
  pooled = await buildTestApp({ options: { storeUrl: store, searchWorkers: 2 }, embedder: builtinEmbedder() });
  inThread = await buildTestApp({ options: { storeUrl: store, searchWorkers: 0 }, embedder: builtinEmbedder() });
  for (const [i, memory] of MEMORIES.entries())
    await pooled.post("/add_memories", { user_id: "alice", memory, agent_id: i % 2 ? "editor" : "chat" });
  await pooled.post("/add_memories", { user_id: "bob", memory: "bob keeps a parrot called Captain" });
});
afterAll(async () => {
  await pooled.close();
  await inThread.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("search workers", () => {
  test("the server ranks with two workers when asked to, and says so in /metrics", async () => {
    expect((await pooled.get("/metrics")).body.search_workers).toBe(2);
    expect((await inThread.get("/metrics")).body.search_workers).toBe(0);
    expect((await pooled.get("/metrics", { accept: "text/plain" })).body).toContain("engram_search_workers 2");
  });

  test("the server leaves the WAL's checkpoints to its workers; without workers its own commits checkpoint", () => {
    const autocheckpoint = (t: TestApp) =>
      (t.services.store as SqliteStore).db.query<{ wal_autocheckpoint: number }, []>("PRAGMA wal_autocheckpoint").get()!
        .wal_autocheckpoint;
    expect(autocheckpoint(pooled)).toBe(10_000);
    expect(autocheckpoint(inThread)).toBe(1000);
  });

  test("answer every query exactly as ranking on the server thread does", async () => {
    for (const query of QUERIES) {
      for (const extra of [{}, { agent_id: "chat" }, { limit: 3 }]) {
        const a = await search(pooled, { user_id: "alice", query, ...extra });
        const b = await search(inThread, { user_id: "alice", query, ...extra });
        expect(a.status).toBe(200);
        expect(a.body).toEqual(b.body);
      }
    }
    const dog = await search(pooled, { user_id: "alice", query: "my puppy", limit: 1 });
    expect(dog.body.results.map((r: any) => r.memory)).toEqual([MEMORIES[0]]);
  });

  test("see a memory the moment it is stored, and never again once it is deleted", async () => {
    const added = await pooled.post("/add_memories", {
      user_id: "carol",
      memory: "carol's locker code is under the desk mat",
    });
    const id = added.body.memory_ids[0];
    expect(
      (await search(pooled, { user_id: "carol", query: "locker code" })).body.results.map((r: any) => r.id),
    ).toEqual([id]);
    await pooled.request("DELETE", `/delete_memory?memory_id=${id}&user_id=carol`);
    expect((await search(pooled, { user_id: "carol", query: "locker code" })).body.results).toEqual([]);
  });

  test("never leave a result cached that misses a write answered meanwhile", async () => {
    for (let i = 0; i < 20; i++) {
      const memory = `dana's reminder number ${i} about the garden hose`;
      const [, added] = await Promise.all([
        search(pooled, { user_id: "dana", query: "garden hose reminder", limit: 50 }),
        pooled.post("/add_memories", { user_id: "dana", memory }),
      ]);
      expect(added.status).toBe(200);
      const after = await search(pooled, { user_id: "dana", query: "garden hose reminder", limit: 50 });
      expect(after.body.results.map((r: any) => r.memory)).toContain(memory);
    }
  });

  test("are replaced when one stops; a search meanwhile is answered or told to retry, never left hanging", async () => {
    const pool = (pooled.services.search as any).pool as RankPool;
    const slots = (pool as any).slots as { worker: Worker }[];
    const [first] = slots;
    const replaced = pool.nextReplacement();
    first!.worker.terminate();
    // Sent to the stopping worker before its loss is seen, a search fails with 503 (by design); otherwise it is ranked.
    const during = await search(pooled, { user_id: "alice", query: "my puppy", limit: 1 });
    if (during.status === 503)
      expect(during.body).toEqual({ success: false, error: "a search worker stopped; retry", code: "UNAVAILABLE" });
    else expect(during.body.results.map((r: any) => r.memory)).toEqual([MEMORIES[0]]);
    await replaced;
    expect(pool.size).toBe(2);
    expect(slots).not.toContain(first);
    expect(
      (await search(pooled, { user_id: "alice", query: "my puppy", limit: 1 })).body.results.map((r: any) => r.memory),
    ).toEqual([MEMORIES[0]]);
  });

  test("never return another user's memories", async () => {
    // Vector KNN always finds bob's nearest memories: his own, and only his.
    const res = await search(pooled, { user_id: "bob", query: "golden retriever puppy dinner Lisbon" });
    expect(res.body.results.map((r: any) => r.memory)).toEqual(["bob keeps a parrot called Captain"]);
    const mallory = await search(pooled, { user_id: "mallory", query: "parrot Captain" });
    expect(mallory.body).toEqual({ results: [] });
  });

  test("report a bad filter with the same envelope as the server thread", async () => {
    const body = { user_id: "alice", query: "dinner", metadata: { 'a"b': 1 } };
    const a = await search(pooled, body);
    expect(a.status).toBe(400);
    expect(a.body).toEqual((await search(inThread, body)).body);
    expect(a.body.code).toBe("VALIDATION_ERROR");
  });

  test("fail a search still waiting when they are closed, instead of leaving it hanging", async () => {
    const pool = await RankPool.open({
      workerUrl: WORKER,
      size: 1,
      path: join(dir, "engram.db"),
      nativeCacheDir: join(dir, "cache"),
      logger: silentLogger(),
    });
    const req = {
      filter: { org: "default", userId: "alice", sessionId: "", now: Date.now() },
      query: "dinner",
      terms: [{ word: "dinner", typo: false }],
      vector: null,
      vectors: null,
      limit: 5,
      vectorOnly: false,
      replyShare: 0,
    };
    expect((await pool.rank(req)).map((h) => h.memory)).toEqual([MEMORIES[2]!, MEMORIES[3]!]);
    const waiting = pool.rank(req);
    await pool.close();
    await expect(waiting).rejects.toMatchObject({ code: "UNAVAILABLE", message: "the server is shutting down" });
    await expect(pool.rank(req)).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });

  test("that cannot open the store make opening the pool fail with the reason", async () => {
    const open = RankPool.open({
      workerUrl: WORKER,
      size: 1,
      path: join(dir, "missing", "no.db"),
      nativeCacheDir: join(dir, "cache"),
      logger: silentLogger(),
    });
    await expect(open).rejects.toThrow(
      `search worker could not open the store: no store at ${join(dir, "missing", "no.db")}`,
    );
  });
});
