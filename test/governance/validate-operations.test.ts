import { describe, expect, test } from "bun:test";
import {
  validateAgentOverride,
  validateComplianceReportOptions,
  validateEnforceOptions,
  validatePartialPolicy,
  validateStatsPeriod,
  validateTemplateName,
  parseDateInput,
} from "~/governance/validate";
import { DAY_MS, YEAR_MS } from "~/governance/durations";
import { expectGovernanceError } from "./support";

describe("validatePartialPolicy (simulate)", () => {
  test("an empty partial and a partial leaving required leaves out are accepted", () => {
    expect(() => validatePartialPolicy({})).not.toThrow();
    expect(() =>
      validatePartialPolicy({ immutable: { retention: { byType: { contract: { deleteAfter: "10y" } } } } }),
    ).not.toThrow();
    expect(() => validatePartialPolicy({ conversations: { retention: { archiveAfter: null } } })).not.toThrow();
  });

  test.each([[undefined], [null], ["x"]])("a missing partial (%p) is MISSING_POLICY", (p) => {
    expectGovernanceError(() => validatePartialPolicy(p), "MISSING_POLICY", undefined);
  });

  test("present parts get the same checks as a full policy", () => {
    expectGovernanceError(() => validatePartialPolicy({ vector: null }), "MISSING_REQUIRED_FIELD", "vector");
    expectGovernanceError(() => validatePartialPolicy({ organizationId: "" }), "INVALID_SCOPE", "organizationId");
    expectGovernanceError(
      () => validatePartialPolicy({ conversations: { retention: { deleteAfter: "7years" } } }),
      "INVALID_PERIOD_FORMAT",
      "conversations.retention.deleteAfter",
    );
    expectGovernanceError(
      () => validatePartialPolicy({ conversations: { retention: { deleteAfter: null } } }),
      "INVALID_PERIOD_FORMAT",
      "conversations.retention.deleteAfter",
    );
    expectGovernanceError(
      () => validatePartialPolicy({ immutable: { retention: { byType: { x: { versionsToKeep: -2 } } } } }),
      "INVALID_VERSIONS",
      "immutable.retention.byType.x.versionsToKeep",
    );
    expectGovernanceError(
      () =>
        validatePartialPolicy({
          vector: {
            retention: {
              byImportance: [
                { range: [0, 50], versions: 1 },
                { range: [50, 100], versions: 1 },
              ],
            },
          },
        }),
      "OVERLAPPING_IMPORTANCE_RANGES",
      "vector.retention.byImportance[1].range",
    );
    expectGovernanceError(
      () => validatePartialPolicy({ compliance: { mode: "SOX" } }),
      "INVALID_COMPLIANCE_MODE",
      "compliance.mode",
    );
    expectGovernanceError(
      () => validatePartialPolicy({ mutable: { purging: { autoDelete: "no" } } }),
      "MISSING_REQUIRED_FIELD",
      "mutable.purging.autoDelete",
    );
  });
});

describe("validateAgentOverride", () => {
  test("accepts a non-blank space id and a partial", () => {
    expect(() => validateAgentOverride("space-1", { vector: { retention: { defaultVersions: 5 } } })).not.toThrow();
  });

  test.each([[""], ["   "], [undefined], [42]])("a memorySpaceId of %p is MISSING_SCOPE", (id) => {
    expectGovernanceError(() => validateAgentOverride(id, {}), "MISSING_SCOPE", "memorySpaceId");
  });

  test("a missing overrides object is reported before the space id", () => {
    expectGovernanceError(() => validateAgentOverride("space-1", undefined), "MISSING_POLICY", undefined);
    expectGovernanceError(() => validateAgentOverride("", null), "MISSING_POLICY", undefined);
  });

  test("present parts are checked after the space id", () => {
    expectGovernanceError(
      () => validateAgentOverride("", { vector: { retention: { defaultVersions: -3 } } }),
      "MISSING_SCOPE",
      "memorySpaceId",
    );
    expectGovernanceError(
      () => validateAgentOverride("s", { vector: { retention: { defaultVersions: -3 } } }),
      "INVALID_VERSIONS",
      "vector.retention.defaultVersions",
    );
    expectGovernanceError(() => validateAgentOverride("s", { organizationId: " " }), "INVALID_SCOPE", "organizationId");
  });
});

describe("validateEnforceOptions", () => {
  test("fills omitted layers and rules with all of them", () => {
    expect(validateEnforceOptions({ scope: { organizationId: "org-1" } })).toEqual({
      scope: { organizationId: "org-1" },
      layers: ["conversations", "immutable", "mutable", "vector"],
      rules: ["retention", "purging"],
    });
  });

  test("keeps the given layers and rules, without duplicates", () => {
    expect(
      validateEnforceOptions({ scope: { memorySpaceId: "s" }, layers: ["vector", "vector"], rules: ["purging"] }),
    ).toEqual({ scope: { memorySpaceId: "s" }, layers: ["vector"], rules: ["purging"] });
  });

  test.each([[undefined], [null], ["org-1"]])("options %p are MISSING_OPTIONS", (o) => {
    expectGovernanceError(() => validateEnforceOptions(o), "MISSING_OPTIONS", undefined);
  });

  test("no scope object is MISSING_SCOPE", () => {
    expectGovernanceError(() => validateEnforceOptions({}), "MISSING_SCOPE", "scope");
    expectGovernanceError(() => validateEnforceOptions({ scope: "org-1" }), "MISSING_SCOPE", "scope");
  });

  test("a scope without a non-blank id is INVALID_SCOPE", () => {
    expectGovernanceError(() => validateEnforceOptions({ scope: {} }), "INVALID_SCOPE", "scope");
    expectGovernanceError(
      () => validateEnforceOptions({ scope: { organizationId: "" } }),
      "INVALID_SCOPE",
      "scope.organizationId",
    );
    expectGovernanceError(
      () => validateEnforceOptions({ scope: { organizationId: "o", memorySpaceId: " " } }),
      "INVALID_SCOPE",
      "scope.memorySpaceId",
    );
  });

  test.each([["vector"], [[]], [["vectors"]], [["vector", 3]]])("layers %p are INVALID_LAYERS", (layers) => {
    expectGovernanceError(
      () => validateEnforceOptions({ scope: { organizationId: "o" }, layers }),
      "INVALID_LAYERS",
      "layers",
    );
  });

  test.each([["purging"], [[]], [["cleanup"]]])("rules %p are INVALID_RULES", (rules) => {
    expectGovernanceError(
      () => validateEnforceOptions({ scope: { organizationId: "o" }, rules }),
      "INVALID_RULES",
      "rules",
    );
  });

  test("checks run in order: scope, then layers, then rules", () => {
    expectGovernanceError(() => validateEnforceOptions({ scope: {}, layers: ["x"] }), "INVALID_SCOPE", "scope");
    expectGovernanceError(
      () => validateEnforceOptions({ scope: { organizationId: "o" }, layers: ["x"], rules: ["y"] }),
      "INVALID_LAYERS",
      "layers",
    );
  });
});

describe("validateComplianceReportOptions", () => {
  const period = { start: "2025-01-01T00:00:00Z", end: "2025-02-01T00:00:00Z" };

  test("accepts ISO strings, epoch ms and Date objects and answers epoch ms", () => {
    const start = Date.UTC(2025, 0, 1);
    const end = Date.UTC(2025, 1, 1);
    expect(validateComplianceReportOptions({ organizationId: "o", period })).toEqual({
      scope: { organizationId: "o" },
      start,
      end,
    });
    expect(validateComplianceReportOptions({ memorySpaceId: "s", period: { start, end: new Date(end) } })).toEqual({
      scope: { memorySpaceId: "s" },
      start,
      end,
    });
    expect(
      validateComplianceReportOptions({ organizationId: "o", period: { start: "2025-01-01", end: "2025-01-02" } }).end,
    ).toBe(Date.UTC(2025, 0, 2));
  });

  test("missing options are MISSING_OPTIONS", () => {
    expectGovernanceError(() => validateComplianceReportOptions(undefined), "MISSING_OPTIONS", undefined);
  });

  test("a missing period is INVALID_DATE_RANGE on period", () => {
    expectGovernanceError(
      () => validateComplianceReportOptions({ organizationId: "o" }),
      "INVALID_DATE_RANGE",
      "period",
    );
  });

  test.each([
    ["yesterday"],
    ["2025-02-30"],
    ["2025-13-01"],
    [Number.NaN],
    [null],
    [undefined],
    [new Date("x")],
    ["March 7, 2024"],
  ])("a start of %p is INVALID_DATE_RANGE on start", (start) => {
    expectGovernanceError(
      () => validateComplianceReportOptions({ organizationId: "o", period: { start, end: period.end } }),
      "INVALID_DATE_RANGE",
      "start",
    );
  });

  test("an invalid end is INVALID_DATE_RANGE on end, after start", () => {
    expectGovernanceError(
      () => validateComplianceReportOptions({ organizationId: "o", period: { start: period.start, end: "soon" } }),
      "INVALID_DATE_RANGE",
      "end",
    );
    expectGovernanceError(
      () => validateComplianceReportOptions({ organizationId: "o", period: { start: "x", end: "y" } }),
      "INVALID_DATE_RANGE",
      "start",
    );
  });

  test("start must be strictly before end", () => {
    expectGovernanceError(
      () => validateComplianceReportOptions({ organizationId: "o", period: { start: period.end, end: period.end } }),
      "INVALID_DATE_RANGE",
      "period",
    );
    expectGovernanceError(
      () => validateComplianceReportOptions({ organizationId: "o", period: { start: period.end, end: period.start } }),
      "INVALID_DATE_RANGE",
      "period",
    );
  });

  test("dates are checked before the scope", () => {
    expectGovernanceError(
      () => validateComplianceReportOptions({ period: { start: "x", end: 1 } }),
      "INVALID_DATE_RANGE",
      "start",
    );
    expectGovernanceError(() => validateComplianceReportOptions({ period }), "MISSING_SCOPE", undefined);
    expectGovernanceError(
      () => validateComplianceReportOptions({ organizationId: " ", period }),
      "INVALID_SCOPE",
      "organizationId",
    );
  });
});

describe("parseDateInput", () => {
  test("reads offsets and rejects non-ISO text", () => {
    expect(parseDateInput("2025-01-01T02:00:00+02:00")).toBe(Date.UTC(2025, 0, 1));
    expect(parseDateInput("2024-02-29")).toBe(Date.UTC(2024, 1, 29));
    expect(parseDateInput("2025-02-29")).toBeUndefined();
    expect(parseDateInput("Tue, 01 Jan 2025 00:00:00 GMT")).toBeUndefined();
  });
});

describe("validateStatsPeriod", () => {
  test.each([
    ["7d", 7 * DAY_MS],
    ["30d", 30 * DAY_MS],
    ["90d", 90 * DAY_MS],
    ["1y", YEAR_MS],
  ])("%s is a window of %d ms", (period, ms) => {
    expect(validateStatsPeriod(period)).toEqual({ period, windowMs: ms } as never);
  });

  test.each([["1d"], ["7D"], ["365d"], [""], [undefined], [7]])("%p is INVALID_PERIOD", (period) => {
    expectGovernanceError(() => validateStatsPeriod(period), "INVALID_PERIOD", "period");
  });
});

describe("validateTemplateName", () => {
  test.each([["gdpr"], ["Custom"], [""], [undefined], ["SOC 2"]])("%p is INVALID_COMPLIANCE_MODE", (name) => {
    expectGovernanceError(() => validateTemplateName(name), "INVALID_COMPLIANCE_MODE", "name");
  });
});
