// Memory rowids are never reused (AUTOINCREMENT): vectors, FTS entries and queued erasures are keyed by
// rowid, so a reused one could hand a deleted memory's leftovers to a new memory. A store made by the
// release before this change is rebuilt once, keeping every row, rowid, link and index.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, type Db } from "~/store/sqlite/connection";
import { MIGRATIONS } from "~/store/sqlite/migrations";
import { indexByUser } from "~/store/sqlite/migrations/fts-namespaces";
import { SqliteStore } from "~/store/sqlite/sqlite-store";
import { silentLogger } from "~/shared/logger";
import { buildTestApp, type TestApp } from "../../support/app";
import { LetterEmbedder } from "../../support/embedders";
import { dbOf, NATIVE_CACHE, openTestStore } from "../../support/store";
import { newMemory, owner } from "../../support/memory-rows";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const rowids = (db: Db) =>
  db
    .query<{ rowid: number }, []>("SELECT rowid FROM memories ORDER BY rowid")
    .all()
    .map((r) => r.rowid);

/** The release before non-reusable rowids: every migration before that one, applied as that release applied them. */
const RELEASE = MIGRATIONS.find((m) => m.name === "memory rowids never reused")!.version - 1;

async function storeOfTheRelease(path: string): Promise<SqliteStore> {
  const db = await openDb(path, { nativeCacheDir: NATIVE_CACHE });
  db.run(
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  db.transaction(() => {
    for (const m of MIGRATIONS.filter((m) => m.version <= RELEASE)) {
      if (m.sql) db.run(m.sql);
      m.run?.(db);
      db.query("INSERT INTO schema_migrations VALUES (?, ?, 0)").run(m.version, m.name);
    }
  }).immediate();
  return new SqliteStore(db, silentLogger());
}

const memory = (id: string, user: string, text: string) => newMemory(id, text, { user_id: user, created_at: 1_000 });

/** The release's insert: the columns of that schema (the repository's today writes later ones too). */
function insertAsTheReleaseDid(db: Db, m: ReturnType<typeof memory>): number {
  const { rowid } = db
    .query<{ rowid: number }, any[]>(
      `INSERT INTO memories (id, user_id, agent_id, session_id, memory, metadata, importance, source_type, expires_at,
         conversation_ref, immutable_ref, version, created_at, updated_at, retain_until)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?) RETURNING rowid`,
    )
    .get(
      m.id,
      m.user_id,
      m.agent_id,
      m.session_id,
      m.memory,
      m.metadata,
      m.importance,
      m.source_type,
      m.expires_at,
      m.conversation_ref,
      m.immutable_ref,
      m.created_at,
      m.created_at,
      m.retain_until,
    )!;
  indexByUser(db, rowid, m.user_id, m.memory);
  return rowid;
}

/** The release's update: the previous text kept as version 1, the new one written and indexed. */
function updateAsTheReleaseDid(db: Db, rowid: number, text: string, now: number): void {
  db.query(
    "INSERT INTO memory_versions (memory_id, version, memory, metadata, created_at) SELECT id, version, memory, metadata, updated_at FROM memories WHERE rowid = ?",
  ).run(rowid);
  db.query("UPDATE memories SET memory = ?, version = version + 1, updated_at = ? WHERE rowid = ?").run(
    text,
    now,
    rowid,
  );
  db.query("DELETE FROM memories_fts WHERE rowid = ?").run(rowid);
  indexByUser(db, rowid, "alice", text);
}

/**
 * Indexes and triggers on memories that migrations after the rebuild add (15: memory facts, 18: memory counts,
 * 26: the index by scope) or drop (26 folds the index by user, agent and expiry into the one by scope).
 */
const LATER = [
  "memories_by_text_key",
  "memories_by_scope",
  "memories_user_agent_expiry",
  "memories_by_successor",
  "memories_superseded_of_user",
  "memories_facts_ad",
  "memory_counts_ai",
  "memory_counts_ad",
];

const schema = (db: Db) =>
  db
    .query<{ type: string; name: string }, []>(
      "SELECT type, name FROM sqlite_master WHERE tbl_name = 'memories' AND type IN ('index', 'trigger') ORDER BY name",
    )
    .all();

describe("memory rowids", () => {
  test("a new memory never takes the rowid of a deleted one", async () => {
    t = await buildTestApp({ embedder: new LetterEmbedder() });
    const ids: string[] = [];
    for (const m of ["apples", "bananas", "cherries"])
      ids.push(...(await t.post("/add_memories", { user_id: "u", memory: m })).body.memory_ids);
    const [, , last] = rowids(dbOf(t));
    expect((await t.request("DELETE", `/delete_memory?memory_id=${ids[2]}&user_id=u`)).status).toBe(200);
    await t.post("/add_memories", { user_id: "u", memory: "dates" });
    expect(rowids(dbOf(t)).at(-1)).toBeGreaterThan(last!);
  });

  test("a store made by the release before keeps every row, link and index, and stops reusing rowids", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "engram-rowids-")), "engram.db");
    const old = await storeOfTheRelease(path);
    const space = await old.write((tx) => tx.vectors.open("test/letters", 26));
    const embed = (text: string) => new LetterEmbedder().embed([text]).then(([v]) => v!);
    const rows: { rowid: number; id: string; text: string }[] = [];
    for (const [id, text] of [
      ["m1", "alice keeps bees on the roof"],
      ["m2", "alice bakes bread"],
      ["m3", "bob sails boats"],
    ] as const) {
      const vector = await embed(text);
      const rowid = await old.write(async (tx) => {
        const r = insertAsTheReleaseDid(old.db, memory(id, id === "m3" ? "bob" : "alice", text));
        await tx.vectors.upsert(space, [
          { rowid: r, org: "default", userId: "alice", agentId: "cursor", sessionId: "", expiresAt: null, vector },
        ]);
        return r;
      });
      rows.push({ rowid, id, text });
    }
    await old.write(async () => {
      updateAsTheReleaseDid(old.db, rows[0]!.rowid, "alice keeps bees and wasps", 2_000);
      // The graph as that release wrote it: keyed by user id alone.
      const node = old.db
        .query(
          "INSERT INTO graph_entities (user_id, type, id, name, name_key, properties, created_at, updated_at) VALUES ('alice', 'person', 'alice', 'Alice', 'alice', '{}', 2000, 2000)",
        )
        .run().lastInsertRowid;
      old.db.query("INSERT INTO graph_mentions (user_id, memory_id, node) VALUES ('alice', 'm2', ?)").run(node);
    });
    // The highest memory goes, and a crash left its vector queued for erasure: neither rowid may come back.
    await old.write((tx) => tx.memories.deleteByRowids([rows[2]!.rowid]));
    await old.close();
    const raw = await openDb(path, { nativeCacheDir: NATIVE_CACHE });
    raw.query("INSERT INTO vector_erasures (memory_rowid) VALUES (?)").run(rows[2]!.rowid + 5);
    const before = { schema: schema(raw), rowids: rowids(raw) };
    expect(
      raw.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'memories'").get()!.sql,
    ).not.toContain("AUTOINCREMENT");
    raw.close();

    const store = await openTestStore(path);
    try {
      const db = store.db;
      expect(
        db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'memories'").get()!.sql,
      ).toContain("AUTOINCREMENT");
      // The same indexes and triggers, and those of the later migrations.
      const kept = (s: { name: string }[]) => s.filter((o) => !LATER.includes(o.name));
      expect(kept(schema(db))).toEqual(kept(before.schema));
      expect(rowids(db)).toEqual(before.rowids);
      expect(db.query("PRAGMA foreign_key_check").all()).toEqual([]);
      expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
      // Versions, embeddings, keyword search, vectors and graph links are all still the memories'.
      expect((await store.read((r) => r.memories.versions(owner("alice"), "m1"))).map((v) => v.memory)).toEqual([
        "alice keeps bees on the roof",
      ]);
      expect(await store.read((r) => r.vectors.embeddedCount("test/letters"))).toBe(2);
      const filter = { org: "default", userId: "alice", sessionId: "", now: 3_000 };
      const byKeyword = await store.read((r) => r.search.keyword(filter, "bread", 5));
      expect(byKeyword.map((h) => h.rowid)).toEqual([rows[1]!.rowid]);
      const byVector = await store.read(async (r) =>
        r.vectors.rank(space, filter, await embed("alice bakes bread"), 1),
      );
      expect(byVector.map((h) => h.rowid)).toEqual([rows[1]!.rowid]);
      expect(await store.read((r) => r.graph.linkedMemories(owner("alice")))).toEqual(["m2"]);
      // Deleting a memory still cascades to its versions and embedding, and its trigger drops its links.
      await store.write((tx) => tx.memories.deleteByRowids([rows[0]!.rowid, rows[1]!.rowid]));
      expect(db.query("SELECT * FROM memory_versions").all()).toEqual([]);
      expect(await store.read((r) => r.vectors.embeddedCount("test/letters"))).toBe(0);
      expect(await store.read((r) => r.graph.linkedMemories(owner("alice")))).toEqual([]);
      // No rowid a deleted memory or a queued erasure held is handed out again.
      const next = await store.write((tx) => tx.memories.insert(memory("m4", "alice", "new")));
      expect(next).toBeGreaterThan(rows[2]!.rowid + 5);
    } finally {
      await store.close();
    }
  });
});
