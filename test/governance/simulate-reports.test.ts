// simulate (a dry run that predicts enforce exactly), compliance reports (counts, statuses,
// retention, requests) and enforcement stats over windows, on one seeded store (SPEC §5.4–5.5).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { DAY_MS, HOUR_MS, YEAR_MS } from "~/governance/durations";
import {
  addMemory,
  conversation,
  counts,
  enforce,
  orgPolicy,
  putImmutable,
  setPolicy,
  updateTimes,
} from "./app-support";
import { rowsOf } from "../support/store";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const T0 = Date.UTC(2026, 5, 1);

/** Overdue conversation A, archivable B, 3 excess versions, an orphan, 5 excess immutable versions, an expired key. */
async function seed() {
  await setPolicy(t, orgPolicy("GDPR", ["vector.purging.deleteOrphaned", true]));
  const a = await conversation(t);
  t.clock.advance(6 * YEAR_MS);
  const b = await conversation(t);
  t.clock.advance(YEAR_MS);
  const versioned = await addMemory(t, "versioned", { importance: 10 });
  await updateTimes(t, versioned, 3);
  await addMemory(t, "orphan", { conversationRef: "missing" });
  await putImmutable(t, "note/1", 25);
  expect((await t.request("PUT", "/mutable/ns/k", { value: 1, ttl: "1h" })).status).toBe(200);
  t.clock.advance(HOUR_MS);
  return { a, b };
}

const report = async (
  period: { start: number | string; end: number | string } = { start: T0, end: t.clock.now() + 1 },
  scope: Record<string, string> = { organizationId: "default" },
) => {
  const r = await t.post("/governance/compliance-report", { ...scope, period });
  expect(r.status).toBe(200);
  return r.body;
};
const statuses = (r: any) => [
  r.conversations.complianceStatus,
  r.immutable.complianceStatus,
  r.vector.complianceStatus,
  r.mutable.complianceStatus,
];

describe("simulate", () => {
  test("changes nothing and predicts exactly what enforce then does, layer by layer", async () => {
    await seed();
    const before = await counts(t);
    const impact = (await t.post("/governance/simulate", {})).body;
    expect(await counts(t)).toEqual(before);
    expect(impact).toMatchObject({ versionsAffected: 8, recordsAffected: 3 });
    expect(impact.breakdown).toMatchObject({
      conversations: { affected: 1 },
      immutable: { affected: 5 },
      mutable: { affected: 1 },
      vector: { affected: 4 },
    });
    const result = await enforce(t);
    expect(result).toEqual({
      enforcedAt: t.clock.now(),
      versionsDeleted: 8,
      recordsPurged: 3,
      storageFreed: impact.storageFreed,
      affectedLayers: ["conversations", "immutable", "mutable", "vector"],
    });
    expect(await counts(t)).toEqual({
      ...before,
      memories: 1,
      memoryVersions: 0,
      conversations: 1,
      archived: 1,
      immutableVersions: 20,
      mutable: 0,
    });
    t.clock.advance(6 * DAY_MS);
    const stats = (await t.get("/governance/stats?period=7d")).body;
    expect([stats.conversations, stats.immutable, stats.vector, stats.mutable]).toEqual([
      { purged: 1, archived: 1 },
      { versionsDeleted: 5, entitiesPurged: 0 },
      { versionsDeleted: 3, memoriesPurged: 1 },
      { keysDeleted: 1 },
    ]);
    const mb = (layer: string) => impact.breakdown[layer].storageMB;
    expect(stats.storageFreed).toBe(impact.storageFreed);
    expect(stats.costSavings).toBe(impact.costSavings);
    expect(
      Math.abs(mb("conversations") + mb("immutable") + mb("mutable") + mb("vector") - impact.storageFreed),
    ).toBeLessThan(1e-5);
    expect((await t.post("/governance/simulate", {})).body).toMatchObject({
      versionsAffected: 0,
      recordsAffected: 0,
      storageFreed: 0,
      costSavings: 0,
    });
  });

  test("a partial policy is merged over the effective one and applies nothing", async () => {
    const id = await addMemory(t, "a", { importance: 50 });
    await updateTimes(t, id, 4);
    expect((await t.post("/governance/simulate", {})).body.versionsAffected).toBe(0);
    const what = { vector: { retention: { byImportance: [{ range: [41, 70], versions: 2 }] } } };
    expect((await t.post("/governance/simulate", what)).body.versionsAffected).toBe(3);
    expect((await enforce(t)).versionsDeleted).toBe(0);
  });

  test("a scoped simulation covers only that scope", async () => {
    for (const agent of ["bot", "cursor"]) {
      const id = await addMemory(t, "a", { importance: 10 }, { agent_id: agent });
      await updateTimes(t, id, 2);
    }
    expect((await t.post("/governance/simulate", { memorySpaceId: "bot" })).body.versionsAffected).toBe(2);
    expect((await t.post("/governance/simulate", {})).body.versionsAffected).toBe(4);
    // Another organization's data is not the caller's to simulate on (test/organizations/governance-orgs.test.ts).
    expect(await t.post("/governance/simulate", { organizationId: "elsewhere" })).toMatchObject({
      status: 404,
      body: { success: false, error: "organization 'elsewhere' not found", code: "NOT_FOUND" },
    });
  });
});

describe("compliance report", () => {
  test("an empty store is COMPLIANT with no oldest record", async () => {
    const r = await report({ start: "2026-01-01T00:00:00Z", end: "2026-07-01" });
    expect(r).toEqual({
      organizationId: "default",
      period: { start: Date.UTC(2026, 0, 1), end: Date.UTC(2026, 6, 1) },
      generatedAt: T0,
      conversations: { total: 0, deleted: 0, archived: 0, complianceStatus: "COMPLIANT" },
      immutable: { entities: 0, totalVersions: 0, versionsDeleted: 0, complianceStatus: "COMPLIANT" },
      vector: { memories: 0, versionsDeleted: 0, orphanedCleaned: 0, complianceStatus: "COMPLIANT" },
      mutable: { keys: 0, keysDeleted: 0, complianceStatus: "COMPLIANT" },
      dataRetention: { oldestRecord: null, withinPolicy: true },
      userRequests: { deletionRequests: 0, fulfilled: 0, avgFulfillmentTime: "0 seconds" },
    });
  });

  test("counts real data, flags due and overdue items, and adds up what enforcement did", async () => {
    await seed();
    const before = await report();
    expect(statuses(before)).toEqual(["NON_COMPLIANT", "WARNING", "WARNING", "WARNING"]);
    expect(before.conversations).toMatchObject({ total: 2, deleted: 0, archived: 0 });
    expect(before.immutable).toMatchObject({ entities: 1, totalVersions: 25, versionsDeleted: 0 });
    expect(before.vector).toMatchObject({ memories: 2, versionsDeleted: 0, orphanedCleaned: 0 });
    expect(before.dataRetention).toEqual({ oldestRecord: T0, withinPolicy: false });
    await enforce(t);
    const after = await report();
    expect(statuses(after)).toEqual(["COMPLIANT", "COMPLIANT", "COMPLIANT", "COMPLIANT"]);
    expect([after.conversations, after.immutable, after.vector, after.mutable]).toEqual([
      { total: 1, deleted: 1, archived: 1, complianceStatus: "COMPLIANT" },
      { entities: 1, totalVersions: 20, versionsDeleted: 5, complianceStatus: "COMPLIANT" },
      { memories: 1, versionsDeleted: 3, orphanedCleaned: 1, complianceStatus: "COMPLIANT" },
      { keys: 0, keysDeleted: 1, complianceStatus: "COMPLIANT" },
    ]);
    expect(after.dataRetention).toEqual({ oldestRecord: T0 + 6 * YEAR_MS, withinPolicy: true });
    const earlier = await report({ start: T0, end: t.clock.now() - 1 });
    expect([earlier.conversations.deleted, earlier.vector.versionsDeleted]).toEqual([0, 0]);
  });

  test("an item due for less than a grace day is WARNING, then NON_COMPLIANT", async () => {
    const id = await addMemory(t, "a", { importance: 10 });
    await updateTimes(t, id, 1);
    expect((await report()).vector.complianceStatus).toBe("WARNING");
    t.clock.advance(DAY_MS + 1);
    expect((await report()).vector.complianceStatus).toBe("NON_COMPLIANT");
  });

  test("a deletion request unfulfilled for over 30 days makes every layer NON_COMPLIANT", async () => {
    await rowsOf(
      t,
      "INSERT INTO deletion_requests (id, user_id, requested_at, fulfilled_at) VALUES ('r1', 'u', ?, NULL)",
      [T0],
    );
    t.clock.advance(30 * DAY_MS);
    expect(statuses(await report())).toEqual(["COMPLIANT", "COMPLIANT", "COMPLIANT", "COMPLIANT"]);
    t.clock.advance(1);
    expect(statuses(await report())).toEqual(["NON_COMPLIANT", "NON_COMPLIANT", "NON_COMPLIANT", "NON_COMPLIANT"]);
    expect((await report()).userRequests).toEqual({
      deletionRequests: 1,
      fulfilled: 0,
      avgFulfillmentTime: "0 seconds",
    });
  });

  test("a memory-space report counts that space and its own runs only", async () => {
    for (const agent of ["bot", "cursor"]) {
      const id = await addMemory(t, "a", { importance: 10 }, { agent_id: agent });
      await updateTimes(t, id, 2);
    }
    await enforce(t, { scope: { memorySpaceId: "bot" } });
    await enforce(t, { scope: { memorySpaceId: "cursor" } });
    const r = await report(undefined, { memorySpaceId: "bot" });
    expect([r.memorySpaceId, r.vector.memories, r.vector.versionsDeleted, r.immutable.entities]).toEqual([
      "bot",
      1,
      2,
      0,
    ]);
  });

  test("an organization report counts its spaces' runs even after a space's data is all gone", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["vector.purging.deleteOrphaned", true]));
    await addMemory(t, "orphan", { conversationRef: "missing" }, { agent_id: "bot" });
    expect((await enforce(t, { scope: { memorySpaceId: "bot" } })).recordsPurged).toBe(1);
    const r = await report();
    expect([r.vector.memories, r.vector.orphanedCleaned]).toEqual([0, 1]);
    // Another organization's report is NOT_FOUND here; its own counts only its runs (governance-orgs.test.ts).
    const other = await t.post("/governance/compliance-report", {
      organizationId: "acme",
      period: { start: T0, end: T0 + 1 },
    });
    expect([other.status, other.body.code]).toEqual([404, "NOT_FOUND"]);
  });
});

describe("enforcement stats", () => {
  test("sum the enforcement log over the window ending now", async () => {
    const id = await addMemory(t, "a", { importance: 10 });
    await updateTimes(t, id, 2);
    const first = await enforce(t);
    await updateTimes(t, id, 1);
    t.clock.advance(8 * DAY_MS);
    await enforce(t);
    const week = (await t.get("/governance/stats?period=7d")).body;
    expect(week).toMatchObject({
      period: { start: t.clock.now() - 7 * DAY_MS, end: t.clock.now() },
      vector: { versionsDeleted: 1, memoriesPurged: 0 },
    });
    const month = (await t.get("/governance/stats?period=30d")).body;
    expect(month.vector).toEqual({ versionsDeleted: 3, memoriesPurged: 0 });
    expect(month.storageFreed).toBeGreaterThan(first.storageFreed);
    t.clock.advance(100 * DAY_MS);
    expect((await t.get("/governance/stats?period=90d")).body.vector.versionsDeleted).toBe(0);
    expect((await t.get("/governance/stats?period=1y")).body).toMatchObject({
      vector: { versionsDeleted: 3 },
      conversations: { purged: 0, archived: 0 },
      mutable: { keysDeleted: 0 },
    });
  });
});
