// The audit log's statements on PostgreSQL each have an index to search (SQLite: test/store/sqlite/
// audit-plans.test.ts): GET /audit pages, the governance window, an erasure, the prune and its list of
// organizations. A few rows make any table look small enough to read whole, so sequential scans are
// switched off for the plans: what is checked is that an index path exists, not what the planner picks.
import { describe, expect, test } from "bun:test";
import { HOME_ORG } from "../../support/store";
import { freshStore, postgresSkip, testPostgres } from "../../support/postgres";
import { EVERY_ROW } from "~/shared/store-scope";
import { openPool, parsePgUrl, Pg } from "~/store/postgres/connection";
import { PgGovernanceRepo } from "~/store/postgres/governance-repo";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** How each node of the plan reads audit_log: "Seq Scan", or the scan type and the index it searches. */
function auditReads(node: PlanNode): string[] {
  const own =
    node["Relation Name"] === "audit_log" && node["Node Type"] !== "ModifyTable"
      ? [node["Index Name"] ? `${node["Node Type"]} ${node["Index Name"]}` : node["Node Type"]]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(auditReads)];
}

/** A Pg that explains each statement instead of running it (nothing is written), keeping how it reads audit_log. */
class Explaining extends Pg {
  reads: { sql: string; reads: string[] }[] = [];
  private async explain(text: string, params: unknown[]): Promise<void> {
    const [row] = await super.all<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${text}`, params);
    this.reads.push({ sql: text.replace(/\s+/g, " ").trim(), reads: auditReads(row!["QUERY PLAN"][0].Plan) });
  }
  override async all<T>(text: string, params: unknown[] = []): Promise<T[]> {
    await this.explain(text, params);
    return [];
  }
  override async run(text: string, params: unknown[] = []): Promise<number> {
    await this.explain(text, params);
    return 0;
  }
}

describe.skipIf(!!postgresSkip)(
  `PostgreSQL audit log plans${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    test("every audit statement searches an index of audit_log, none reads the table whole", async () => {
      const { schema: s, store, close } = await freshStore("auditplans");
      const pool = openPool(parsePgUrl(s.url), { max: 1, node: "auditplans" });
      try {
        const pg = await pool.begin(async (tx) => {
          await tx.unsafe("SELECT set_config('engram.org', '*', true), set_config('engram.user', '*', true)");
          await tx.unsafe("SET LOCAL enable_seqscan = off");
          const pg = new Explaining(tx);
          const repo = new PgGovernanceRepo(pg);
          const page = { orgId: HOME_ORG, from: 0, to: 10, limit: 2 };
          await repo.auditPage(page);
          await repo.auditPage({ ...page, after: 5, userId: "user-3", principal: "k1" });
          await repo.audit(HOME_ORG, 0, 10, 2);
          await repo.pseudonymize({ org: HOME_ORG, userId: "user-3" }, "erased-1");
          await repo.auditOrganizations();
          await repo.pruneAudit(HOME_ORG, 5);
          return pg;
        });
        const onAudit = pg.reads.filter((r) => /\baudit_log\b/.test(r.sql));
        expect(onAudit.map((r) => r.sql.split(" ")[0])).toEqual([
          "SELECT",
          "SELECT",
          "SELECT",
          "UPDATE",
          "WITH",
          "DELETE",
        ]);
        for (const r of onAudit)
          expect({ sql: r.sql, seq: r.reads.filter((x) => x === "Seq Scan") }).toEqual({ sql: r.sql, seq: [] });
        const [page, filtered, window, erasure, orgs, prune] = onAudit.map((r) => [...new Set(r.reads)]);
        expect(page).toEqual(["Index Scan audit_log_by_org_id"]);
        expect(filtered).toHaveLength(1);
        expect(filtered![0]).toStartWith("Index Scan audit_log_");
        expect(window).toEqual(["Index Scan audit_log_by_time"]);
        expect(erasure).toEqual(["Index Scan audit_log_by_user"]);
        expect(orgs).toEqual(["Index Only Scan audit_log_by_org_id"]);
        expect(prune).toHaveLength(1);
        expect(prune![0]).toStartWith("Index Scan audit_log_");
      } finally {
        await pool.close({ timeout: 0 });
        await close();
      }
    }, 60_000);
  },
);
