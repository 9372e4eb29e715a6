// Minimum retention (FINRA/HIPAA) against enforcement and user deletions, cascade erasure
// (purgeOnUserRequest, GDPR right to be forgotten) and the justification rule (SPEC §2.3, §5.4).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { userScopeOf } from "~/shared/principal";
import { buildTestApp, type TestApp } from "../support/app";
import { DAY_MS, YEAR_MS } from "~/governance/durations";
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

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const J = { justification: "books and records" };
const aggressive = (mode: string) =>
  orgPolicy(
    mode,
    ["vector.purging.autoCleanupVersions", true],
    ["vector.retention.byImportance", [{ range: [0, 100], versions: 1 }]],
    ["conversations.retention.deleteAfter", "1d"],
    ["immutable.purging.autoCleanupVersions", true],
    ["immutable.retention.defaultVersions", 1],
    ["mutable.retention.defaultTTL", "1h"],
  );

async function seedAll(user = "u") {
  const id = await addMemory(t, "trade", J, { user_id: user });
  await updateTimes(t, id, 2, user);
  await conversation(t, user);
  await putImmutable(t, `note/${user}`, 3, { user_id: user });
  expect((await t.request("PUT", `/mutable/prefs/${user}`, { value: 1, user_id: user })).status).toBe(200);
  return id;
}

describe("minimum retention", () => {
  test.each([
    ["FINRA", 7],
    ["HIPAA", 6],
  ])("%s holds everything younger than %i years from enforcement", async (mode, years) => {
    await setPolicy(t, aggressive(mode as string));
    await seedAll();
    t.clock.advance(2 * DAY_MS);
    const before = await counts(t);
    expect(await enforce(t)).toMatchObject({ versionsDeleted: 0, recordsPurged: 0, storageFreed: 0 });
    expect(await counts(t)).toEqual(before);
    t.clock.advance((years as number) * YEAR_MS);
    expect(await enforce(t)).toMatchObject({ versionsDeleted: 2 + 2, recordsPurged: 1 + 1 });
    expect(await counts(t)).toMatchObject({
      memories: 1,
      memoryVersions: 0,
      conversations: 0,
      immutableVersions: 1,
      mutable: 0,
    });
  });

  test("a user's delete of a FINRA memory is refused with 409 until the retention ends", async () => {
    await setPolicy(t, orgPolicy("FINRA"));
    const id = await addMemory(t, "trade", J);
    const r = await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      success: false,
      code: "CONFLICT",
      error: `memory '${id}' is under minimum retention until ${new Date(t.clock.now() + 7 * YEAR_MS).toISOString()}`,
    });
    t.clock.advance(7 * YEAR_MS - 1);
    expect((await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`)).status).toBe(409);
    t.clock.advance(1);
    expect((await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`)).body).toEqual({
      success: true,
      deleted_count: 1,
    });
  });

  test("delete_all deletes what is old enough and reports the rest as retained", async () => {
    await setPolicy(t, orgPolicy("HIPAA"));
    await addMemory(t, "old", J);
    t.clock.advance(6 * YEAR_MS);
    await addMemory(t, "young", J);
    await addMemory(t, "other agent", J, { agent_id: "bot" });
    expect((await t.post("/delete_all_memories", { user_id: "u" })).body).toEqual({
      success: true,
      deleted_count: 1,
      retained: { vector: 2 },
    });
  });

  // The broker organization's admin and user act in process (over HTTP this server serves its own
  // organization only): the same space id in this organization follows this organization's policy.
  test("retention follows the space's organization: the same space id is held in one and free in the other", async () => {
    const broker = userScopeOf("broker", "u");
    await t.services.governance.setPolicy({ ...orgPolicy("FINRA"), organizationId: "broker" }, "broker");
    const add = { memory: "held", metadata: J, agent_id: "trading" };
    const held = (await t.services.memory.add(broker, add)).memory_ids![0]!;
    const free = await addMemory(t, "free", {}, { agent_id: "trading" });
    const refused = await t.services.memory.delete(broker, { memory_id: held }).catch((e) => e.code);
    expect(refused).toBe("CONFLICT");
    expect((await t.request("DELETE", `/delete_memory?memory_id=${free}&user_id=u`)).status).toBe(200);
  });
});

describe("cascade erasure (delete_all_memories with cascade)", () => {
  test("GDPR erases the user's memories, conversations and user-owned records in every layer", async () => {
    await seedAll("u");
    await addMemory(t, "in another space", {}, { agent_id: "bot" });
    await t.post("/add_memories", { user_id: "u", messages: [{ role: "user", content: "hi" }] });
    await seedAll("v");
    await putImmutable(t, "kb-article/shared");
    const r = await t.post("/delete_all_memories", { user_id: "u", cascade: true });
    expect(r.body).toEqual({ success: true, deleted_count: 3, retained: {} });
    expect(await counts(t)).toEqual({
      memories: 1,
      memoryVersions: 2,
      conversations: 1,
      archived: 0,
      immutable: 2,
      immutableVersions: 4,
      mutable: 1,
    });
    expect((await t.get("/conversations?user_id=u")).body.total).toBe(0);
    expect((await t.get("/immutable/note/v")).status).toBe(200);
    expect((await t.get("/mutable/prefs/v")).status).toBe(200);
  });

  test("FINRA (purgeOnUserRequest false) retains everything, even past the minimum retention", async () => {
    await setPolicy(t, orgPolicy("FINRA"));
    await seedAll();
    t.clock.advance(8 * YEAR_MS);
    const before = await counts(t);
    const r = await t.post("/delete_all_memories", { user_id: "u", cascade: true });
    expect(r.body).toEqual({
      success: true,
      deleted_count: 0,
      retained: { vector: 1, conversations: 1, immutable: 1, mutable: 1 },
    });
    expect(await counts(t)).toEqual(before);
  });

  test("HIPAA erases what is past its 6 years and retains the rest", async () => {
    await setPolicy(t, orgPolicy("HIPAA"));
    await seedAll();
    t.clock.advance(6 * YEAR_MS);
    await addMemory(t, "young", J);
    await conversation(t);
    const r = await t.post("/delete_all_memories", { user_id: "u", cascade: true });
    expect(r.body).toEqual({ success: true, deleted_count: 1, retained: { vector: 1, conversations: 1 } });
  });

  test("every cascade is logged as a fulfilled deletion request", async () => {
    await seedAll();
    t.clock.advance(DAY_MS);
    await t.post("/delete_all_memories", { user_id: "u", cascade: true });
    await t.post("/delete_all_memories", { user_id: "nobody", cascade: true });
    await t.post("/delete_all_memories", { user_id: "u" });
    const period = { start: t.clock.now() - DAY_MS, end: t.clock.now() + DAY_MS };
    const report = await t.post("/governance/compliance-report", { organizationId: "default", period });
    expect(report.body.userRequests).toEqual({ deletionRequests: 2, fulfilled: 2, avgFulfillmentTime: "0 seconds" });
  });
});

describe("justification", () => {
  const add = (metadata: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    t.post("/add_memories", { user_id: "u", memory: "the launch code", metadata, ...extra });

  test("the implicit global defaults never block a write", async () => {
    expect((await add({ importance: 90 })).status).toBe(200);
    expect((await add({ importance: 100 })).status).toBe(200);
  });

  test("an explicit org policy requires metadata.justification at its listed importances", async () => {
    await setPolicy(t, orgPolicy("GDPR"));
    const r = await add({ importance: 90 });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: "VALIDATION_ERROR", field: "metadata.justification" });
    expect((await add({ importance: 90, justification: "" })).status).toBe(400);
    expect((await add({ importance: 90, justification: "board decision" })).status).toBe(200);
    expect((await add({ importance: 89 })).status).toBe(200);
    expect((await add({ importance: 95 })).status).toBe(200); // levels are listed, not a range
    expect((await add({ importance: 100 }, { agent_id: "bot" })).status).toBe(400);
  });

  test("messages and updates are checked too", async () => {
    await setPolicy(t, orgPolicy("GDPR"));
    const messages = await t.post("/add_memories", {
      user_id: "u",
      messages: [{ role: "user", content: "x" }],
      metadata: { importance: 100 },
    });
    expect([messages.status, messages.body.field]).toEqual([400, "metadata.justification"]);
    const id = await addMemory(t, "plain");
    const up = await t.post("/update_memory", { memory_id: id, user_id: "u", metadata: { importance: 100 } });
    expect([up.status, up.body.field]).toEqual([400, "metadata.justification"]);
    expect(await counts(t)).toMatchObject({ memories: 1, memoryVersions: 0, conversations: 0 });
  });

  test("a space override's own policy counts as explicit; another organization's does not", async () => {
    // acme's admin sets acme's policy (in process: over HTTP this server serves its own organization only).
    await t.services.governance.setPolicy({ ...orgPolicy("GDPR"), organizationId: "acme" }, "acme");
    expect((await add({ importance: 90 })).status).toBe(200);
    expect(
      (await t.request("PUT", "/governance/overrides/bot", { vector: { retention: { defaultVersions: 5 } } })).status,
    ).toBe(200);
    expect((await add({ importance: 90 }, { agent_id: "bot" })).status).toBe(400);
  });
});
