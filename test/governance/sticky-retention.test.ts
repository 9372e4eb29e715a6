// Minimum retention cannot be side-stepped (SPEC §5.4): every delete route of every layer honours it,
// and each record keeps the retain_until it earned when it was written, whatever policy changes later.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
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
const until = (ms: number) => new Date(ms).toISOString();

describe("every delete route honours the minimum retention", () => {
  test.each([
    ["FINRA", 7],
    ["HIPAA", 6],
  ])("DELETE /mutable of a minutes-old key under %s answers 409 until its %i years are over", async (mode, years) => {
    await setPolicy(t, orgPolicy(mode as string));
    const written = t.clock.now();
    expect((await t.request("PUT", "/mutable/trades/t-1", { value: { qty: 5 }, user_id: "u" })).status).toBe(200);
    t.clock.advance(5 * 60_000);
    const r = await t.request("DELETE", "/mutable/trades/t-1");
    expect([r.status, r.body]).toEqual([
      409,
      {
        success: false,
        code: "CONFLICT",
        error: `key 'trades/t-1' is under minimum retention until ${until(written + (years as number) * YEAR_MS)}`,
      },
    ]);
    expect((await t.get("/mutable/trades/t-1")).status).toBe(200);
    t.clock.set(written + (years as number) * YEAR_MS);
    expect((await t.request("DELETE", "/mutable/trades/t-1")).body).toEqual({ success: true, deleted_count: 1 });
  });

  test("a key deleted with 409 is the same key a cascade reports as retained", async () => {
    await setPolicy(t, orgPolicy("HIPAA"));
    await t.request("PUT", "/mutable/prefs/u", { value: 1, user_id: "u" });
    expect((await t.request("DELETE", "/mutable/prefs/u")).status).toBe(409);
    expect((await t.post("/delete_all_memories", { user_id: "u", cascade: true })).body).toEqual({
      success: true,
      deleted_count: 0,
      retained: { mutable: 1 },
    });
  });
});

/** A FINRA organization's records of every layer, a day old: memory (2 versions), conversation, record (2 versions), key. */
async function writeUnderFinra(): Promise<string> {
  await setPolicy(t, orgPolicy("FINRA"));
  const id = await addMemory(t, "bought 100 ACME", J, { agent_id: "desk" });
  await updateTimes(t, id, 1);
  await conversation(t, "u", "desk");
  await putImmutable(t, "trade/t-1", 2, { user_id: "u" });
  expect((await t.request("PUT", "/mutable/trades/t-1", { value: 1, user_id: "u" })).status).toBe(200);
  t.clock.advance(DAY_MS);
  return id;
}

/** A policy that wants everything gone, and erasure on request. */
const sweeping = (org: string) =>
  orgPolicy(
    "GDPR",
    ["organizationId", org],
    ["vector.purging.autoCleanupVersions", true],
    ["vector.retention.byImportance", [{ range: [0, 100], versions: 1 }]],
    ["conversations.retention.deleteAfter", "1h"],
    ["immutable.purging.autoCleanupVersions", true],
    ["immutable.retention.defaultVersions", 1],
    ["mutable.retention.purgeInactiveAfter", "1h"],
  );

const CHANGES: [string, () => Promise<void>][] = [
  ["a new organization policy", () => setPolicy(t, sweeping("default"))],
  [
    "an override of the space",
    async () => {
      const r = await t.request("PUT", "/governance/overrides/desk", {
        conversations: { retention: { deleteAfter: "1h" } },
        vector: {
          retention: { byImportance: [{ range: [0, 100], versions: 1 }] },
          purging: { autoCleanupVersions: true },
        },
      });
      expect(r.status).toBe(200);
    },
  ],
  // A space cannot move to another organization any more (a space id names a space inside its caller's
  // organization, SPEC §8): the strongest change of a space is a whole policy of its own.
  ["a whole policy set on the space", () => setPolicy(t, { ...sweeping("default"), memorySpaceId: "desk" })],
  [
    "removing the policy",
    async () => {
      expect((await t.request("DELETE", "/governance/policies?organizationId=default")).body.removed).toBe(true);
    },
  ],
];

describe("sticky retention: a record keeps the retain_until it earned at write time", () => {
  test.each(CHANGES)("after %s, nothing written under FINRA can be deleted early", async (_label, change) => {
    const id = await writeUnderFinra();
    await change();
    const before = await counts(t);
    const del = await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`);
    expect([del.status, del.body.code]).toEqual([409, "CONFLICT"]);
    expect((await t.request("DELETE", "/mutable/trades/t-1")).status).toBe(409);
    expect(await enforce(t)).toMatchObject({ versionsDeleted: 0, recordsPurged: 0 });
    expect(await enforce(t, { scope: { memorySpaceId: "desk" } })).toMatchObject({
      versionsDeleted: 0,
      recordsPurged: 0,
    });
    expect((await t.post("/delete_all_memories", { user_id: "u" })).body).toEqual({
      success: true,
      deleted_count: 0,
      retained: { vector: 1 },
    });
    const cascade = await t.post("/delete_all_memories", { user_id: "u", cascade: true });
    expect(cascade.body).toEqual({
      success: true,
      deleted_count: 0,
      retained: { vector: 1, conversations: 1, immutable: 1, mutable: 1 },
    });
    expect(await counts(t)).toEqual(before);
  });

  test("the earned retention ends when it ends: afterwards the later policy decides", async () => {
    const id = await writeUnderFinra();
    await setPolicy(t, sweeping("default"));
    t.clock.advance(7 * YEAR_MS);
    expect(await enforce(t)).toMatchObject({ versionsDeleted: 2, recordsPurged: 2 });
    expect((await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`)).status).toBe(200);
    expect((await t.request("DELETE", "/mutable/trades/t-1")).status).toBe(404);
  });

  test("a record written after the policy is removed earns nothing", async () => {
    await setPolicy(t, orgPolicy("FINRA"));
    await t.request("DELETE", "/governance/policies?organizationId=default");
    const id = await addMemory(t, "after the policy", {}, { agent_id: "desk" });
    expect((await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`)).status).toBe(200);
  });

  test("updating a record under a weaker policy never lowers what it earned", async () => {
    const id = await writeUnderFinra();
    await t.request("DELETE", "/governance/policies?organizationId=default");
    expect((await t.post("/update_memory", { memory_id: id, user_id: "u", memory: "bought 200 ACME" })).status).toBe(
      200,
    );
    expect((await t.request("PUT", "/mutable/trades/t-1", { value: 2 })).status).toBe(200);
    expect((await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`)).status).toBe(409);
    expect((await t.request("DELETE", "/mutable/trades/t-1")).status).toBe(409);
  });
});
