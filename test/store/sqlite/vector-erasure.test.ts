// Vectors of deleted memories are erased from every model's vec0 table: a small delete inside its own
// transaction, a bulk one through the `vector_erasures` queue right after it, and what a crash left
// queued at the next start.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../../support/app";
import { LetterEmbedder } from "../../support/embedders";
import { openDb, type Db } from "~/store/sqlite/connection";
import { INLINE_ERASE, VectorErasure } from "~/store/sqlite/vector-erasure";
import { Turns } from "~/store/sqlite/turns";
import { silentLogger } from "~/shared/logger";
import { dbOf } from "../../support/store";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const storeFile = () => join(mkdtempSync(join(tmpdir(), "engram-erase-")), "engram.db");
const vecTables = (db: Db) =>
  db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING vec0(%'",
    )
    .all()
    .map((r) => r.name);
const vectorRowids = (db: Db, table: string) =>
  db
    .query<{ rowid: number }, []>(`SELECT rowid FROM ${table} ORDER BY rowid`)
    .all()
    .map((r) => r.rowid);
const rowidsOf = (db: Db, user: string) =>
  db
    .query<{ rowid: number }, [string]>("SELECT rowid FROM memories WHERE user_id = ? ORDER BY rowid")
    .all(user)
    .map((r) => r.rowid);

async function addMany(app: TestApp, user: string, n: number): Promise<void> {
  for (let i = 0; i < n; i += 100)
    await app.post("/add_memories", {
      user_id: user,
      messages: Array.from({ length: Math.min(100, n - i) }, (_, k) => ({
        role: "user",
        content: `${user} note number ${i + k}`,
      })),
    });
}

describe("vector erasure", () => {
  test("a bulk delete_all erases every vector of the user and none of anyone else's", async () => {
    t = await buildTestApp({ embedder: new LetterEmbedder() });
    await addMany(t, "alice", INLINE_ERASE + 50);
    await addMany(t, "bob", 3);
    const [table] = vecTables(dbOf(t));
    const bob = rowidsOf(dbOf(t), "bob");
    const res = await t.post("/delete_all_memories", { user_id: "alice" });
    expect(res.body).toEqual({ success: true, deleted_count: INLINE_ERASE + 50 });
    await t.services.search.erasure.settled();
    expect(vectorRowids(dbOf(t), table!)).toEqual(bob);
    expect(t.services.search.erasure.pending).toBe(0);
    expect((await t.get("/metrics")).body.vector_erasures_pending).toBe(0);
  });

  test("a small delete erases its vectors before it answers", async () => {
    t = await buildTestApp({ embedder: new LetterEmbedder() });
    await addMany(t, "alice", 5);
    const [table] = vecTables(dbOf(t));
    await t.post("/delete_all_memories", { user_id: "alice" });
    expect(vectorRowids(dbOf(t), table!)).toEqual([]);
  });

  test("what a crash left queued is erased at the next start", async () => {
    const path = storeFile();
    t = await buildTestApp({
      options: { storeUrl: `sqlite://${path}`, searchWorkers: 0 },
      embedder: new LetterEmbedder(),
    });
    await addMany(t, "alice", 4);
    const rowids = rowidsOf(dbOf(t), "alice");
    const [table] = vecTables(dbOf(t));
    await t.close();
    // As a process killed between the deleting transaction and the erasure leaves it:
    const db = await openDb(path, { nativeCacheDir: join(path, "..", "native") });
    db.transaction(() => {
      db.run("DELETE FROM memories WHERE user_id = 'alice'");
      db.query("INSERT INTO vector_erasures (memory_rowid) SELECT value FROM json_each(?)").run(JSON.stringify(rowids));
    })();
    expect(vectorRowids(db, table!)).toEqual(rowids);
    db.close();
    t = await buildTestApp({
      options: { storeUrl: `sqlite://${path}`, searchWorkers: 0 },
      embedder: new LetterEmbedder(),
    });
    await t.services.search.erasure.settled();
    expect(vectorRowids(dbOf(t), table!)).toEqual([]);
    expect(t.services.search.erasure.pending).toBe(0);
  });

  test("a read-only connection (a search worker's) never erases what is queued; the server's erases it at once", async () => {
    const path = storeFile();
    t = await buildTestApp({
      options: { storeUrl: `sqlite://${path}`, searchWorkers: 0 },
      embedder: new LetterEmbedder(),
    });
    await addMany(t, "alice", 3);
    const [table] = vecTables(dbOf(t));
    const rowids = rowidsOf(dbOf(t), "alice");
    await t.close();
    t = undefined;
    const db = await openDb(path, { nativeCacheDir: join(path, "..", "native") });
    db.run("DELETE FROM memories WHERE user_id = 'alice'");
    db.query("INSERT INTO vector_erasures (memory_rowid) SELECT value FROM json_each(?)").run(JSON.stringify(rowids));
    const reader = new VectorErasure(db, new Turns(), silentLogger(), "sqlite-vec", false);
    reader.schedule();
    await reader.settled();
    await reader.finish();
    expect(vectorRowids(db, table!)).toEqual(rowids);
    expect(reader.pending).toBe(3);
    const writer = new VectorErasure(db, new Turns(), silentLogger(), "sqlite-vec", true);
    await writer.settled();
    expect(vectorRowids(db, table!)).toEqual([]);
    expect(writer.pending).toBe(0);
    db.close();
  });

  test("a memory's vectors under an earlier model are erased too", async () => {
    const path = storeFile();
    const letters = new LetterEmbedder();
    t = await buildTestApp({ options: { storeUrl: `sqlite://${path}`, searchWorkers: 0 }, embedder: letters });
    await addMany(t, "alice", 2);
    const [oldTable] = vecTables(dbOf(t));
    await t.close();
    // The same store under another model (same dimension, other id): the old table stays behind.
    const other = Object.assign(new LetterEmbedder(), { modelId: "test/letters-v2" });
    t = await buildTestApp({ options: { storeUrl: `sqlite://${path}`, searchWorkers: 0 }, embedder: other });
    expect(await t.services.search.reembedMissing()).toBe(2);
    expect(vecTables(dbOf(t))).toHaveLength(2);
    await t.post("/delete_all_memories", { user_id: "alice" });
    for (const table of vecTables(dbOf(t))) expect(vectorRowids(dbOf(t), table)).toEqual([]);
    expect(vecTables(dbOf(t))).toContain(oldTable!);
  });
});
