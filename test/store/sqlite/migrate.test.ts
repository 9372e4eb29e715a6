import { describe, expect, test } from "bun:test";
import { openDb } from "~/store/sqlite/connection";
import { migrate } from "~/store/sqlite/migrate";
import { MIGRATIONS } from "~/store/sqlite/migrations";
import { normaliseText, textKey } from "~/shared/text-key";
import { toFtsQueries } from "~/store/sqlite/fts-query";
import { ownerPrefix } from "~/store/sqlite/fts-tokens";

describe("migrations", () => {
  test("apply once, in order, and a second run applies nothing", async () => {
    const db = await openDb(":memory:", { nativeCacheDir: "/tmp/engram-test-native" });
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(migrate(db)).toBe(0);
    expect(
      db
        .query("SELECT version FROM schema_migrations ORDER BY version")
        .all()
        .map((r: any) => r.version),
    ).toEqual(MIGRATIONS.map((m) => m.version));
  });

  test("upgrading a store re-indexes existing memories into per-user token namespaces", async () => {
    const db = await openDb(":memory:", { nativeCacheDir: "/tmp/engram-test-native" });
    db.run(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    );
    for (const m of MIGRATIONS.filter((m) => m.version < 8)) {
      db.run(m.sql);
      db.query("INSERT INTO schema_migrations VALUES (?, ?, 0)").run(m.version, m.name);
    }
    const insert = db.query(
      "INSERT INTO memories (id, user_id, agent_id, memory, created_at, updated_at) VALUES (?, ?, 'a', ?, 0, 0)",
    );
    insert.run("m1", "alice", "Alice keeps bees on the roof");
    insert.run("m2", "bob", "Bob keeps bees too");
    expect(migrate(db)).toBe(MIGRATIONS.filter((m) => m.version >= 8).length);
    const match = (user: string, q: string) => {
      const id = (db.query("SELECT id FROM fts_owners WHERE user_id = ?").get(user) as { id: number }).id;
      return db
        .query("SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?")
        .all(toFtsQueries(q, ownerPrefix(id))[0]!)
        .map((r: any) => r.rowid);
    };
    expect(match("alice", "bees")).toEqual([1]);
    expect(match("bob", "bees")).toEqual([2]);
  });
});

describe("migration 15 (memory facts)", () => {
  test("gives the memories stored before it their text keys, so their duplicates are found", async () => {
    const db = await openDb(":memory:", { nativeCacheDir: "/tmp/engram-test-native" });
    db.run(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    );
    for (const m of MIGRATIONS.filter((m) => m.version < 10)) {
      db.run(m.sql);
      m.run?.(db);
      db.query("INSERT INTO schema_migrations VALUES (?, ?, 0)").run(m.version, m.name);
    }
    db.query(
      "INSERT INTO memories (id, user_id, agent_id, memory, created_at, updated_at) VALUES ('m1', 'alice', 'a', 'I live in Berlin.', 0, 0)",
    ).run();
    expect(migrate(db)).toBe(MIGRATIONS.filter((m) => m.version >= 10).length);
    expect(db.query("SELECT text_key, superseded_by, has_facts FROM memories").get()).toEqual({
      text_key: textKey(normaliseText("i live in berlin")),
      superseded_by: null,
      has_facts: 0,
    });
  });
});

describe("owner prefixes", () => {
  test("have a fixed width, so one owner's namespace never prefixes another's", () => {
    expect(ownerPrefix(1)).toBe("u0000001");
    expect(ownerPrefix(36)).toBe("u0000010");
    expect(ownerPrefix(1).length).toBe(ownerPrefix(2 ** 31).length);
  });
});
