import { describe, expect, test } from "bun:test";
import { DAY_MS, YEAR_MS } from "~/governance/durations";
import { planImmutableBatch, type ImmutableSummary } from "~/governance/plan";
import { NOW, ago, rulesFrom } from "./support";

/** An entity with versions 1..n, version k written (n - k + 1) days ago, 10 bytes each. */
function entity(type: string, id: string, n: number, extra: Partial<ImmutableSummary> = {}): ImmutableSummary {
  const versions = Array.from({ length: n }, (_, i) => ({
    version: i + 1,
    createdAt: ago((n - i) * DAY_MS),
    bytes: 10,
  }));
  return { type, id, createdAt: ago(n * DAY_MS), lastUsedAt: ago(DAY_MS), versions, ...extra };
}

const policy = rulesFrom(
  "GDPR",
  ["immutable.retention.defaultVersions", 3],
  [
    "immutable.retention.byType",
    {
      note: { versionsToKeep: 2 },
      draft: { versionsToKeep: 0 },
      temp: { versionsToKeep: 5, deleteAfter: "30d" },
      policy: { versionsToKeep: -1 },
    },
  ],
  ["immutable.purging.purgeUnusedAfter", "1y"],
);
const ctx = { policy, now: NOW };
const versionsOf = (plan: ReturnType<typeof planImmutableBatch>) =>
  plan.deleteVersions.map((v) => `${v.id}@${v.version}`);

describe("planImmutableBatch: version trimming (retention, when autoCleanupVersions)", () => {
  test("keeps byType versionsToKeep newest versions and says since when the others are due", () => {
    const plan = planImmutableBatch(ctx, [entity("note", "n1", 5)]);
    expect(plan.deleteVersions).toEqual([
      { type: "note", id: "n1", version: 3, bytes: 10, reason: "retention.versions", dueAt: ago(1 * DAY_MS) },
      { type: "note", id: "n1", version: 2, bytes: 10, reason: "retention.versions", dueAt: ago(2 * DAY_MS) },
      { type: "note", id: "n1", version: 1, bytes: 10, reason: "retention.versions", dueAt: ago(3 * DAY_MS) },
    ]);
    expect(plan.purgeEntities).toEqual([]);
  });

  test("a type without a rule keeps defaultVersions", () => {
    expect(versionsOf(planImmutableBatch(ctx, [entity("misc", "m", 5)]))).toEqual(["m@2", "m@1"]);
  });

  test("-1 keeps every version", () => {
    expect(planImmutableBatch(ctx, [entity("policy", "p", 40)]).deleteVersions).toEqual([]);
  });

  test("versionsToKeep 0 still keeps the current version", () => {
    expect(versionsOf(planImmutableBatch(ctx, [entity("draft", "d", 3)]))).toEqual(["d@2", "d@1"]);
  });

  test("the current version is the highest number, whatever the input order", () => {
    const e = entity("note", "n", 3);
    e.versions.reverse();
    expect(versionsOf(planImmutableBatch(ctx, [e]))).toEqual(["n@1"]);
  });

  test("nothing is trimmed without autoCleanupVersions or without the retention rule", () => {
    const off = rulesFrom(
      "GDPR",
      ["immutable.retention.defaultVersions", 1],
      ["immutable.purging.autoCleanupVersions", false],
    );
    expect(planImmutableBatch({ policy: off, now: NOW }, [entity("misc", "m", 4)]).deleteVersions).toEqual([]);
    expect(planImmutableBatch({ ...ctx, rules: ["purging"] }, [entity("misc", "m", 4)]).deleteVersions).toEqual([]);
  });
});

describe("planImmutableBatch: entity deletion", () => {
  test("an entity older than its type's deleteAfter is purged whole, without separate version deletions", () => {
    const plan = planImmutableBatch(ctx, [entity("temp", "t", 40)]);
    expect(plan).toEqual({
      deleteVersions: [],
      purgeEntities: [
        { type: "temp", id: "t", bytes: 400, reason: "retention.byType.deleteAfter", dueAt: ago(10 * DAY_MS) },
      ],
      held: 0,
    });
  });

  test("an entity not read or written for purgeUnusedAfter is purged by the purging rule only", () => {
    const e = entity("misc", "u", 2, { lastUsedAt: ago(YEAR_MS + DAY_MS) });
    expect(planImmutableBatch(ctx, [e]).purgeEntities).toEqual([
      { type: "misc", id: "u", bytes: 20, reason: "purging.purgeUnusedAfter", dueAt: ago(DAY_MS) },
    ]);
    expect(planImmutableBatch({ ...ctx, rules: ["retention"] }, [e]).purgeEntities).toEqual([]);
  });

  test("without lastUsedAt the newest version's time counts as the last use", () => {
    const e = entity("misc", "u", 1, {
      createdAt: ago(2 * YEAR_MS),
      lastUsedAt: null,
      versions: [{ version: 1, createdAt: ago(2 * YEAR_MS), bytes: 5 }],
    });
    expect(planImmutableBatch(ctx, [e]).purgeEntities.map((p) => p.reason)).toEqual(["purging.purgeUnusedAfter"]);
  });
});

describe("planImmutableBatch: minimum retention", () => {
  test("FINRA deletes only versions at least 7 years old", () => {
    const finra = rulesFrom(
      "FINRA",
      ["immutable.retention.defaultVersions", 1],
      ["immutable.purging.autoCleanupVersions", true],
    );
    const versions = [
      { version: 1, createdAt: ago(8 * YEAR_MS), bytes: 1 },
      { version: 2, createdAt: ago(5 * YEAR_MS), bytes: 1 },
      { version: 3, createdAt: ago(DAY_MS), bytes: 1 },
    ];
    const plan = planImmutableBatch({ policy: finra, now: NOW }, [
      { type: "misc", id: "f", createdAt: ago(8 * YEAR_MS), versions },
    ]);
    expect(versionsOf(plan)).toEqual(["f@1"]);
    expect(plan.held).toBe(1);
  });

  test("HIPAA keeps an unused entity whose newest version is younger than 6 years", () => {
    const hipaa = rulesFrom("HIPAA", ["immutable.purging.purgeUnusedAfter", "1y"]);
    const e = entity("misc", "h", 1, {
      lastUsedAt: ago(2 * YEAR_MS),
      versions: [{ version: 1, createdAt: ago(2 * YEAR_MS), bytes: 1 }],
    });
    expect(planImmutableBatch({ policy: hipaa, now: NOW }, [e])).toEqual({
      deleteVersions: [],
      purgeEntities: [],
      held: 1,
    });
  });
});
