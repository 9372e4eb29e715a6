// Every statement that reads or rewrites the audit log finds its rows through an index (SPEC §8: the log
// grows with every request, so no page, window, erasure or prune may walk all of it). The statements are
// captured from real requests and their plans read with EXPLAIN QUERY PLAN, so a schema or query change
// that loses an index shows up here. (PostgreSQL: test/store/postgres/audit-plans.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, sqliteOnly, type TestApp } from "../../support/app";
import { dbOf, queryPlan, recordStatements } from "../../support/store";

let t: TestApp;
let statements: Set<string>;
const skip = sqliteOnly("reads SQLite's plans");

beforeAll(async () => {
  if (skip) return;
  t = await buildTestApp({ options: { auth: { enabled: true, apiKey: "shared" } } });
  const admin = await t.services.keys.create("default", { role: "admin" });
  const headers = { authorization: `Bearer ${admin.key}` };
  statements = recordStatements(dbOf(t));
  await t.post("/add_memories", { user_id: "alice", memory: "tea at five" }, headers);
  await t.get("/list_memories?user_id=alice", headers);
  const first = await t.get("/audit?limit=1", headers);
  expect(first.body.has_more).toBe(true);
  await t.get(`/audit?limit=1&cursor=${first.body.next_cursor}&user_id=alice&principal=${admin.id}`, headers);
  expect((await t.get("/governance/audit?from=0", headers)).status).toBe(200);
  expect((await t.post("/delete_all_memories", { user_id: "alice", cascade: true }, headers)).status).toBe(200);
  await t.services.governance.audit.prune();
});
afterAll(() => t?.close());

/** The captured statements on audit_log, each with its plan. */
const auditStatements = () =>
  [...statements]
    .filter((s) => /\baudit_log\b/.test(s) && !/^\s*INSERT/i.test(s))
    .map((s) => ({ sql: s.replace(/\s+/g, " ").trim(), plan: queryPlan(dbOf(t), s) }));

describe.skipIf(skip)("query plans of the audit log", () => {
  test("each statement that reads, rewrites or deletes entries searches an index; none scans the table", () => {
    const found = auditStatements();
    // Pages, the window, the erasure, the prune and its list of organizations.
    expect([...new Set(found.map((s) => s.sql.split(" ")[0]))].sort()).toEqual(["DELETE", "SELECT", "UPDATE", "WITH"]);
    for (const s of found)
      expect({ sql: s.sql, scans: s.plan.filter((d) => /^SCAN audit_log\b/.test(d)) }).toEqual({
        sql: s.sql,
        scans: [],
      });
  });

  test("GET /audit pages walk the organization's entries (or, filtered by user, the user's) in id order from the cursor", () => {
    const pages = auditStatements().filter((s) => s.sql.includes("ORDER BY id LIMIT"));
    expect(pages.map((p) => p.plan)).toEqual([
      ["SEARCH audit_log USING INDEX audit_log_by_org_id (organization_id=? AND id>?)"],
      ["SEARCH audit_log USING INDEX audit_log_by_user (user_id=? AND rowid>?)"],
    ]);
  });

  test("the organization's time window and the prune search its entries by time", () => {
    const window = auditStatements().find((s) => s.sql.includes("ORDER BY at, id"))!;
    expect(window.plan).toEqual([
      "SEARCH audit_log USING INDEX audit_log_by_time (organization_id=? AND at>? AND at<?)",
    ]);
    const prune = auditStatements().find((s) => s.sql.startsWith("DELETE FROM audit_log"))!;
    expect(prune.plan).toEqual(["SEARCH audit_log USING INDEX audit_log_by_time (organization_id=? AND at<?)"]);
  });

  test("an erasure finds the user's entries by user", () => {
    const erasure = auditStatements().find((s) => s.sql.startsWith("UPDATE audit_log"))!;
    expect(erasure.plan).toEqual(["SEARCH audit_log USING INDEX audit_log_by_user (user_id=?)"]);
  });

  test("the prune's list of organizations reads one index entry per organization, not one per entry", () => {
    const orgs = auditStatements().filter((s) => s.sql.startsWith("WITH RECURSIVE"));
    expect(orgs).toHaveLength(1);
    expect(orgs[0]!.plan.filter((d) => d.includes("audit_log"))).toEqual([
      "SEARCH audit_log USING COVERING INDEX audit_log_by_org_id",
      "SEARCH audit_log USING COVERING INDEX audit_log_by_org_id (organization_id>?)",
    ]);
  });
});
