// PostgreSQL migration 20 (layer organization keys) on a store the release before it made: immutable
// records, their versions and mutable keys stay with their organization, and another organization may
// then hold the same keys (SQLite: migrate.test.ts, migration 28).
import { describe, expect, test } from "bun:test";
import { migratedFrom, postgresSkip } from "../../support/postgres";
import { PG_MIGRATIONS } from "~/store/postgres/migrations";
import { orgWide } from "~/shared/store-scope";

const VERSION = PG_MIGRATIONS.find((m) => m.name === "layer organization keys")!.version;

const ROWS: string[] = [
  `INSERT INTO immutable_records (type, id, organization_id, user_id, current_version, created_at, updated_at, accessed_at)
   VALUES ('doc', 'd1', 'acme', 'bob', 2, 1, 2, 3)`,
  `INSERT INTO immutable_versions (type, id, version, organization_id, user_id, data, metadata, created_at)
   VALUES ('doc', 'd1', 1, 'acme', 'bob', '"v1"', '{}', 1), ('doc', 'd1', 2, 'acme', null, '"v2"', '{}', 2)`,
  `INSERT INTO mutable_entries (namespace, key, organization_id, user_id, value, created_at, updated_at, accessed_at)
   VALUES ('ns', 'k', 'acme', 'bob', '1', 1, 2, 3)`,
];

describe.skipIf(!!postgresSkip)(
  `PostgreSQL layer organization keys migration${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    test("a store made before it keeps its records and keys, and another organization writes the same ones beside them", async () => {
      const { store, close } = await migratedFrom("layerkeys", VERSION, ROWS);
      try {
        const put = { type: "doc", id: "d1", userId: null, data: '"g1"', metadata: "{}", now: 5, retainUntil: null };
        expect(await store.write((tx) => tx.immutable.put({ ...put, orgId: "globex" }), orgWide("globex"))).toBe(1);
        expect(await store.write((tx) => tx.immutable.put({ ...put, orgId: "acme" }), orgWide("acme"))).toBe(3);
        const entry = {
          namespace: "ns",
          key: "k",
          userId: null,
          value: "2",
          expiresAt: null,
          now: 5,
          retainUntil: null,
        };
        await store.write((tx) => tx.mutable.put({ ...entry, orgId: "globex" }), orgWide("globex"));
        const read = (org: string) =>
          store.read(
            async (r) => ({
              versions: (await r.immutable.versions(org, "doc", "d1")).map((v) => v.data),
              value: (await r.mutable.get(org, "ns", "k", 5))?.value,
            }),
            orgWide(org),
          );
        expect(await read("acme")).toEqual({ versions: ['"g1"', '"v2"', '"v1"'], value: "1" });
        expect(await read("globex")).toEqual({ versions: ['"g1"'], value: "2" });
      } finally {
        await close();
      }
    }, 60_000);
  },
);
