// PostgreSQL migration 16 (list count index) on a store the release before it made: the index that
// list_memories' count reads covers superseded_by too, and the count answers as before (SQLite:
// migrate.test.ts, migration 25, which also checks the plan).
import { describe, expect, test } from "bun:test";
import { migratedFrom, postgresSkip, testPostgres } from "../../support/postgres";
import { PG_MIGRATIONS } from "~/store/postgres/migrations";
import { HOME_ORG } from "../../support/store";

const VERSION = PG_MIGRATIONS.find((m) => m.name === "list count index")!.version;

/** alice's memories: current, superseded, expired, expiring later. */
const ROWS = (
  [
    ["m1", null, null],
    ["m2", null, "m1"],
    ["m3", 5, null],
    ["m4", 500, null],
  ] as const
).map(([id, expires, by]): [string, unknown[]] => [
  `INSERT INTO memories (id, org_id, user_id, agent_id, memory, created_at, updated_at, expires_at, superseded_by)
   VALUES ($1, $2, 'alice', 'a', 'text', 0, 0, $3, $4)`,
  [id, HOME_ORG, expires, by],
]);

describe.skipIf(!!postgresSkip)(
  `PostgreSQL list count index migration${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    test("a store made before it gets the index with superseded_by, and counts a user's visible, current memories as before", async () => {
      const m = await migratedFrom("listcount", VERSION, ROWS);
      try {
        expect(await m.store.read((r) => r.memories.count({ org: HOME_ORG, userId: "alice" }, 10))).toEqual({
          n: 2,
          nextExpiry: 500,
        });
        const { admin } = await testPostgres();
        const [index] = await admin.unsafe(
          "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'memories_user_agent_expiry'",
          [m.schema.schema],
        );
        expect(index.indexdef).toEndWith("(org_id, user_id, agent_id, expires_at, superseded_by)");
      } finally {
        await m.close();
      }
    }, 60_000);
  },
);
