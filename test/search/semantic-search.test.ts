// Semantic and hybrid search through the HTTP API with the real built-in model.
import { afterEach, describe, expect, test } from "bun:test";
import { relevance } from "~/search/relevance";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../support/app";
import { builtinEmbedder, BrokenEmbedder, LetterEmbedder } from "../support/embedders";
import { tempDir } from "../support/server-process";
import { dbOf } from "../support/store";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const texts = [
  "I adopted a golden retriever puppy last week",
  "My sister lives in Toronto and works as a nurse",
  "The quarterly budget review is on Thursday",
  "I am allergic to peanuts and shellfish",
  "We are planning a trip to the mountains for skiing",
];

describe("semantic search with the built-in model", () => {
  test("finds a memory by a paraphrase that shares no word with it", async () => {
    t = await buildTestApp({ embedder: builtinEmbedder() });
    for (const memory of texts) await t.post("/add_memories", { user_id: "u", memory });
    const r = await t.post("/search_memory", { user_id: "u", query: "new dog", limit: 1 });
    expect(r.body.results.map((x: any) => x.memory)).toEqual(["I adopted a golden retriever puppy last week"]);
    const food = await t.post("/search_memory", { user_id: "u", query: "food intolerance", limit: 1 });
    expect(food.body.results.map((x: any) => x.memory)).toEqual(["I am allergic to peanuts and shellfish"]);
    expect((await t.get("/health")).body.search).toEqual({
      mode: "hybrid",
      model: "engram/glove-sif",
      state: "ready",
      vector_index: "sqlite-vec",
    });
  });

  test("keeps semantic results inside the user, agent and session filters", async () => {
    t = await buildTestApp({ embedder: builtinEmbedder() });
    await t.post("/add_memories", { user_id: "other", memory: "I adopted a puppy" });
    await t.post("/add_memories", { user_id: "u", memory: "I adopted a kitten", agent_id: "a1" });
    await t.post("/add_memories", { user_id: "u", memory: "My dog chews shoes", session_id: "s1" });
    const r = await t.post("/search_memory", { user_id: "u", query: "pet animal" });
    expect(r.body.results.map((x: any) => x.memory)).toEqual(["I adopted a kitten"]);
    const s = await t.post("/search_memory", { user_id: "u", query: "pet animal", session_id: "s1" });
    expect(s.body.results.map((x: any) => x.memory)).toEqual(["My dog chews shoes"]);
    const a = await t.post("/search_memory", { user_id: "u", query: "pet animal", agent_id: "a2" });
    expect(a.body.results).toEqual([]);
  });

  test("a memory of only unknown words is stored without a vector and found by keyword", async () => {
    t = await buildTestApp({ embedder: builtinEmbedder() });
    await t.post("/add_memories", { user_id: "u", memory: "zqxvj wqpfk" });
    const r = await t.post("/search_memory", { user_id: "u", query: "wqpfk" });
    expect(r.body.results).toHaveLength(1);
    // No known word in the query either: no query vector, so the keyword-only calibration scores it.
    expect(r.body.results[0].score).toBe(relevance(null, 1));
    const none = await t.post("/search_memory", { user_id: "u", query: "zzzzzq" });
    expect(none.body.results).toEqual([]);
  });

  test("repeated query embeddings come from the cache", async () => {
    t = await buildTestApp({ embedder: builtinEmbedder() });
    await t.post("/add_memories", { user_id: "u", memory: "hello" });
    await t.post("/search_memory", { user_id: "u", query: "greeting" });
    await t.post("/add_memories", { user_id: "u", memory: "hello again" });
    await t.post("/search_memory", { user_id: "u", query: "greeting" });
    expect(t.services.search.queryCacheHits).toBe(1);
  });
});

describe("degradation is visible", () => {
  test("a model that cannot load turns health degraded and search keyword-only", async () => {
    t = await buildTestApp({ embedder: new BrokenEmbedder() });
    const h = await t.get("/health");
    expect(h.body).toEqual({
      status: "degraded",
      version: "0.1.0",
      store: { kind: "sqlite", reachable: true },
      search: {
        mode: "keyword",
        model: "test/broken",
        state: "failed",
        error: "model test/broken not found in /nowhere and remote download is disabled",
        vector_index: "sqlite-vec",
      },
    });
    await t.post("/add_memories", { user_id: "u", memory: "still stored" });
    expect((await t.post("/search_memory", { user_id: "u", query: "stored" })).body.results).toHaveLength(1);
    const m = await t.get("/metrics");
    expect(m.body).toMatchObject({ search_mode: "keyword", embedding_model: "test/broken", embedding_state: "failed" });
  });
});

describe("changing the model", () => {
  test("re-embeds existing memories in the background and never mixes dimensions", async () => {
    const store = `sqlite://${join(tempDir(), "switch.db")}`;
    t = await buildTestApp({ options: { storeUrl: store }, embedder: builtinEmbedder() });
    for (const memory of texts) await t.post("/add_memories", { user_id: "u", memory });
    await t.close();
    const letters = new LetterEmbedder();
    t = await buildTestApp({ options: { storeUrl: store }, embedder: letters });
    // Before re-embedding, the old memories are still found by keyword.
    expect((await t.post("/search_memory", { user_id: "u", query: "budget" })).body.results).toHaveLength(1);
    const before = letters.calls;
    expect(await t.services.search.reembedMissing(2)).toBe(5);
    expect(t.services.search.status().reembed).toEqual({ pending: 0, done: 5 });
    expect(letters.calls - before).toBe(5);
    const r = await t.post("/search_memory", { user_id: "u", query: "Toronto nurse sister", limit: 1 });
    expect(r.body.results[0].memory).toBe("My sister lives in Toronto and works as a nurse");
    expect(await t.services.search.reembedMissing()).toBe(0);
  });
});

describe("deletes that delete", () => {
  test("a deleted memory leaves no embedding behind in sqlite-vec's chunk storage", async () => {
    t = await buildTestApp({ embedder: builtinEmbedder() });
    const id = (await t.post("/add_memories", { user_id: "u", memory: "my bank PIN is in the blue notebook" })).body
      .memory_ids[0];
    await t.post("/add_memories", { user_id: "u", memory: "keep this one" });
    const db = dbOf(t);
    const table = (
      db.query("SELECT name FROM sqlite_master WHERE name LIKE 'vec%' AND sql LIKE '%vec0%'").get() as { name: string }
    ).name;
    const [vector] = (await t.services.search.embed(["my bank PIN is in the blue notebook"]))!.vectors;
    const bytes = Buffer.from(vector!.buffer);
    const chunks = () =>
      db
        .query<{ vectors: Uint8Array }, []>(`SELECT vectors FROM ${table}_vector_chunks00`)
        .all()
        .map((r) => Buffer.from(r.vectors));
    expect(chunks().some((c) => c.includes(bytes))).toBe(true);
    await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`);
    expect(chunks().some((c) => c.includes(bytes))).toBe(false);
    expect((await t.post("/search_memory", { user_id: "u", query: "keep" })).body.results).toHaveLength(1);
  });
});

describe("deletes that delete, on disk", () => {
  test("a deleted memory's text is not left readable in the database file", async () => {
    const path = join(tempDir(), "secure.db");
    t = await buildTestApp({ options: { storeUrl: `sqlite://${path}` } });
    const secret = "the vault code is 7741-alpha-omega";
    const id = (await t.post("/add_memories", { user_id: "u", memory: secret })).body.memory_ids[0];
    for (let i = 0; i < 20; i++) await t.post("/add_memories", { user_id: "u", memory: `filler memory number ${i}` });
    await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`);
    dbOf(t).run("PRAGMA wal_checkpoint(TRUNCATE)");
    const file = Buffer.from(await Bun.file(path).arrayBuffer());
    expect(file.includes(Buffer.from(secret))).toBe(false);
  });
});
