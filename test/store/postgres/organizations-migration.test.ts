// PostgreSQL migration 8 (organizations) on a store the release before it made: every row that names a
// user lands in ENGRAM_ORG_ID as configured when the store migrates (SPEC §8; SQLite: migrate.test.ts).
import { describe, expect, test } from "bun:test";
import { migratedFrom, postgresSkip, testPostgres } from "../../support/postgres";

const ORG_TABLES = [
  "memories",
  "memory_versions",
  "memory_vectors",
  "memory_change_versions",
  "memory_facts",
  "conversations",
  "conversation_messages",
  "sessions",
  "graph_entities",
  "graph_relationships",
  "graph_mentions",
  "deletion_requests",
  "enforcement_log",
];

const ROWS = [
  "INSERT INTO memories (id, user_id, agent_id, memory, created_at, updated_at) VALUES ('m1', 'alice', 'a', 'Alice keeps bees', 0, 0)",
  "INSERT INTO memory_versions (memory_id, version, user_id, memory, metadata, created_at) VALUES ('m1', 1, 'alice', 'Alice kept bees', '{}', 0)",
  "INSERT INTO memory_vectors (memory_rowid, model, user_id, embedding) SELECT rowid, 'm', 'alice', '[1,0,0]' FROM memories",
  "INSERT INTO memory_facts (memory_id, user_id, agent_id, session_id, subject, attribute, value, value_key) VALUES ('m1', 'alice', 'a', '', 'alice', 'keeps', 'bees', 1)",
  "INSERT INTO conversations (id, user_id, memory_space_id, created_at, last_message_at) VALUES ('c1', 'alice', 's', 0, 0)",
  "INSERT INTO conversation_messages (conversation_id, seq, user_id, role, content, timestamp) VALUES ('c1', 1, 'alice', 'user', 'hi', 0)",
  "INSERT INTO sessions (id, user_id, memory_space_id, state, created_at, last_activity_at, expires_at) VALUES ('s1', 'alice', 's', 'active', 0, 0, 1)",
  "INSERT INTO graph_entities (user_id, type, id, name, name_key, created_at, updated_at) VALUES ('alice', 'person', 'alice', 'Alice', 'alice', 0, 0), ('alice', 'thing', 'bees', 'Bees', 'bees', 0, 0)",
  "INSERT INTO graph_relationships (from_node, type, to_node, user_id, created_at, updated_at) SELECT a.node, 'keeps', b.node, 'alice', 0, 0 FROM graph_entities a, graph_entities b WHERE a.id = 'alice' AND b.id = 'bees'",
  "INSERT INTO graph_mentions (user_id, memory_id, node) SELECT 'alice', 'm1', node FROM graph_entities WHERE id = 'bees'",
  "INSERT INTO deletion_requests (id, user_id, requested_at) VALUES ('d1', 'bob', 0)",
  "INSERT INTO enforcement_log (id, scope_kind, scope_id, layers, rules, enforced_at, duration_ms) VALUES ('e1', 'organization', 'x', '[]', '[]', 0, 1)",
];

describe.skipIf(!!postgresSkip)(
  `PostgreSQL organizations migration${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    test("puts every row of a store made before organizations into ENGRAM_ORG_ID as configured when it migrates", async () => {
      const m = await migratedFrom("orgs", 8, ROWS, "O'Brien Ltd");
      try {
        const { admin } = await testPostgres();
        for (const table of ORG_TABLES) {
          const rows = await admin.unsafe(`SELECT DISTINCT org_id FROM ${m.schema.schema}.${table}`);
          expect([table, rows.map((r: { org_id: string }) => r.org_id)]).toEqual([table, ["O'Brien Ltd"]]);
        }
      } finally {
        await m.close();
      }
    }, 60_000);
  },
);
