// PostgreSQL migration 16 (list count index) on a store the release before it made: the index that
// list_memories' count reads covers superseded_by too, and the count answers as before (SQLite:
// migrate.test.ts, migration 25, which also checks the plan).
import { afterAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { freshSchema, postgresSkip, testPostgres, type TestSchema } from "../../support/postgres";
import { openPostgresStore } from "~/store/postgres/postgres-store";
import { PG_MIGRATIONS } from "~/store/postgres/migrations";
import { withHomeOrg } from "~/store/home-org";
import { silentLogger } from "~/shared/logger";
import { HOME_ORG } from "../../support/store";

const VERSION = PG_MIGRATIONS.find((m) => m.name === "list count index")!.version;

/** The schema as the release before the migration left it, with alice's memories: current, superseded, expired. */
async function storeBefore(s: TestSchema): Promise<void> {
  const { db } = await testPostgres();
  const owner = new SQL(db.ownerUrl, { max: 1 });
  try {
    await owner.begin(async (tx) => {
      await tx.unsafe(`CREATE SCHEMA ${s.schema}`);
      await tx.unsafe(`SET LOCAL search_path = ${s.schema}, public`);
      await tx.unsafe("SELECT set_config('engram.user', '*', true), set_config('engram.org', '*', true)");
      await tx.unsafe(
        "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)",
      );
      for (const m of PG_MIGRATIONS.filter((m) => m.version < VERSION)) {
        await tx.unsafe(withHomeOrg(m.sql, HOME_ORG)).simple();
        await tx.unsafe("INSERT INTO schema_migrations VALUES ($1, $2, 0)", [m.version, m.name]);
      }
      for (const [id, expires, by] of [
        ["m1", null, null],
        ["m2", null, "m1"],
        ["m3", 5, null],
        ["m4", 500, null],
      ])
        await tx.unsafe(
          `INSERT INTO memories (id, org_id, user_id, agent_id, memory, created_at, updated_at, expires_at, superseded_by)
           VALUES ($1, $2, 'alice', 'a', 'text', 0, 0, $3, $4)`,
          [id, HOME_ORG, expires, by],
        );
    });
  } finally {
    await owner.close();
  }
}

describe.skipIf(!!postgresSkip)(
  `PostgreSQL list count index migration${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    const schemas: TestSchema[] = [];
    afterAll(async () => {
      for (const s of schemas) await s.drop();
    });

    test("a store made before it gets the index with superseded_by, and counts a user's visible, current memories as before", async () => {
      const s = await freshSchema("listcount");
      schemas.push(s);
      await storeBefore(s);
      const store = await openPostgresStore({
        url: s.url,
        migrationUrl: s.migrationUrl,
        poolSize: 1,
        homeOrg: HOME_ORG,
        logger: silentLogger(),
      });
      try {
        expect(await store.read((r) => r.memories.count({ org: HOME_ORG, userId: "alice" }, 10))).toEqual({
          n: 2,
          nextExpiry: 500,
        });
      } finally {
        await store.close();
      }
      const { admin } = await testPostgres();
      const [index] = await admin.unsafe(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'memories_user_agent_expiry'",
        [s.schema],
      );
      expect(index.indexdef).toEndWith("(org_id, user_id, agent_id, expires_at, superseded_by)");
    }, 60_000);
  },
);
