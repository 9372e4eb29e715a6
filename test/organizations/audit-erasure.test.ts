// Organizations (SPEC §8) and the audit log's pseudonyms: erasing one organization's "alice" renames her
// calls only — another organization's "alice", recorded but not yet written, keeps her own id.
// Both stores (ENGRAM_TEST_STORE).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { rowsOf } from "../support/store";
import { userScopeOf } from "~/shared/principal";

describe("organizations: the audit log after an erasure", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ embedder: null });
  }, 60_000);
  afterAll(() => t?.close());

  test("a call of another organization's user of the same id, recorded before the erasure, keeps its user id", async () => {
    const call = (org: string) => ({
      method: "GET",
      path: "/list_memories",
      status: 200,
      userId: "alice",
      principal: { org, id: `key-${org}`, kind: "key" as const },
    });
    t.services.governance.audit.record(call("acme"));
    t.services.governance.audit.record(call("default"));
    await t.services.memory.deleteAll(userScopeOf("default", "alice"), { cascade: true });
    await t.services.governance.audit.flush();
    const rows = await rowsOf<{ organization_id: string; user_id: string }>(
      t,
      "SELECT organization_id, user_id FROM audit_log WHERE path = '/list_memories' ORDER BY organization_id",
    );
    expect(rows.map((r) => [r.organization_id, r.user_id.startsWith("erased-") ? "erased" : r.user_id])).toEqual([
      ["acme", "alice"],
      ["default", "erased"],
    ]);
  });

  test("the same user id erased in two organizations gets two pseudonyms: erasures of different people are not linked", async () => {
    for (const org of ["acme", "default"]) {
      t.services.governance.audit.record({
        method: "GET",
        path: "/search_memories",
        status: 200,
        userId: "bob",
        principal: { org, id: `key-${org}`, kind: "key" as const },
      });
      await t.services.memory.deleteAll(userScopeOf(org, "bob"), { cascade: true });
    }
    await t.services.governance.audit.flush();
    const rows = await rowsOf<{ organization_id: string; user_id: string }>(
      t,
      "SELECT organization_id, user_id FROM audit_log WHERE path = '/search_memories' ORDER BY organization_id",
    );
    expect(rows.map((r) => r.organization_id)).toEqual(["acme", "default"]);
    for (const r of rows) expect(r.user_id).toMatch(/^erased-[0-9a-f]{24}$/);
    expect(rows[0]!.user_id).not.toBe(rows[1]!.user_id);
  });
});
