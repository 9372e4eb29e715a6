// Governance of two organizations on one store (SPEC §5, §8): organization A's and organization B's admins
// (two apps on one store, each the operator of its home organization) each govern their own organization
// only — policies, overrides, enforcement, simulation, reports, statistics, the audit log. Naming the other
// organization is NOT_FOUND, exactly as another organization's ids are. Runs on both stores.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { orgApps, type OrgApps } from "../support/org-apps";
import type { TestApp } from "../support/app";
import { rulesFrom } from "../governance/support";
import { addMemory, updateTimes, versionNumbers } from "../governance/app-support";
import { orgWide } from "~/shared/store-scope";

let orgs: OrgApps;
let a: TestApp;
let b: TestApp;
beforeEach(async () => {
  orgs = await orgApps(["a", "b"]);
  a = orgs.of("a");
  b = orgs.of("b");
});
afterEach(() => orgs.close());

const notFound = { success: false, error: "organization 'a' not found", code: "NOT_FOUND" };
/** A policy whose vector retention keeps `versions` versions of every memory. */
const keeping = (versions: number, scope: Record<string, string>) => ({
  ...scope,
  ...rulesFrom("GDPR", ["vector.retention.defaultVersions", versions], ["vector.retention.byImportance", []]),
});
const ok = async (r: Promise<{ status: number; body: any }>) => {
  const res = await r;
  expect([res.status, res.body?.code]).toEqual([200, undefined]);
  return res.body;
};
/** A memory of `t`'s organization in space `agent` with `n` versions. */
async function versioned(t: TestApp, agent: string, n: number): Promise<string> {
  const id = await addMemory(t, "first", { importance: 10 }, { agent_id: agent });
  await updateTimes(t, id, n - 1);
  return id;
}

describe("governance of two organizations on one store", () => {
  test("every governance route naming another organization answers 404 NOT_FOUND and changes nothing of it", async () => {
    await ok(a.post("/governance/policies", keeping(2, { organizationId: "a" })));
    const period = { start: "2026-01-01", end: "2026-12-31" };
    const calls: [string, string, unknown?][] = [
      ["POST", "/governance/policies", keeping(9, { organizationId: "a" })],
      ["POST", "/governance/policies", keeping(9, { organizationId: "a", memorySpaceId: "bot" })],
      ["GET", "/governance/policies?organizationId=a"],
      ["GET", "/governance/policies?organizationId=a&memorySpaceId=bot"],
      ["DELETE", "/governance/policies?organizationId=a"],
      ["DELETE", "/governance/policies?organizationId=a&memorySpaceId=bot"],
      ["PUT", "/governance/overrides/bot", { organizationId: "a", vector: { retention: { defaultVersions: 9 } } }],
      ["POST", "/governance/enforce", { scope: { organizationId: "a" } }],
      ["POST", "/governance/enforce", { scope: { organizationId: "a", memorySpaceId: "bot" } }],
      ["POST", "/governance/simulate", { organizationId: "a" }],
      ["POST", "/governance/compliance-report", { organizationId: "a", period }],
      ["GET", "/governance/audit?organizationId=a"],
    ];
    for (const [method, path, body] of calls) {
      const r = await b.request(method, path, body);
      expect({ call: `${method} ${path}`, status: r.status, body: r.body }).toEqual({
        call: `${method} ${path}`,
        status: 404,
        body: notFound,
      });
    }
    const policy = await ok(a.get("/governance/policies?organizationId=a"));
    expect(policy.vector.retention.defaultVersions).toBe(2);
    expect((await ok(a.get("/governance/policies?memorySpaceId=bot"))).vector.retention.defaultVersions).toBe(2);
  });

  test("each organization's policy is its own: B's set and removal leave A's as it was", async () => {
    await ok(a.post("/governance/policies", keeping(2, { organizationId: "a" })));
    await ok(b.post("/governance/policies", keeping(5, { organizationId: "b" })));
    const versionsOf = async (t: TestApp, org: string) =>
      (await ok(t.get(`/governance/policies?organizationId=${org}`))).vector.retention.defaultVersions;
    expect([await versionsOf(a, "a"), await versionsOf(b, "b")]).toEqual([2, 5]);
    expect(await ok(b.request("DELETE", "/governance/policies?organizationId=b"))).toEqual({
      success: true,
      removed: true,
    });
    expect([await versionsOf(a, "a"), await versionsOf(b, "b")]).toEqual([2, 10]);
  });

  test("the same memory-space id in both organizations is two spaces: each keeps its own override through the other's changes", async () => {
    const override = (versions: number) => ({ vector: { retention: { defaultVersions: versions } } });
    await ok(a.request("PUT", "/governance/overrides/bot", override(2)));
    await ok(b.request("PUT", "/governance/overrides/bot", override(5)));
    const botOf = async (t: TestApp) =>
      (await ok(t.get("/governance/policies?memorySpaceId=bot"))).vector.retention.defaultVersions;
    expect([await botOf(a), await botOf(b)]).toEqual([2, 5]);
    await ok(b.request("PUT", "/governance/overrides/bot", override(7)));
    await ok(b.post("/governance/policies", keeping(9, { memorySpaceId: "bot" })));
    expect([await botOf(a), await botOf(b)]).toEqual([2, 9]);
    expect(await ok(b.request("DELETE", "/governance/policies?memorySpaceId=bot"))).toEqual({
      success: true,
      removed: true,
    });
    expect([await botOf(a), await botOf(b)]).toEqual([2, 10]);
    // B's space policy trims only B's memories of its space "bot".
    await ok(b.request("PUT", "/governance/overrides/bot", override(1)));
    const ours = await versioned(a, "bot", 3);
    const theirs = await versioned(b, "bot", 3);
    await ok(b.post("/governance/enforce", { scope: { memorySpaceId: "bot" } }));
    expect([await versionNumbers(a, ours), await versionNumbers(b, theirs)]).toEqual([[3, 2, 1], [3]]);
  });

  test("registering a space of the same id in B leaves A's registration and A's policy of it as they were", async () => {
    await ok(a.request("PUT", "/governance/overrides/desk", { organizationId: "a", compliance: { mode: "GDPR" } }));
    await ok(a.request("PUT", "/governance/overrides/desk", { vector: { retention: { defaultVersions: 3 } } }));
    await ok(b.request("PUT", "/governance/overrides/desk", { organizationId: "b" }));
    await ok(b.post("/governance/policies", keeping(8, { organizationId: "b", memorySpaceId: "desk" })));
    const spaces = async (org: string) => a.services.store.read((r) => r.governance.spaces(org), orgWide(org));
    expect([await spaces("a"), await spaces("b")]).toEqual([["desk"], ["desk"]]);
    expect((await ok(a.get("/governance/policies?memorySpaceId=desk"))).vector.retention.defaultVersions).toBe(3);
  });

  test("B's FINRA policy holds B's memories and none of A's, also in a space id both use", async () => {
    await ok(b.post("/governance/policies", { organizationId: "b", ...rulesFrom("FINRA") }));
    const justified = { importance: 50, justification: "books and records" };
    const theirs = await addMemory(b, "B's trade", justified, { agent_id: "desk" });
    const ours = await addMemory(a, "A's note", { importance: 50 }, { agent_id: "desk" });
    expect((await b.request("DELETE", `/delete_memory?memory_id=${theirs}&user_id=u`)).status).toBe(409);
    expect(await a.request("DELETE", `/delete_memory?memory_id=${ours}&user_id=u`)).toMatchObject({
      status: 200,
      body: { success: true, deleted_count: 1 },
    });
  });

  test("B's enforcement, simulation, report and statistics see only B's memories, also in a space id both use", async () => {
    await ok(a.post("/governance/policies", keeping(1, { organizationId: "a" })));
    await ok(b.post("/governance/policies", keeping(1, { organizationId: "b" })));
    const ours = await versioned(a, "bot", 4);
    const theirs = await versioned(b, "bot", 2);
    expect((await ok(b.post("/governance/simulate", {}))).versionsAffected).toBe(1);
    expect((await ok(b.post("/governance/simulate", { memorySpaceId: "bot" }))).versionsAffected).toBe(1);
    const period = { start: 0, end: b.clock.now() + 1 };
    expect((await ok(b.post("/governance/compliance-report", { organizationId: "b", period }))).vector).toEqual({
      memories: 1,
      versionsDeleted: 0,
      orphanedCleaned: 0,
      complianceStatus: "WARNING",
    });
    expect(await ok(b.post("/governance/enforce", { scope: { organizationId: "b" } }))).toMatchObject({
      versionsDeleted: 1,
    });
    expect(await ok(b.post("/governance/enforce", { scope: { memorySpaceId: "bot" } }))).toMatchObject({
      versionsDeleted: 0,
    });
    expect([await versionNumbers(a, ours), await versionNumbers(b, theirs)]).toEqual([[4, 3, 2, 1], [2]]);
    expect((await ok(b.get("/governance/stats?period=7d"))).vector.versionsDeleted).toBe(1);
    expect((await ok(a.get("/governance/stats?period=7d"))).vector.versionsDeleted).toBe(0);
    const aReport = await ok(a.post("/governance/compliance-report", { organizationId: "a", period }));
    expect([aReport.vector.memories, aReport.vector.versionsDeleted]).toEqual([1, 0]);
  });

  test("an erasure in B is in B's report only", async () => {
    await addMemory(b, "to forget");
    await ok(b.post("/delete_all_memories", { user_id: "u", cascade: true }));
    const period = { start: 0, end: b.clock.now() + 1 };
    const requests = async (t: TestApp, org: string) =>
      (await ok(t.post("/governance/compliance-report", { organizationId: org, period }))).userRequests;
    expect((await requests(b, "b")).deletionRequests).toBe(1);
    expect((await requests(a, "a")).deletionRequests).toBe(0);
  });

  test("the run no caller asked for enforces each organization under its own policy and logs it as its own", async () => {
    await ok(a.post("/governance/policies", keeping(1, { organizationId: "a" })));
    await ok(b.post("/governance/policies", keeping(3, { organizationId: "b" })));
    const ours = await versioned(a, "bot", 5);
    const theirs = await versioned(b, "bot", 5);
    const results = await a.services.governance.enforcer.enforceEveryOrganization();
    expect([results.a?.versionsDeleted, results.b?.versionsDeleted]).toEqual([4, 2]);
    expect([await versionNumbers(a, ours), await versionNumbers(b, theirs)]).toEqual([[5], [5, 4, 3]]);
    expect((await ok(a.get("/governance/stats?period=7d"))).vector.versionsDeleted).toBe(4);
    expect((await ok(b.get("/governance/stats?period=7d"))).vector.versionsDeleted).toBe(2);
  });
});
