import { describe, expect, test } from "bun:test";
import { openDb } from "~/store/sqlite/connection";
import { migrate } from "~/store/sqlite/migrate";
import { MIGRATIONS } from "~/store/sqlite/migrations";
import { normaliseText, textKey } from "~/shared/text-key";
import { toFtsQueries } from "~/store/sqlite/fts-query";
import { ownerPrefix } from "~/store/sqlite/fts-tokens";
import { SqliteStore } from "~/store/sqlite/sqlite-store";
import { withHomeOrg } from "~/store/home-org";
import { silentLogger } from "~/shared/logger";
import { HOME_ORG } from "../../support/store";

/** A store as the release before migration `version` left it: every migration before it, applied in order. */
async function storeBefore(version: number) {
  const db = await openDb(":memory:", { nativeCacheDir: "/tmp/engram-test-native" });
  db.run(
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  for (const m of MIGRATIONS.filter((m) => m.version < version)) {
    // A table rebuild others reference runs with foreign keys off, as migrate() runs it.
    if (m.foreignKeysOff) db.run("PRAGMA foreign_keys = OFF");
    db.run(withHomeOrg(m.sql, HOME_ORG));
    m.run?.(db);
    if (m.foreignKeysOff) db.run("PRAGMA foreign_keys = ON");
    db.query("INSERT INTO schema_migrations VALUES (?, ?, 0)").run(m.version, m.name);
  }
  return db;
}

describe("migrations", () => {
  test("apply once, in order, and a second run applies nothing", async () => {
    const db = await openDb(":memory:", { nativeCacheDir: "/tmp/engram-test-native" });
    expect(migrate(db, HOME_ORG)).toBe(MIGRATIONS.length);
    expect(migrate(db, HOME_ORG)).toBe(0);
    expect(
      db
        .query("SELECT version FROM schema_migrations ORDER BY version")
        .all()
        .map((r: any) => r.version),
    ).toEqual(MIGRATIONS.map((m) => m.version));
  });

  test("upgrading a store re-indexes existing memories into per-user token namespaces", async () => {
    const db = await storeBefore(8);
    const insert = db.query(
      "INSERT INTO memories (id, user_id, agent_id, memory, created_at, updated_at) VALUES (?, ?, 'a', ?, 0, 0)",
    );
    insert.run("m1", "alice", "Alice keeps bees on the roof");
    insert.run("m2", "bob", "Bob keeps bees too");
    expect(migrate(db, HOME_ORG)).toBe(MIGRATIONS.filter((m) => m.version >= 8).length);
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
    const db = await storeBefore(10);
    db.query(
      "INSERT INTO memories (id, user_id, agent_id, memory, created_at, updated_at) VALUES ('m1', 'alice', 'a', 'I live in Berlin.', 0, 0)",
    ).run();
    expect(migrate(db, HOME_ORG)).toBe(MIGRATIONS.filter((m) => m.version >= 10).length);
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

/** Every table whose rows name a user (or keep per-user counts): after migration 19 each also names its organization. */
const ORG_TABLES = [
  "memories",
  "memory_facts",
  "conversations",
  "sessions",
  "graph_entities",
  "graph_relationships",
  "graph_mentions",
  "deletion_requests",
  "enforcement_log",
  "fts_owners",
  "memory_counts",
];

/** A store as the release before organizations left it: every migration before 19, one row in each table. */
async function storeBeforeOrganizations() {
  const db = await storeBefore(19);
  for (const sql of [
    "INSERT INTO memories (id, user_id, agent_id, memory, created_at, updated_at) VALUES ('m1', 'alice', 'a', 'Alice keeps bees', 0, 0)",
    "INSERT INTO memory_facts (memory_id, user_id, agent_id, session_id, subject, attribute, value, value_key) VALUES ('m1', 'alice', 'a', '', 'alice', 'keeps', 'bees', 1)",
    "INSERT INTO conversations (id, user_id, memory_space_id, created_at, last_message_at) VALUES ('c1', 'alice', 's', 0, 0)",
    "INSERT INTO sessions (id, user_id, memory_space_id, state, created_at, last_activity_at, expires_at) VALUES ('s1', 'alice', 's', 'active', 0, 0, 1)",
    "INSERT INTO graph_entities (user_id, type, id, name, name_key, created_at, updated_at) VALUES ('alice', 'person', 'alice', 'Alice', 'alice', 0, 0), ('alice', 'thing', 'bees', 'Bees', 'bees', 0, 0)",
    "INSERT INTO graph_relationships (from_node, type, to_node, user_id, created_at, updated_at) VALUES (1, 'keeps', 2, 'alice', 0, 0)",
    "INSERT INTO graph_mentions (user_id, memory_id, node) VALUES ('alice', 'm1', 2)",
    // The keyword index's owner of alice's memories (written by fts-repo.ts as memories are indexed).
    "INSERT INTO fts_owners (user_id) VALUES ('alice')",
    "INSERT INTO deletion_requests (id, user_id, requested_at) VALUES ('d1', 'bob', 0)",
    "INSERT INTO enforcement_log (id, scope_kind, scope_id, layers, rules, enforced_at, duration_ms) VALUES ('e1', 'organization', 'x', '[]', '[]', 0, 1)",
  ])
    db.run(sql);
  return db;
}

const orgsIn = (db: Awaited<ReturnType<typeof openDb>>, table: string) =>
  db
    .query(`SELECT DISTINCT org_id FROM ${table}`)
    .all()
    .map((r: any) => r.org_id);

describe("migration 19 (organizations)", () => {
  test("puts every row of a store made before organizations into ENGRAM_ORG_ID as configured when it migrates", async () => {
    const db = await storeBeforeOrganizations();
    expect(migrate(db, "acme")).toBe(MIGRATIONS.filter((m) => m.version >= 19).length);
    for (const table of ORG_TABLES) expect([table, orgsIn(db, table)]).toEqual([table, ["acme"]]);
  });

  test("keeps every graph node, relationship and mention, and lets another organization's user of the same id have the same entity (migration 24)", async () => {
    const db = await storeBeforeOrganizations();
    migrate(db, "acme");
    expect(db.query("SELECT node, org_id, user_id, type, id FROM graph_entities ORDER BY node").all()).toEqual([
      { node: 1, org_id: "acme", user_id: "alice", type: "person", id: "alice" },
      { node: 2, org_id: "acme", user_id: "alice", type: "thing", id: "bees" },
    ]);
    expect(db.query("SELECT from_node, type, to_node FROM graph_relationships").all()).toEqual([
      { from_node: 1, type: "keeps", to_node: 2 },
    ]);
    expect(db.query("PRAGMA foreign_key_check").all()).toEqual([]);
    db.run(
      "INSERT INTO graph_entities (org_id, user_id, type, id, name, name_key, created_at, updated_at) VALUES ('globex', 'alice', 'person', 'alice', 'Alice', 'alice', 0, 0)",
    );
    // A memory's deletion drops its own mentions only (the trigger names the organization too).
    db.run("INSERT INTO graph_mentions (org_id, user_id, memory_id, node) VALUES ('globex', 'alice', 'm1', 3)");
    db.run("DELETE FROM memories WHERE id = 'm1'");
    expect(db.query("SELECT org_id, memory_id, node FROM graph_mentions").all()).toEqual([
      { org_id: "globex", memory_id: "m1", node: 3 },
    ]);
  });

  test("takes an organization id with quotes as data, not as SQL", async () => {
    const db = await storeBeforeOrganizations();
    migrate(db, "O'Brien'); DROP TABLE memories; --");
    expect(orgsIn(db, "memories")).toEqual(["O'Brien'); DROP TABLE memories; --"]);
  });
});

describe("migrations 25 and 26 (list count index, then the index by scope)", () => {
  test("a store made before them counts a user's visible, current memories from the index alone, and as before", async () => {
    const from = MIGRATIONS.find((m) => m.name === "list count index")!.version;
    const db = await storeBefore(from);
    const insert = db.query(
      `INSERT INTO memories (id, org_id, user_id, agent_id, memory, created_at, updated_at, expires_at, superseded_by)
       VALUES (?, ?, ?, 'a', 'text', 0, 0, ?, ?)`,
    );
    insert.run("m1", HOME_ORG, "alice", null, null);
    insert.run("m2", HOME_ORG, "alice", null, "m1");
    insert.run("m3", HOME_ORG, "alice", 5, null);
    insert.run("m4", HOME_ORG, "alice", 500, null);
    insert.run("m5", HOME_ORG, "bob", null, null);
    expect(migrate(db, HOME_ORG)).toBe(MIGRATIONS.filter((m) => m.version >= from).length);
    const store = new SqliteStore(db, silentLogger());
    const statements: string[] = [];
    const query = db.query.bind(db);
    db.query = ((sql: string) => (statements.push(sql), query(sql))) as typeof db.query;
    const count = await store.read((r) => r.memories.count({ org: HOME_ORG, userId: "alice" }, 10));
    expect(count).toEqual({ n: 2, nextExpiry: 500 });
    const counts = statements.filter((s) => /count\(\*\)/.test(s));
    expect(counts).toHaveLength(1);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${counts[0]}`).all() as { detail: string }[]).map((p) => p.detail);
    expect(plan).toEqual(["SEARCH memories USING COVERING INDEX memories_by_scope (org_id=? AND user_id=?)"]);
  });
});

describe("migration 28 (layer organization keys)", () => {
  test("keeps every immutable record, version and mutable key with its organization, and lets another organization take the same keys", async () => {
    const db = await storeBefore(28);
    db.run(
      "INSERT INTO immutable_records (type, id, organization_id, user_id, current_version, created_at, updated_at, accessed_at) VALUES ('doc', 'd1', 'acme', 'bob', 2, 1, 2, 3)",
    );
    db.run(
      "INSERT INTO immutable_versions (type, id, version, data, metadata, created_at, user_id) VALUES ('doc', 'd1', 1, '\"v1\"', '{}', 1, 'bob'), ('doc', 'd1', 2, '\"v2\"', '{}', 2, null)",
    );
    db.run(
      "INSERT INTO mutable_entries (namespace, key, organization_id, user_id, value, created_at, updated_at, accessed_at, retain_until) VALUES ('ns', 'k', 'acme', 'bob', '1', 1, 2, 3, 9)",
    );
    expect(migrate(db, HOME_ORG)).toBe(MIGRATIONS.filter((m) => m.version >= 28).length);
    expect(db.query("SELECT organization_id, type, id, current_version FROM immutable_records").all()).toEqual([
      { organization_id: "acme", type: "doc", id: "d1", current_version: 2 },
    ]);
    expect(db.query("SELECT organization_id, version, data, user_id FROM immutable_versions").all()).toEqual([
      { organization_id: "acme", version: 1, data: '"v1"', user_id: "bob" },
      { organization_id: "acme", version: 2, data: '"v2"', user_id: null },
    ]);
    expect(db.query("SELECT organization_id, key, value, retain_until FROM mutable_entries").all()).toEqual([
      { organization_id: "acme", key: "k", value: "1", retain_until: 9 },
    ]);
    db.run(
      "INSERT INTO immutable_records (organization_id, type, id, current_version, created_at, updated_at, accessed_at) VALUES ('globex', 'doc', 'd1', 1, 0, 0, 0)",
    );
    db.run(
      "INSERT INTO mutable_entries (organization_id, namespace, key, value, created_at, updated_at, accessed_at) VALUES ('globex', 'ns', 'k', '2', 0, 0, 0)",
    );
    db.run("DELETE FROM immutable_records WHERE organization_id = 'acme'");
    expect(db.query("SELECT count(*) AS n FROM immutable_versions").get()).toEqual({ n: 0 });
    expect(db.query("PRAGMA foreign_key_check").all()).toEqual([]);
  });
});

describe("migration 29 (governance keys by organization)", () => {
  test("gives kept policies the organization they belong to, and keys space registrations by organization", async () => {
    const db = await storeBefore(29);
    db.run("INSERT INTO memory_spaces (id, organization_id, created_at) VALUES ('bot', 'acme', 0)");
    db.run(
      `INSERT INTO governance_policies (id, scope_kind, scope_id, policy, active, created_at) VALUES
       ('p1', 'organization', 'acme', '{}', 1, 0), ('p2', 'memorySpace', 'bot', '{}', 1, 0),
       ('p3', 'memorySpace', 'solo', '{}', 1, 0), ('p4', 'organization', 'other', '{}', 0, 0)`,
    );
    expect(migrate(db, HOME_ORG)).toBe(MIGRATIONS.filter((m) => m.version >= 29).length);
    // An organization's policy is the organization's it names; a space's, its registered organization's,
    // else the home one's.
    expect(db.query("SELECT id, org_id FROM governance_policies ORDER BY id").all()).toEqual([
      { id: "p1", org_id: "acme" },
      { id: "p2", org_id: "acme" },
      { id: "p3", org_id: HOME_ORG },
      { id: "p4", org_id: "other" },
    ]);
    db.run("INSERT INTO memory_spaces (organization_id, id, created_at) VALUES ('other', 'bot', 1)");
    expect(
      db.query("SELECT organization_id, id, created_at FROM memory_spaces ORDER BY organization_id").all(),
    ).toEqual([
      { organization_id: "acme", id: "bot", created_at: 0 },
      { organization_id: "other", id: "bot", created_at: 1 },
    ]);
  });
});
