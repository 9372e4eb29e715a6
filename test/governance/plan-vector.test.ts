import { describe, expect, test } from "bun:test";
import { DAY_MS, YEAR_MS } from "~/governance/durations";
import { isOrphan, planVectorBatch, type VectorSummary } from "~/governance/plan";
import { NOW, ago, rulesFrom } from "./support";

/** A memory with versions 1..n, version k written (n - k + 1) days ago, 100 bytes each. */
function memory(id: string, n: number, extra: Partial<VectorSummary> = {}): VectorSummary {
  const versions = Array.from({ length: n }, (_, i) => ({
    version: i + 1,
    createdAt: ago((n - i) * DAY_MS),
    bytes: 100,
  }));
  return { id, importance: 50, sourceType: "conversation", createdAt: ago(n * DAY_MS), versions, ...extra };
}
const versionsOf = (plan: ReturnType<typeof planVectorBatch>) =>
  plan.deleteVersions.map((v) => `${v.memoryId}@${v.version}`);

// GDPR: [0,20]→1 [21,40]→3 [41,70]→10 [71,89]→20 [90,100]→30, defaultVersions 10, autoCleanupVersions.
const gdpr = { policy: rulesFrom("GDPR"), now: NOW };
const custom = {
  policy: rulesFrom(
    "GDPR",
    ["vector.retention.byImportance", [{ range: [50, 60], versions: 2 }]],
    ["vector.retention.bySourceType", { tool: 1 }],
    ["vector.retention.defaultVersions", 4],
  ),
  now: NOW,
};

describe("planVectorBatch: version retention (when autoCleanupVersions)", () => {
  test("keeps the versions of the importance range containing the memory's importance", () => {
    const plan = planVectorBatch(gdpr, [
      memory("low", 3, { importance: 20 }),
      memory("mid", 4, { importance: 21 }),
      memory("top", 31, { importance: 95 }),
    ]);
    expect(versionsOf(plan)).toEqual(["low@2", "low@1", "mid@1", "top@1"]);
    expect(plan.deleteVersions[0]).toEqual({
      memoryId: "low",
      version: 2,
      bytes: 100,
      reason: "retention.versions",
      dueAt: ago(DAY_MS),
    });
  });

  test("falls back to bySourceType, then to defaultVersions", () => {
    const plan = planVectorBatch(custom, [
      memory("ranged", 4, { importance: 55, sourceType: "tool" }),
      memory("tool", 3, { importance: 10, sourceType: "tool" }),
      memory("a2a", 6, { importance: 10, sourceType: "a2a" }),
    ]);
    expect(versionsOf(plan)).toEqual(["ranged@2", "ranged@1", "tool@2", "tool@1", "a2a@2", "a2a@1"]);
  });

  test("a source type inherited from Object.prototype is not a rule", () => {
    expect(
      versionsOf(planVectorBatch(custom, [memory("m", 5, { importance: 10, sourceType: "constructor" })])),
    ).toEqual(["m@1"]);
  });

  test("-1 keeps every version", () => {
    const policy = rulesFrom("GDPR", ["vector.retention.byImportance", [{ range: [0, 100], versions: -1 }]]);
    expect(planVectorBatch({ policy, now: NOW }, [memory("m", 50)]).deleteVersions).toEqual([]);
  });

  test("the current version always stays, even with 0 versions to keep", () => {
    const policy = rulesFrom("GDPR", ["vector.retention.byImportance", []], ["vector.retention.defaultVersions", 0]);
    const m = memory("m", 3);
    m.versions.reverse();
    expect(versionsOf(planVectorBatch({ policy, now: NOW }, [m]))).toEqual(["m@2", "m@1"]);
  });

  test("nothing is trimmed without autoCleanupVersions or without the retention rule", () => {
    const off = rulesFrom("GDPR", ["vector.purging.autoCleanupVersions", false]);
    expect(planVectorBatch({ policy: off, now: NOW }, [memory("m", 5, { importance: 0 })]).deleteVersions).toEqual([]);
    expect(
      planVectorBatch({ ...gdpr, rules: ["purging"] }, [memory("m", 5, { importance: 0 })]).deleteVersions,
    ).toEqual([]);
  });
});

describe("planVectorBatch: orphans (purging, when deleteOrphaned)", () => {
  const orphanPolicy = { policy: rulesFrom("GDPR", ["vector.purging.deleteOrphaned", true]), now: NOW };

  test.each([
    ["no refs at all", {}, false],
    ["a conversationRef that resolves", { conversationRef: "c1", conversationRefExists: true }, false],
    ["a conversationRef pointing at nothing", { conversationRef: "c1", conversationRefExists: false }, true],
    ["an immutableRef pointing at nothing", { immutableRef: "kb/1", immutableRefExists: false }, true],
    [
      "a dead conversationRef but a live immutableRef",
      { conversationRef: "c1", conversationRefExists: false, immutableRef: "kb/1", immutableRefExists: true },
      false,
    ],
    ["both refs pointing at nothing", { conversationRef: "c1", immutableRef: "kb/1" }, true],
    ["an existence flag without a ref", { conversationRefExists: false }, false],
  ] as const)("a memory with %s: orphan = %p", (_label, refs, orphan) => {
    expect(isOrphan(memory("m", 1, refs))).toBe(orphan);
  });

  test("an orphan is purged whole (all version bytes), due now, and not also trimmed", () => {
    const plan = planVectorBatch(orphanPolicy, [
      memory("o", 3, { importance: 0, conversationRef: "gone" }),
      memory("keep", 1, { conversationRef: "c", conversationRefExists: true }),
    ]);
    expect(plan).toEqual({
      deleteVersions: [],
      purgeMemories: [{ id: "o", bytes: 300, reason: "purging.deleteOrphaned", dueAt: NOW }],
      held: 0,
    });
  });

  test("orphans stay without deleteOrphaned or without the purging rule", () => {
    const orphan = memory("o", 1, { conversationRef: "gone" });
    expect(planVectorBatch(gdpr, [orphan]).purgeMemories).toEqual([]);
    expect(planVectorBatch({ ...orphanPolicy, rules: ["retention"] }, [orphan]).purgeMemories).toEqual([]);
  });
});

describe("planVectorBatch: minimum retention", () => {
  test("HIPAA trims only versions at least 6 years old", () => {
    const policy = rulesFrom("HIPAA", ["vector.purging.autoCleanupVersions", true]);
    const versions = [
      { version: 1, createdAt: ago(7 * YEAR_MS), bytes: 1 },
      { version: 2, createdAt: ago(5 * YEAR_MS), bytes: 1 },
      ...Array.from({ length: 5 }, (_, i) => ({ version: i + 3, createdAt: ago((5 - i) * DAY_MS), bytes: 1 })),
    ];
    const plan = planVectorBatch({ policy, now: NOW }, [
      { id: "h", importance: 10, sourceType: "tool", createdAt: ago(7 * YEAR_MS), versions },
    ]);
    expect(versionsOf(plan)).toEqual(["h@1"]);
    expect(plan.held).toBe(1);
  });

  test("FINRA keeps an orphan whose newest version is younger than 7 years", () => {
    const policy = rulesFrom("FINRA", ["vector.purging.deleteOrphaned", true]);
    const plan = planVectorBatch({ policy, now: NOW }, [memory("o", 2, { conversationRef: "gone" })]);
    expect(plan).toEqual({ deleteVersions: [], purgeMemories: [], held: 1 });
  });
});
