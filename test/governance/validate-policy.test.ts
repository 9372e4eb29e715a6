import { describe, expect, test } from "bun:test";
import { validatePolicy } from "~/governance/validate";
import { getTemplate } from "~/governance/templates";
import { expectGovernanceError, validPolicy, withValue } from "./support";

const bad = (path: string, value: unknown) => withValue(validPolicy(), path, value);
const chain = (...changes: [string, unknown][]) =>
  changes.reduce((p, [path, v]) => withValue(p, path, v), validPolicy());

describe("validatePolicy accepts", () => {
  test.each(["GDPR", "HIPAA", "SOC2", "FINRA"])("every template with an organizationId (%s)", (name) => {
    expect(() => validatePolicy({ organizationId: "org-1", ...getTemplate(name) })).not.toThrow();
  });

  test("a memory-space policy, a policy naming both ids, and one without sessions", () => {
    expect(() => validatePolicy({ ...getTemplate("SOC2"), memorySpaceId: "space-1" })).not.toThrow();
    expect(() => validatePolicy({ ...validPolicy(), memorySpaceId: "space-1" })).not.toThrow();
    expect(() => validatePolicy(bad("sessions", undefined))).not.toThrow();
  });

  test("Custom mode, null defaultTTL and null optional durations", () => {
    const p = chain(
      ["compliance.mode", "Custom"],
      ["mutable.retention.defaultTTL", null],
      ["conversations.retention.archiveAfter", null],
    );
    expect(() => validatePolicy(p)).not.toThrow();
  });

  test("version counts of -1 and 0 and an empty byImportance list", () => {
    const p = chain(
      ["immutable.retention.defaultVersions", -1],
      ["vector.retention.defaultVersions", 0],
      ["vector.retention.byImportance", []],
    );
    expect(() => validatePolicy(p)).not.toThrow();
  });

  test("touching importance ranges that do not overlap ([0,50] and [51,100])", () => {
    const p = bad("vector.retention.byImportance", [
      { range: [0, 50], versions: 1 },
      { range: [51, 100], versions: 2 },
    ]);
    expect(() => validatePolicy(p)).not.toThrow();
  });
});

describe("validatePolicy: MISSING_POLICY and MISSING_REQUIRED_FIELD", () => {
  test.each([[undefined], [null], ["policy"], [[]], [42]])(
    "a missing or non-object policy (%p) is MISSING_POLICY",
    (p) => {
      expectGovernanceError(() => validatePolicy(p), "MISSING_POLICY", undefined);
    },
  );

  test.each(["conversations", "immutable", "mutable", "vector", "compliance"])("a missing %s section names it", (s) => {
    expectGovernanceError(() => validatePolicy(bad(s, undefined)), "MISSING_REQUIRED_FIELD", s);
  });

  test("a section that is not an object counts as missing", () => {
    expectGovernanceError(() => validatePolicy(bad("vector", "fast")), "MISSING_REQUIRED_FIELD", "vector");
  });

  test("a policy missing both conversations and compliance reports conversations first", () => {
    expectGovernanceError(
      () => validatePolicy(chain(["conversations", undefined], ["compliance", undefined])),
      "MISSING_REQUIRED_FIELD",
      "conversations",
    );
  });

  test.each([
    "conversations.retention",
    "conversations.purging",
    "immutable.retention",
    "immutable.purging",
    "mutable.retention",
    "mutable.purging",
    "vector.retention",
    "vector.purging",
  ])("a missing %s is reported with its dotted path", (path) => {
    expectGovernanceError(() => validatePolicy(bad(path, undefined)), "MISSING_REQUIRED_FIELD", path);
  });

  test("every section is checked before any retention/purging block", () => {
    const p = chain(["conversations.retention", undefined], ["compliance", undefined]);
    expectGovernanceError(() => validatePolicy(p), "MISSING_REQUIRED_FIELD", "compliance");
  });

  test("retention/purging blocks are checked in section order", () => {
    const p = chain(["immutable.retention", undefined], ["conversations.purging", undefined]);
    expectGovernanceError(() => validatePolicy(p), "MISSING_REQUIRED_FIELD", "conversations.purging");
  });
});

describe("validatePolicy: scope", () => {
  test("no organizationId and no memorySpaceId is MISSING_SCOPE, after the structure checks", () => {
    expectGovernanceError(() => validatePolicy(bad("organizationId", undefined)), "MISSING_SCOPE", undefined);
    const both = chain(["organizationId", undefined], ["vector.purging", undefined]);
    expectGovernanceError(() => validatePolicy(both), "MISSING_REQUIRED_FIELD", "vector.purging");
  });

  test.each([
    ["organizationId", ""],
    ["organizationId", "   "],
    ["organizationId", 42],
  ])("%s = %p is INVALID_SCOPE naming that id", (id, value) => {
    expectGovernanceError(() => validatePolicy(bad(id, value)), "INVALID_SCOPE", id);
  });

  test("a blank memorySpaceId next to a valid organizationId is INVALID_SCOPE on memorySpaceId", () => {
    expectGovernanceError(() => validatePolicy(bad("memorySpaceId", " ")), "INVALID_SCOPE", "memorySpaceId");
  });

  test("a null id is a given id that is not a string, named in the error", () => {
    expectGovernanceError(() => validatePolicy(bad("organizationId", null)), "INVALID_SCOPE", "organizationId");
  });

  test("scope is checked before durations", () => {
    const p = chain(["organizationId", ""], ["conversations.retention.deleteAfter", "7years"]);
    expectGovernanceError(() => validatePolicy(p), "INVALID_SCOPE", "organizationId");
  });
});

describe("validatePolicy: INVALID_PERIOD_FORMAT", () => {
  test("conversations.retention.deleteAfter is required", () => {
    const field = "conversations.retention.deleteAfter";
    expectGovernanceError(() => validatePolicy(bad(field, undefined)), "INVALID_PERIOD_FORMAT", field);
    expectGovernanceError(() => validatePolicy(bad(field, null)), "INVALID_PERIOD_FORMAT", field);
  });

  test.each([
    ["conversations.retention.deleteAfter", "7years"],
    ["conversations.retention.archiveAfter", "1w"],
    ["conversations.purging.deleteInactiveAfter", "7D"],
    ["immutable.retention.byType.policy.deleteAfter", "30 d"],
    ["immutable.purging.purgeUnusedAfter", "1.5y"],
    ["mutable.retention.defaultTTL", "forever"],
    ["mutable.retention.purgeInactiveAfter", ""],
    ["mutable.purging.deleteUnaccessedAfter", 30],
    ["sessions.lifecycle.idleTimeout", "30min"],
    ["sessions.lifecycle.maxDuration", null],
    ["sessions.lifecycle.warnBeforeExpiry", "5 m"],
    ["sessions.cleanup.deleteEndedAfter", "1 y"],
    ["sessions.cleanup.archiveAfter", "P1D"],
  ])("%s = %p names the field", (field, value) => {
    expectGovernanceError(() => validatePolicy(bad(field, value)), "INVALID_PERIOD_FORMAT", field);
  });

  test("durations are checked in document order", () => {
    const p = chain(["mutable.retention.purgeInactiveAfter", "x"], ["conversations.retention.archiveAfter", "y"]);
    expectGovernanceError(() => validatePolicy(p), "INVALID_PERIOD_FORMAT", "conversations.retention.archiveAfter");
  });

  test("durations are checked before version counts", () => {
    const p = chain(
      ["immutable.retention.defaultVersions", -2],
      ["conversations.purging.deleteInactiveAfter", "2 years"],
    );
    expectGovernanceError(
      () => validatePolicy(p),
      "INVALID_PERIOD_FORMAT",
      "conversations.purging.deleteInactiveAfter",
    );
  });
});

describe("validatePolicy: INVALID_VERSIONS", () => {
  test.each([[-2], [1.5], ["10"], [undefined], [null], [Number.NaN]])(
    "immutable defaultVersions %p is rejected",
    (value) => {
      const field = "immutable.retention.defaultVersions";
      expectGovernanceError(() => validatePolicy(bad(field, value)), "INVALID_VERSIONS", field);
    },
  );

  test("vector defaultVersions is checked after immutable's", () => {
    expectGovernanceError(
      () => validatePolicy(bad("vector.retention.defaultVersions", -5)),
      "INVALID_VERSIONS",
      "vector.retention.defaultVersions",
    );
    const both = chain(["vector.retention.defaultVersions", -5], ["immutable.retention.defaultVersions", -5]);
    expectGovernanceError(() => validatePolicy(both), "INVALID_VERSIONS", "immutable.retention.defaultVersions");
  });

  test("byType versionsToKeep must be an integer >= -1", () => {
    const field = "immutable.retention.byType.policy.versionsToKeep";
    expectGovernanceError(() => validatePolicy(bad(field, -3)), "INVALID_VERSIONS", field);
    expectGovernanceError(() => validatePolicy(bad(field, undefined)), "INVALID_VERSIONS", field);
  });

  test("a byType that is not a map, or an entry that is not an object, is INVALID_VERSIONS", () => {
    expectGovernanceError(
      () => validatePolicy(bad("immutable.retention.byType", [1])),
      "INVALID_VERSIONS",
      "immutable.retention.byType",
    );
    expectGovernanceError(
      () => validatePolicy(bad("immutable.retention.byType.policy", 5)),
      "INVALID_VERSIONS",
      "immutable.retention.byType.policy",
    );
  });

  test("bySourceType values must be integers >= -1", () => {
    const p = bad("vector.retention.bySourceType", { conversation: 3, tool: -4 });
    expectGovernanceError(() => validatePolicy(p), "INVALID_VERSIONS", "vector.retention.bySourceType.tool");
  });

  test("defaultVersions are checked before byType entries", () => {
    const p = chain(["immutable.retention.byType.policy.versionsToKeep", -9], ["vector.retention.defaultVersions", -9]);
    expectGovernanceError(() => validatePolicy(p), "INVALID_VERSIONS", "vector.retention.defaultVersions");
  });

  test("version counts are checked before importance ranges", () => {
    const p = chain(["vector.retention.bySourceType", { a2a: -2 }], ["vector.retention.byImportance", "all"]);
    expectGovernanceError(() => validatePolicy(p), "INVALID_VERSIONS", "vector.retention.bySourceType.a2a");
  });
});

describe("validatePolicy: importance ranges", () => {
  const ranges = (...entries: unknown[]) => bad("vector.retention.byImportance", entries);
  const at = (i: number, key?: string) => `vector.retention.byImportance[${i}]${key ? `.${key}` : ""}`;

  test("a byImportance that is missing or not an array is INVALID_IMPORTANCE_RANGE", () => {
    const field = "vector.retention.byImportance";
    expectGovernanceError(() => validatePolicy(bad(field, undefined)), "INVALID_IMPORTANCE_RANGE", field);
    expectGovernanceError(() => validatePolicy(bad(field, { range: [0, 1] })), "INVALID_IMPORTANCE_RANGE", field);
  });

  test.each([
    ["not a pair", [0]],
    ["three numbers", [0, 10, 20]],
    ["a string end", ["0", 20]],
    ["a NaN end", [0, Number.NaN]],
    ["an end below 0", [-1, 20]],
    ["an end above 100", [0, 101]],
    ["min equal to max", [20, 20]],
    ["min above max", [30, 10]],
  ])("a range with %s is INVALID_IMPORTANCE_RANGE on that entry", (_label, range) => {
    const p = ranges({ range: [0, 10], versions: 1 }, { range, versions: 1 });
    expectGovernanceError(() => validatePolicy(p), "INVALID_IMPORTANCE_RANGE", at(1, "range"));
  });

  test("an entry that is not an object is INVALID_IMPORTANCE_RANGE on the entry", () => {
    expectGovernanceError(() => validatePolicy(ranges("0-20")), "INVALID_IMPORTANCE_RANGE", at(0));
  });

  test("bad versions in an entry is INVALID_VERSIONS", () => {
    expectGovernanceError(
      () => validatePolicy(ranges({ range: [0, 10], versions: -2 })),
      "INVALID_VERSIONS",
      at(0, "versions"),
    );
  });

  test("inclusive ends make [0,50] and [50,100] overlap", () => {
    const p = ranges({ range: [0, 50], versions: 1 }, { range: [50, 100], versions: 1 });
    expectGovernanceError(() => validatePolicy(p), "OVERLAPPING_IMPORTANCE_RANGES", at(1, "range"));
  });

  test("a range containing an earlier one overlaps it", () => {
    const p = ranges({ range: [40, 60], versions: 1 }, { range: [0, 100], versions: 1 });
    expectGovernanceError(() => validatePolicy(p), "OVERLAPPING_IMPORTANCE_RANGES", at(1, "range"));
  });

  test("each entry is fully checked (range, versions, overlap) before the next", () => {
    const versionsFirst = ranges({ range: [0, 50], versions: 1 }, { range: [40, 60], versions: -7 });
    expectGovernanceError(() => validatePolicy(versionsFirst), "INVALID_VERSIONS", at(1, "versions"));
    const overlapFirst = ranges(
      { range: [0, 50], versions: 1 },
      { range: [50, 60], versions: 1 },
      { range: [120, 130], versions: 1 },
    );
    expectGovernanceError(() => validatePolicy(overlapFirst), "OVERLAPPING_IMPORTANCE_RANGES", at(1, "range"));
  });

  test("importance ranges are checked before the compliance mode", () => {
    const p = withValue(
      ranges({ range: [0, 50], versions: 1 }, { range: [10, 20], versions: 1 }),
      "compliance.mode",
      "Nope",
    );
    expectGovernanceError(() => validatePolicy(p), "OVERLAPPING_IMPORTANCE_RANGES", at(1, "range"));
  });
});

describe("validatePolicy: compliance mode and remaining required fields", () => {
  test.each([["gdpr"], ["Foo"], [""], [undefined], [7]])("mode %p is INVALID_COMPLIANCE_MODE", (mode) => {
    expectGovernanceError(
      () => validatePolicy(bad("compliance.mode", mode)),
      "INVALID_COMPLIANCE_MODE",
      "compliance.mode",
    );
  });

  test.each([
    ["conversations.retention.purgeOnUserRequest", undefined],
    ["conversations.purging.autoDelete", "yes"],
    ["immutable.retention.byType", undefined],
    ["immutable.purging.autoCleanupVersions", 1],
    ["mutable.purging.autoDelete", null],
    ["vector.purging.autoCleanupVersions", undefined],
    ["vector.purging.deleteOrphaned", "false"],
    ["sessions.lifecycle.autoExtend", "true"],
    ["sessions.cleanup.autoExpireIdle", 0],
    ["sessions.limits", { maxActiveSessions: 0 }],
    ["compliance.dataRetentionYears", -1],
    ["compliance.requireJustification", "90"],
    ["compliance.auditLogging", undefined],
  ])("%s = %p is MISSING_REQUIRED_FIELD", (field, value) => {
    const expected = field === "sessions.limits" ? "sessions.limits.maxActiveSessions" : field;
    expectGovernanceError(() => validatePolicy(bad(field, value)), "MISSING_REQUIRED_FIELD", expected);
  });

  test("a justification level outside 0–100 is INVALID_IMPORTANCE_RANGE", () => {
    const p = bad("compliance.requireJustification", [90, 101]);
    expectGovernanceError(() => validatePolicy(p), "INVALID_IMPORTANCE_RANGE", "compliance.requireJustification[1]");
  });

  test("the remaining required fields are checked after the compliance mode", () => {
    const p = chain(["conversations.purging.autoDelete", undefined], ["compliance.mode", "hipaa"]);
    expectGovernanceError(() => validatePolicy(p), "INVALID_COMPLIANCE_MODE", "compliance.mode");
  });
});
