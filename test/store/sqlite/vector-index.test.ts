// The vec0 table of a model: how sqlite-vec finds a user's vectors, the chunk layout, and the one-time
// moves of a store written with an earlier layout (1,024-slot chunks; partitions by user id alone).
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, type Db } from "~/store/sqlite/connection";
import { CHUNK_SLOTS, VectorIndex } from "~/store/sqlite/vector-index";
import { buildTestApp, type TestApp } from "../../support/app";
import { LetterEmbedder } from "../../support/embedders";
import { dbOf } from "../../support/store";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The user of each vector: the partition of an earlier layout is the user id, the current one's the owner. */
const USER_OF_OWNER = "json_extract(owner, '$[1]')";
const vectors = (db: Db, table: string, user = USER_OF_OWNER) =>
  db
    .query(
      `SELECT rowid, ${user} AS user_id, vec_to_json(embedding) AS embedding, agent_id, session_id, expires_at FROM ${table} ORDER BY rowid`,
    )
    .all();
/** A table of the layouts before organizations: partitioned by user id. */
const USER_LAYOUT = (table: string, chunks = "") =>
  `CREATE VIRTUAL TABLE ${table} USING vec0(user_id TEXT PARTITION KEY, embedding FLOAT[26] distance_metric=cosine, agent_id TEXT, session_id TEXT, expires_at INTEGER${chunks})`;
const rowidsOf = (db: Db, user: string) =>
  db
    .query<{ rowid: number }, [string]>("SELECT rowid FROM memories WHERE user_id = ? ORDER BY rowid")
    .all(user)
    .map((r) => r.rowid);

describe("vector index", () => {
  test("a user's chunks are found through an index, not by reading every user's chunks", async () => {
    const db = await openDb(":memory:", { nativeCacheDir: "/tmp/engram-test-native" });
    const { table } = VectorIndex.forModel(db, "m", 4);
    // The statement sqlite-vec 0.1.9 runs for a KNN inside one partition (its text is in vec0.so).
    const plan = db
      .query<{ detail: string }, [string]>(
        `EXPLAIN QUERY PLAN select chunk_id, validity, rowids from "main"."${table}_chunks" WHERE partition00 = ?`,
      )
      .all("u");
    expect(plan.map((p) => p.detail)).toEqual([
      `SEARCH main.${table}_chunks USING INDEX ${table}_chunks_by_user (partition00=?)`,
    ]);
    db.close();
  });

  test("a user's first memory takes one chunk of 256 slots", async () => {
    t = await buildTestApp({ embedder: new LetterEmbedder() });
    await t.post("/add_memories", { user_id: "alice", memory: "a single memory" });
    const db = dbOf(t);
    const [table] = VectorIndex.tables(dbOf(t)) as [string];
    expect(table).toMatch(/^vec_[0-9a-f]{12}_26_c256_org$/);
    expect(db.query(`SELECT length(vectors) AS bytes FROM ${table}_vector_chunks00`).all()).toEqual([
      { bytes: CHUNK_SLOTS * 26 * 4 },
    ]);
  });

  test("a store of the earlier layout has its live vectors moved at start, and finds the same memories", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "engram-vec-")), "engram.db");
    const options = { storeUrl: `sqlite://${path}`, searchWorkers: 0 };
    t = await buildTestApp({ options, embedder: new LetterEmbedder() });
    await t.post("/add_memories", {
      user_id: "alice",
      agent_id: "chat",
      messages: ["I keep bees on the roof", "My bike is a blue racer", "Lunch was a quick salad"].map((content) => ({
        role: "user",
        content,
      })),
    });
    const bob = await t.post("/add_memories", {
      user_id: "bob",
      session_id: "s1",
      messages: [{ role: "user", content: "bob plays the cello" }],
      metadata: { temporary: true, expiresAt: Date.UTC(2027, 0, 1) },
    });
    expect(bob.status).toBe(200);
    const search = async () =>
      (await t!.post("/search_memory", { user_id: "alice", query: "blue bike", limit: 3 })).body.results.map(
        (r: any) => r.memory,
      );
    const before = await search();
    const [table] = VectorIndex.tables(dbOf(t)) as [string];
    const earlier = table.replace(/_c256_org$/, "");
    const [gone] = rowidsOf(dbOf(t), "alice");
    await t.close();
    t = undefined;

    // The same store as the earlier layout left it, with a crash between a delete and its erasure.
    const db = await openDb(path, { nativeCacheDir: join(path, "..", "native") });
    db.run(USER_LAYOUT(earlier));
    db.run(
      `INSERT INTO ${earlier} (rowid, user_id, embedding, agent_id, session_id, expires_at) SELECT rowid, ${USER_OF_OWNER}, embedding, agent_id, session_id, expires_at FROM ${table}`,
    );
    db.run(`DROP TABLE ${table}`);
    db.run(`DELETE FROM memories WHERE rowid = ${gone}`);
    db.run(`INSERT INTO vector_erasures (memory_rowid) VALUES (${gone})`);
    const live = (vectors(db, earlier, "user_id") as { rowid: number }[]).filter((v) => v.rowid !== gone);
    expect(live).toHaveLength(3);
    expect(live.find((v: any) => v.user_id === "bob")).toMatchObject({
      session_id: "s1",
      expires_at: Date.UTC(2027, 0, 1),
    });
    db.close();

    t = await buildTestApp({ options, embedder: new LetterEmbedder() });
    await t.services.search.erasure.settled();
    expect(VectorIndex.tables(dbOf(t))).toEqual([table]);
    expect(vectors(dbOf(t), table)).toEqual(live);
    expect(await search()).toEqual(before.filter((m: string) => m !== "I keep bees on the roof"));
  });
  test("a store that went back to the earlier layout and forward again keeps no vector the earlier version left stale", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "engram-vec-")), "engram.db");
    const options = { storeUrl: `sqlite://${path}`, searchWorkers: 0 };
    const embedder = new LetterEmbedder();
    t = await buildTestApp({ options, embedder });
    await t.post("/add_memories", {
      user_id: "alice",
      messages: ["I keep bees on the roof", "My bike is a blue racer", "Lunch was a quick salad"].map((content) => ({
        role: "user",
        content,
      })),
    });
    const [table] = VectorIndex.tables(dbOf(t)) as [string];
    const earlier = table.replace(/_c256_org$/, "");
    const [untouched, rewritten, deleted] = rowidsOf(dbOf(t), "alice") as [number, number, number];
    await t.close();
    t = undefined;

    // What an Engram of the earlier layout leaves. It writes only its own table (here: a new vector for one
    // memory) and erases nothing from the one it does not know: alice's last memory was deleted, and bob
    // has a new memory without a vector yet.
    const db = await openDb(path, { nativeCacheDir: join(path, "..", "native") });
    db.run(USER_LAYOUT(earlier));
    const newer = [1, ...Array(25).fill(0)];
    db.query(
      `INSERT INTO ${earlier} (rowid, user_id, embedding, agent_id, session_id, expires_at) VALUES (?, 'alice', ?, 'default', '', ?)`,
    ).run(rewritten, new Float32Array(newer), Number.MAX_SAFE_INTEGER);
    db.run(`DELETE FROM memories WHERE rowid = ${deleted}`);
    const bob = Number(
      db
        .query(
          "INSERT INTO memories (id, user_id, agent_id, memory, created_at, updated_at) VALUES ('bob-1', 'bob', 'default', 'zzz', 0, 0)",
        )
        .run().lastInsertRowid,
    );
    expect(bob).toBeGreaterThan(deleted);
    const stale = (vectors(db, table) as any[]).map((v) => [v.rowid, v.user_id]);
    expect(stale).toEqual([
      [untouched, "alice"],
      [rewritten, "alice"],
      [deleted, "alice"],
    ]);
    db.close();

    t = await buildTestApp({ options, embedder });
    expect(t.services.search.status().semantic).toBe("ready");
    expect(VectorIndex.tables(dbOf(t))).toEqual([table]);
    const floats = () =>
      dbOf(t!)
        .query<{ rowid: number; user_id: string; embedding: Uint8Array }, []>(
          `SELECT rowid, ${USER_OF_OWNER} AS user_id, embedding FROM ${table} ORDER BY rowid`,
        )
        .all()
        .map((v) => [v.rowid, v.user_id, [...new Float32Array(v.embedding.buffer, v.embedding.byteOffset, 26)]]);
    // Right after the move: only what the earlier version wrote.
    expect(floats()).toEqual([[rewritten, "alice", newer]]);
    // The re-embedding at start writes the others again, from their current texts.
    expect(await t.services.search.reembedMissing()).toBe(2);
    const [bees, zzz] = (await embedder.embed(["I keep bees on the roof", "zzz"])).map((v) => [...v!]) as [
      number[],
      number[],
    ];
    expect(floats()).toEqual([
      [untouched, "alice", bees],
      [rewritten, "alice", newer],
      [bob, "bob", zzz],
    ]);
  });

  test("a store partitioned by user id alone has each vector moved to its organization's user, and one organization's alice no longer crowds out another's", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "engram-vec-")), "engram.db");
    const options = { storeUrl: `sqlite://${path}`, searchWorkers: 0 };
    t = await buildTestApp({ options, embedder: new LetterEmbedder() });
    const texts = ["My bike is a blue racer", "Lunch was a quick salad"];
    await t.post("/add_memories", { user_id: "alice", messages: texts.map((content) => ({ role: "user", content })) });
    const [table] = VectorIndex.tables(dbOf(t)) as [string];
    const [bike, lunch] = rowidsOf(dbOf(t), "alice") as [number, number];
    await t.close();
    t = undefined;

    // As the release before organizations left it: 256-slot chunks partitioned by user id, where acme's
    // alice (a memory with the same text as the bike) shared the partition of the store's own alice.
    const db = await openDb(path, { nativeCacheDir: join(path, "..", "native") });
    const earlier = table.replace(/_org$/, "");
    db.run(USER_LAYOUT(earlier, ", chunk_size=256"));
    db.run(
      `INSERT INTO ${earlier} (rowid, user_id, embedding, agent_id, session_id, expires_at) SELECT rowid, ${USER_OF_OWNER}, embedding, agent_id, session_id, expires_at FROM ${table}`,
    );
    db.run(`DROP TABLE ${table}`);
    const acme = Number(
      db
        .query(
          "INSERT INTO memories (id, org_id, user_id, agent_id, memory, created_at, updated_at) VALUES ('acme-1', 'acme', 'alice', 'default', ?, 1, 1)",
        )
        .run(texts[0]!).lastInsertRowid,
    );
    db.run(
      `INSERT INTO ${earlier} (rowid, user_id, embedding, agent_id, session_id, expires_at) SELECT ${acme}, user_id, embedding, agent_id, session_id, expires_at FROM ${earlier} WHERE rowid = ${bike}`,
    );
    db.run(`INSERT INTO memory_embeddings (memory_rowid, model) SELECT ${acme}, model FROM memory_embeddings LIMIT 1`);
    db.close();

    t = await buildTestApp({ options, embedder: new LetterEmbedder() });
    expect(VectorIndex.tables(dbOf(t))).toEqual([table]);
    expect(dbOf(t).query(`SELECT rowid, owner FROM ${table} ORDER BY rowid`).all()).toEqual([
      { rowid: bike, owner: '["default","alice"]' },
      { rowid: lunch, owner: '["default","alice"]' },
      { rowid: acme, owner: '["acme","alice"]' },
    ]);
    // The nearest neighbour of the bike's text for each alice is her own memory (acme's was as near as the
    // store's own bike: with one shared partition a k = 1 search could return the other organization's).
    const index = new VectorIndex(dbOf(t), "test/letters", table);
    const [query] = (await new LetterEmbedder().embed([texts[0]!])) as [Float32Array];
    const nearest = (org: string) =>
      index.rank({ org, userId: "alice", sessionId: "", now: Date.now() }, query, 1).map((r) => r.rowid);
    expect(nearest("default")).toEqual([bike]);
    expect(nearest("acme")).toEqual([acme]);
  });
});
