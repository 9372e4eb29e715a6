// How PostgreSQL runs the search repositories' statements on tables it holds no statistics for yet (a
// user's first memories, before autovacuum analyzes them): each of the user's memories is read once per
// search, not once per candidate. Checked in the executed plan (EXPLAIN ANALYZE), never by timing.
import { describe, expect, test } from "bun:test";
import { freshStore, postgresSkip, testPostgres } from "../../support/postgres";
import { openPool, parsePgUrl, Pg } from "~/store/postgres/connection";
import { PgVectorRepo } from "~/store/postgres/vector-repo";
import { NOW, newMemory } from "../../support/memory-rows";

const MEMORIES = 300;
const DIM = 8;

interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** Rows of `table` the executed plan read, over all loops (kept and filtered out). */
function rowsRead(node: PlanNode, table: string): number {
  const own =
    node["Relation Name"] === table
      ? (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0)) *
        node["Actual Loops"]
      : 0;
  return own + (node.Plans ?? []).reduce((sum, p) => sum + rowsRead(p, table), 0);
}

/** A Pg that runs each statement under EXPLAIN ANALYZE and keeps the executed plan. */
class Explaining extends Pg {
  plans: PlanNode[] = [];
  override async all<T>(text: string, params: unknown[] = []): Promise<T[]> {
    const [row] = await super.all<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
      params,
    );
    this.plans.push(row!["QUERY PLAN"][0].Plan);
    return [];
  }
}

describe.skipIf(!!postgresSkip)(
  `search statements without table statistics${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    test("ranking a user's vectors reads each of the user's memories once, not once per vector", async () => {
      const { schema: s, store, close } = await freshStore("plans");
      const pool = openPool(parsePgUrl(s.url), { max: 1, node: "plans" });
      try {
        const { admin } = await testPostgres();
        // No analyze may run meanwhile: the statements must do well on tables the planner knows nothing of.
        for (const t of ["memories", "memory_vectors"])
          await admin.unsafe(`ALTER TABLE ${s.schema}.${t} SET (autovacuum_enabled = false)`);
        const space = await store.read((r) => r.vectors.open("m", DIM));
        await store.write(async (r) => {
          for (let i = 0; i < MEMORIES; i++) {
            const rowid = await r.memories.insert(newMemory(`m${i}`, `memory number ${i}`, { created_at: NOW + i }));
            const vector = Float32Array.from({ length: DIM }, (_, d) => Math.sin(i + d));
            await r.vectors.upsert(space, [
              { rowid, org: "default", userId: "alice", agentId: "a1", sessionId: "", expiresAt: null, vector },
            ]);
          }
        });
        const pg = await pool.begin("read only", async (tx) => {
          const pg = new Explaining(tx);
          await tx.unsafe("SELECT set_config('engram.org', '*', true), set_config('engram.user', 'alice', true)");
          const filter = { org: "default", userId: "alice", sessionId: "", now: NOW, includeSuperseded: true };
          await new PgVectorRepo(pg).rank(
            space,
            filter,
            Float32Array.from({ length: DIM }, () => 0.5),
            20,
          );
          return pg;
        });
        expect(pg.plans).toHaveLength(1);
        expect(rowsRead(pg.plans[0]!, "memories")).toBe(MEMORIES);
      } finally {
        await pool.close({ timeout: 0 });
        await close();
      }
    }, 60_000); // the first store of a run may start the server (initdb: seconds on a busy machine)
  },
);
