// PostgreSQL migration 19 on a store the release before it made: vectors, the graph, deletion requests,
// change counters and API keys of two organizations' "carol" (same user id) — after it, a transaction
// scoped to one organization sees and writes only that organization's rows (SPEC §9, a second wall).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HOME_ORG } from "../../support/store";
import { migratedFrom, postgresSkip, type MigratedStore } from "../../support/postgres";
import type { PostgresStore } from "~/store/postgres/postgres-store";
import { newMemory } from "../../support/memory-rows";

const TABLES = ["memory_vectors", "graph_entities", "graph_relationships", "graph_mentions", "deletion_requests"];

/** Carol's rows in `org`, as the release before migration 19 wrote them (every org_id set). */
const rowsOf = (org: string, n: number) => [
  `INSERT INTO memories (id, org_id, user_id, agent_id, memory, created_at, updated_at) VALUES ('m${n}', '${org}', 'carol', 'a', 'Carol keeps bees', 0, 0)`,
  `INSERT INTO memory_vectors (memory_rowid, model, org_id, user_id, embedding) SELECT rowid, 'm', org_id, user_id, '[1,0,0]' FROM memories WHERE id = 'm${n}'`,
  `INSERT INTO graph_entities (org_id, user_id, type, id, name, name_key, created_at, updated_at) VALUES ('${org}', 'carol', 'person', 'carol', 'Carol', 'carol', 0, 0), ('${org}', 'carol', 'thing', 'bees', 'Bees', 'bees', 0, 0)`,
  `INSERT INTO graph_relationships (from_node, type, to_node, org_id, user_id, created_at, updated_at) SELECT a.node, 'keeps', b.node, '${org}', 'carol', 0, 0 FROM graph_entities a, graph_entities b WHERE a.id = 'carol' AND b.id = 'bees' AND a.org_id = '${org}' AND b.org_id = '${org}'`,
  `INSERT INTO graph_mentions (org_id, user_id, memory_id, node) SELECT '${org}', 'carol', 'm${n}', node FROM graph_entities WHERE id = 'bees' AND org_id = '${org}'`,
  `INSERT INTO deletion_requests (id, org_id, user_id, requested_at) VALUES ('d${n}', '${org}', 'carol', 0)`,
  `INSERT INTO api_keys (id, org_id, role, secret_hash, created_at) VALUES ('k${n}', '${org}', 'admin', '\\x00', 0)`,
];

describe.skipIf(!!postgresSkip)(
  `PostgreSQL row security by organization, the rest${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    let migrated: MigratedStore;
    let store: PostgresStore;
    beforeAll(async () => {
      migrated = await migratedFrom("rls", 19, [...rowsOf(HOME_ORG, 1), ...rowsOf("acme", 2)]);
      store = migrated.store;
    }, 60_000);
    afterAll(() => migrated?.close());

    const scoped = (org: string, user: string, sql: string) => migrated.scoped(org, user, sql);
    const orgsIn = async (org: string, user: string, table: string) =>
      (await scoped(org, user, `SELECT DISTINCT org_id FROM ${table} ORDER BY 1`)).map(
        (r: { org_id: string }) => r.org_id,
      );

    test("a transaction of one organization's carol sees only that organization's vectors, graph and deletion requests", async () => {
      for (const table of TABLES) {
        expect([table, await orgsIn(HOME_ORG, "carol", table)]).toEqual([table, [HOME_ORG]]);
        expect([table, await orgsIn("acme", "carol", table)]).toEqual([table, ["acme"]]);
        expect([table, await orgsIn("*", "*", table)]).toEqual([table, ["acme", HOME_ORG]]);
      }
    });

    test("an organization's transaction sees only its own API keys; authentication's (every organization) sees all", async () => {
      expect(await orgsIn("acme", "*", "api_keys")).toEqual(["acme"]);
      expect(await orgsIn("*", "*", "api_keys")).toEqual(["acme", HOME_ORG]);
      expect(await store.read((r) => r.keys.byId("k2"), { org: HOME_ORG })).toBeNull();
    });

    test("change counters stay readable by anyone but are written only in their organization's scope", async () => {
      await store.write(
        (r) => r.memories.insert(newMemory("m3", "Carol keeps wasps", { org_id: "acme", user_id: "carol" })),
        {
          org: "acme",
          user: "carol",
        },
      );
      const acme = await store.changeVersion({ org: "acme", userId: "carol" });
      expect(acme).toBeGreaterThan(0);
      const bumped = await scoped(
        HOME_ORG,
        "carol",
        "UPDATE memory_change_versions SET version = version + 1 RETURNING org_id",
      );
      expect(bumped.map((r: { org_id: string }) => r.org_id)).not.toContain("acme");
      expect(await store.changeVersion({ org: "acme", userId: "carol" })).toBe(acme);
    });
  },
);
