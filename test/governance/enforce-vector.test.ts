// Enforcement of the vector layer on real memories (SPEC §5.4): version trimming by importance,
// source type and default; orphan purging; expired temporaries; layer/rule/scope filtering.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { DAY_MS } from "~/governance/durations";
import {
  addMemory,
  conversation,
  enforce,
  orgPolicy,
  putImmutable,
  setPolicy,
  updateTimes,
  versionNumbers,
} from "./app-support";
import { rowsOf } from "../support/store";
import { userScopeOf } from "~/shared/principal";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const range = (min: number, max: number, versions: number) => ({ range: [min, max], versions });

describe("vector version retention", () => {
  test("the implicit GDPR defaults keep 1, 3 or 10 versions by importance range", async () => {
    const low = await addMemory(t, "low", { importance: 10 });
    const mid = await addMemory(t, "mid", { importance: 30 });
    const high = await addMemory(t, "high", { importance: 50 });
    for (const id of [low, mid, high]) await updateTimes(t, id, 5);
    const result = await enforce(t);
    expect([result.versionsDeleted, result.recordsPurged]).toEqual([5 + 3, 0]);
    expect(await versionNumbers(t, low)).toEqual([6]);
    expect(await versionNumbers(t, mid)).toEqual([6, 5, 4]);
    expect(await versionNumbers(t, high)).toEqual([6, 5, 4, 3, 2, 1]);
    expect((await t.get(`/get_memory?memory_id=${low}&user_id=u`)).body.memory).toBe("version 6");
  });

  test("an importance range wins over bySourceType, which wins over defaultVersions", async () => {
    await setPolicy(
      t,
      orgPolicy(
        "GDPR",
        ["vector.retention.byImportance", [range(0, 20, 1)]],
        ["vector.retention.bySourceType", { a2a: 2 }],
        ["vector.retention.defaultVersions", 4],
      ),
    );
    const byRange = await addMemory(t, "a", { importance: 10, source: "a2a" });
    const bySource = await addMemory(t, "b", { importance: 50, source: "a2a" });
    const byDefault = await addMemory(t, "c", { importance: 50, source: "system" });
    for (const id of [byRange, bySource, byDefault]) await updateTimes(t, id, 5);
    expect((await enforce(t)).versionsDeleted).toBe(5 + 4 + 2);
    expect(await versionNumbers(t, byRange)).toEqual([6]);
    expect(await versionNumbers(t, bySource)).toEqual([6, 5]);
    expect(await versionNumbers(t, byDefault)).toEqual([6, 5, 4, 3]);
  });

  test("a free-form source that is not a governance source type matches no bySourceType rule", async () => {
    await setPolicy(
      t,
      orgPolicy(
        "GDPR",
        ["vector.retention.byImportance", []],
        ["vector.retention.bySourceType", { tool: 1, "claude-desktop": 1 }],
        ["vector.retention.defaultVersions", 3],
      ),
    );
    const client = await addMemory(t, "a", { source: "claude-desktop" });
    const tool = await addMemory(t, "b", { source: "tool" });
    for (const id of [client, tool]) await updateTimes(t, id, 4);
    expect((await enforce(t)).versionsDeleted).toBe(2 + 4);
    expect(await versionNumbers(t, client)).toEqual([5, 4, 3]);
    expect(await versionNumbers(t, tool)).toEqual([5]);
  });

  test("-1 keeps every version and 0 keeps only the current one", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["vector.retention.byImportance", [range(0, 20, -1), range(21, 40, 0)]]));
    const all = await addMemory(t, "a", { importance: 5 });
    const one = await addMemory(t, "b", { importance: 25 });
    for (const id of [all, one]) await updateTimes(t, id, 3);
    expect((await enforce(t)).versionsDeleted).toBe(3);
    expect(await versionNumbers(t, all)).toEqual([4, 3, 2, 1]);
    expect(await versionNumbers(t, one)).toEqual([4]);
  });

  test("without autoCleanupVersions no version is trimmed", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["vector.purging.autoCleanupVersions", false]));
    const id = await addMemory(t, "a", { importance: 1 });
    await updateTimes(t, id, 3);
    expect((await enforce(t)).versionsDeleted).toBe(0);
    expect(await versionNumbers(t, id)).toEqual([4, 3, 2, 1]);
  });

  test("an importance raised by an update moves the memory to its new range", async () => {
    const id = await addMemory(t, "a", { importance: 10 });
    await updateTimes(t, id, 4);
    await t.post("/update_memory", { memory_id: id, user_id: "u", metadata: { importance: 30 } });
    expect((await enforce(t)).versionsDeleted).toBe(3);
    expect(await versionNumbers(t, id)).toEqual([6, 5, 4]);
  });
});

describe("vector orphan purging", () => {
  const orphanPolicy = () => orgPolicy("GDPR", ["vector.purging.deleteOrphaned", true]);

  test("memories whose every reference points at nothing are deleted; others stay", async () => {
    await setPolicy(t, orphanPolicy());
    const conv = await conversation(t);
    await putImmutable(t, "kb-article/intro");
    await putImmutable(t, "kb-article/2026%2Fjune");
    const ids = {
      slashInId: await addMemory(t, "g", { immutableRef: "kb-article/2026/june" }),
      liveConv: await addMemory(t, "a", { conversationRef: conv }),
      deadConv: await addMemory(t, "b", { conversationRef: "no-such-conversation" }),
      liveImm: await addMemory(t, "c", { immutableRef: "kb-article/intro" }),
      deadImm: await addMemory(t, "d", { immutableRef: "kb-article/gone" }),
      oneLive: await addMemory(t, "e", { conversationRef: "no-such-conversation", immutableRef: "kb-article/intro" }),
      noRefs: await addMemory(t, "f"),
    };
    const result = await enforce(t);
    expect([result.recordsPurged, result.versionsDeleted]).toEqual([2, 0]);
    const alive = async (id: string) => (await t.get(`/get_memory?memory_id=${id}&user_id=u`)).status === 200;
    const state = Object.fromEntries(
      await Promise.all(Object.entries(ids).map(async ([k, id]) => [k, await alive(id)])),
    );
    expect(state).toEqual({
      slashInId: true,
      liveConv: true,
      deadConv: false,
      liveImm: true,
      deadImm: false,
      oneLive: true,
      noRefs: true,
    });
  });

  test("without deleteOrphaned orphans stay", async () => {
    const id = await addMemory(t, "b", { conversationRef: "no-such-conversation" });
    expect((await enforce(t)).recordsPurged).toBe(0);
    expect((await t.get(`/get_memory?memory_id=${id}&user_id=u`)).status).toBe(200);
  });

  test("a conversation deleted by a run orphans its memories for the next run, as simulate predicts", async () => {
    await setPolicy(
      t,
      orgPolicy("GDPR", ["vector.purging.deleteOrphaned", true], ["conversations.retention.deleteAfter", "30d"]),
    );
    const added = await t.post("/add_memories", {
      user_id: "u",
      messages: [{ role: "user", content: "I moved to Lisbon" }],
    });
    const id = added.body.memory_ids[0];
    t.clock.advance(30 * DAY_MS);
    expect((await t.post("/governance/simulate", {})).body.recordsAffected).toBe(1);
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect((await t.post("/governance/simulate", {})).body.recordsAffected).toBe(1);
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect((await t.get(`/get_memory?memory_id=${id}&user_id=u`)).status).toBe(404);
  });
});

describe("temporary memories", () => {
  test("retention removes expired temporaries for good and leaves live ones", async () => {
    const now = t.clock.now();
    await addMemory(t, "soon gone", { temporary: true, expiresAt: now + DAY_MS });
    const live = await addMemory(t, "still here", { temporary: true, expiresAt: now + 10 * DAY_MS });
    t.clock.advance(2 * DAY_MS);
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect((await rowsOf<{ id: string }>(t, "SELECT id FROM memories")).map((r) => r.id)).toEqual([live]);
  });

  test("FINRA minimum retention holds expired temporaries too", async () => {
    await setPolicy(t, orgPolicy("FINRA"));
    await addMemory(t, "temp", { temporary: true, expiresAt: t.clock.now() + DAY_MS, justification: "trade" });
    t.clock.advance(2 * DAY_MS);
    expect((await enforce(t)).recordsPurged).toBe(0);
    expect((await rowsOf<{ n: number }>(t, "SELECT count(*) AS n FROM memories"))[0]!.n).toBe(1);
  });
});

describe("filtering by layers, rules and scope", () => {
  async function seed() {
    await setPolicy(t, orgPolicy("GDPR", ["vector.purging.deleteOrphaned", true]));
    const versioned = await addMemory(t, "a", { importance: 10 });
    await updateTimes(t, versioned, 2);
    const orphan = await addMemory(t, "b", { conversationRef: "missing" });
    const conv = await conversation(t);
    t.clock.advance(8 * 365 * DAY_MS);
    return { versioned, orphan, conv };
  }

  test("layers ['vector'] with rules ['purging'] removes orphans only", async () => {
    const { versioned, conv } = await seed();
    const result = await enforce(t, { scope: { organizationId: "default" }, layers: ["vector"], rules: ["purging"] });
    expect(result).toMatchObject({ versionsDeleted: 0, recordsPurged: 1, affectedLayers: ["vector"] });
    expect(await versionNumbers(t, versioned)).toEqual([3, 2, 1]);
    expect((await t.get(`/conversations/${conv}?user_id=u`)).status).toBe(200);
  });

  test("layers ['vector'] with rules ['retention'] trims versions only", async () => {
    const { versioned, orphan } = await seed();
    const result = await enforce(t, { scope: { organizationId: "default" }, layers: ["vector"], rules: ["retention"] });
    expect(result).toMatchObject({ versionsDeleted: 2, recordsPurged: 0, affectedLayers: ["vector"] });
    expect(await versionNumbers(t, versioned)).toEqual([3]);
    expect((await t.get(`/get_memory?memory_id=${orphan}&user_id=u`)).status).toBe(200);
  });

  test("layers ['conversations'] leaves memories alone", async () => {
    const { versioned, conv } = await seed();
    expect(await enforce(t, { scope: { organizationId: "default" }, layers: ["conversations"] })).toMatchObject({
      versionsDeleted: 0,
      recordsPurged: 1,
      affectedLayers: ["conversations"],
    });
    expect((await t.get(`/conversations/${conv}?user_id=u`)).status).toBe(404);
    expect(await versionNumbers(t, versioned)).toEqual([3, 2, 1]);
  });

  test("a memory-space scope touches only that space and never the org's records", async () => {
    const mine = await addMemory(t, "a", { importance: 10 }, { agent_id: "bot" });
    const other = await addMemory(t, "b", { importance: 10 }, { agent_id: "cursor" });
    for (const id of [mine, other]) await updateTimes(t, id, 2);
    const result = await enforce(t, { scope: { memorySpaceId: "bot" } });
    expect(result).toMatchObject({ versionsDeleted: 2, affectedLayers: ["conversations", "vector"] });
    expect([await versionNumbers(t, mine), await versionNumbers(t, other)]).toEqual([[3], [3, 2, 1]]);
  });

  // acme's user u, through the services (over HTTP the server serves its own organization's keys only): a
  // memory in space "cursor" with three versions, two hours apart, and the default organization's u the same.
  const acme = userScopeOf("acme", "u");
  const twoOrgsInCursor = async () => {
    const theirs = (
      await t.services.memory.add(acme, { memory: "a", metadata: { importance: 10 }, agent_id: "cursor" })
    ).memory_ids![0]!;
    for (let i = 2; i <= 3; i++) {
      t.clock.advance(3_600_000);
      await t.services.memory.update(acme, { memory_id: theirs, memory: `version ${i}` });
    }
    const mine = await addMemory(t, "b", { importance: 10 }, { agent_id: "cursor" });
    await updateTimes(t, mine, 2);
    const versions = async () =>
      [
        (await t.services.memory.versions(acme, { memory_id: theirs })).versions.map((v) => v.version),
        await versionNumbers(t, mine),
      ] as const;
    return versions;
  };

  test("a space scope covers the space of its own organization: another organization's memories under the same space id stay", async () => {
    const versions = await twoOrgsInCursor();
    expect((await enforce(t, { scope: { memorySpaceId: "cursor" } })).versionsDeleted).toBe(2);
    expect(await versions()).toEqual([[3, 2, 1], [3]]);
  });

  test("an organization scope covers only that organization's memories, also in a space id another organization uses", async () => {
    const versions = await twoOrgsInCursor();
    // acme's admin (in process: over HTTP this server serves its own organization's callers only).
    const run = await t.services.governance.enforce({ scope: { organizationId: "acme" } }, "acme");
    expect(run.versionsDeleted).toBe(2);
    expect(await versions()).toEqual([[3], [3, 2, 1]]);
  });
});
