// The whole server on the portable vector index (ENGRAM_VECTOR_INDEX=portable, as on a Mac whose SQLite
// cannot load sqlite-vec): search over HTTP, search workers, erasure on disk, and a store moving between
// the two indexes.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../support/app";
import { builtinEmbedder, LetterEmbedder } from "../support/embedders";
import { tempDir } from "../support/server-process";
import { dbOf } from "../support/store";

let t: TestApp | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const storeFile = () => {
  const dir = tempDir("engram-portable-");
  dirs.push(dir);
  return join(dir, "engram.db");
};

const PUPPY = "I adopted a golden retriever puppy last week";
const texts = [PUPPY, "The quarterly budget review is on Thursday", "I am allergic to peanuts and shellfish"];
/** The vector indexes' own tables (vec0 tables and portable chunk tables with their rowid maps). */
const tables = (t: TestApp) =>
  dbOf(t)
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r) => r.name)
    .filter((name) => /^vecs?_[0-9a-f]{12}_\d+(_c\d+)?(_org)?(_rowids)?$/.test(name));

describe("the server on the portable vector index", () => {
  test("finds a memory by paraphrase over HTTP, only the user's own, and says which index it uses", async () => {
    t = await buildTestApp({ options: { vectorIndex: "portable" }, embedder: builtinEmbedder() });
    for (const memory of texts) await t.post("/add_memories", { user_id: "u", memory });
    await t.post("/add_memories", { user_id: "other", memory: "My new dog loves the park" });
    const r = await t.post("/search_memory", { user_id: "u", query: "new dog", limit: 1 });
    expect(r.status).toBe(200);
    expect(r.body.results.map((x: any) => x.memory)).toEqual([PUPPY]);
    expect((await t.get("/health")).body.search).toEqual({
      mode: "hybrid",
      model: "engram/glove-sif",
      state: "ready",
      vector_index: "portable",
    });
    // sqlite-vec was never loaded on this connection.
    expect(() => dbOf(t!).query("SELECT vec_version()").get()).toThrow("no such function: vec_version");
    expect(tables(t)).toEqual([
      expect.stringMatching(/^vecs_[0-9a-f]{12}_100_org$/),
      expect.stringMatching(/_rowids$/),
    ]);
  });

  test("writing vectors leaves the connection zeroing what every later delete frees (secure_delete stays ON)", async () => {
    t = await buildTestApp({ options: { vectorIndex: "portable" }, embedder: builtinEmbedder() });
    for (const memory of texts) await t.post("/add_memories", { user_id: "u", memory });
    expect(tables(t)).toHaveLength(2);
    // 1 = ON (zero every freed page), 2 = FAST (only what costs no extra write: an erased text could stay readable).
    expect(dbOf(t).query("PRAGMA secure_delete").get()).toEqual({ secure_delete: 1 });
  });

  test("search workers rank on the portable index too", async () => {
    t = await buildTestApp({
      options: { vectorIndex: "portable", storeUrl: `sqlite://${storeFile()}`, searchWorkers: 1 },
      embedder: builtinEmbedder(),
    });
    for (const memory of texts) await t.post("/add_memories", { user_id: "u", memory });
    const r = await t.post("/search_memory", { user_id: "u", query: "new dog", limit: 1 });
    expect(r.body.results.map((x: any) => x.memory)).toEqual([PUPPY]);
    expect(t.services.search.workers).toBe(1);
  });

  test("a deleted memory's vector bytes are gone from the store file", async () => {
    const path = storeFile();
    t = await buildTestApp({
      options: { vectorIndex: "portable", storeUrl: `sqlite://${path}`, searchWorkers: 0 },
      embedder: builtinEmbedder(),
    });
    const secret = "my bank PIN is in the blue notebook";
    const id = (await t.post("/add_memories", { user_id: "u", memory: secret })).body.memory_ids[0];
    for (const memory of texts) await t.post("/add_memories", { user_id: "u", memory });
    const [vector] = (await t.services.search.embed([secret]))!.vectors;
    const bytes = Buffer.from(vector!.buffer);
    const inFile = async () => {
      dbOf(t!).run("PRAGMA wal_checkpoint(TRUNCATE)");
      return Buffer.from(await Bun.file(path).arrayBuffer()).includes(bytes);
    };
    expect(await inFile()).toBe(true);
    expect((await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`)).status).toBe(200);
    expect(await inFile()).toBe(false);
    expect((await t.post("/search_memory", { user_id: "u", query: "new dog", limit: 1 })).body.results[0].memory).toBe(
      PUPPY,
    );
  });
});

describe("a store moving between the vector indexes", () => {
  test("sqlite-vec's vectors cannot be read without it: the memories are embedded again into the portable index", async () => {
    const storeUrl = `sqlite://${storeFile()}`;
    t = await buildTestApp({ options: { storeUrl, searchWorkers: 0 }, embedder: new LetterEmbedder() });
    for (const memory of texts) await t.post("/add_memories", { user_id: "u", memory });
    await t.close();
    const letters = new LetterEmbedder();
    t = await buildTestApp({ options: { storeUrl, searchWorkers: 0, vectorIndex: "portable" }, embedder: letters });
    expect(await t.services.search.reembedMissing()).toBe(3);
    const r = await t.post("/search_memory", { user_id: "u", query: "peanuts shellfish", limit: 1 });
    expect(r.body.results[0].memory).toBe("I am allergic to peanuts and shellfish");
  });

  test("back on sqlite-vec, the portable index's vectors move over without embedding again, and it is dropped", async () => {
    const storeUrl = `sqlite://${storeFile()}`;
    t = await buildTestApp({ options: { storeUrl, searchWorkers: 0 }, embedder: new LetterEmbedder() });
    await t.post("/add_memories", {
      user_id: "u",
      memory: "written on sqlite-vec, then deleted on the portable index",
    });
    await t.close();
    t = await buildTestApp({
      options: { storeUrl, searchWorkers: 0, vectorIndex: "portable" },
      embedder: new LetterEmbedder(),
    });
    await t.services.search.reembedMissing();
    await t.post("/delete_all_memories", { user_id: "u" });
    for (const memory of texts) await t.post("/add_memories", { user_id: "u", memory });
    await t.close();
    const letters = new LetterEmbedder();
    t = await buildTestApp({ options: { storeUrl, searchWorkers: 0 }, embedder: letters });
    const calls = letters.calls;
    expect(await t.services.search.reembedMissing()).toBe(0);
    expect(letters.calls).toBe(calls);
    expect(tables(t).filter((n) => n.startsWith("vecs_"))).toEqual([]);
    const r = await t.post("/search_memory", { user_id: "u", query: "quarterly budget", limit: 5 });
    expect(r.body.results.map((x: any) => x.memory)).toContain("The quarterly budget review is on Thursday");
    // The vec0 table kept from the first start was erased before the move: the deleted memory is not in it.
    const count = dbOf(t)
      .query<{ n: number }, []>(`SELECT count(*) AS n FROM ${tables(t)[0]}`)
      .get()!.n;
    expect(count).toBe(3);
  });
});
