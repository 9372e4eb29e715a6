import { describe, expect, test } from "bun:test";
import { DAY_MS, YEAR_MS } from "~/governance/durations";
import {
  canEraseOnUserRequest,
  classifyDue,
  complianceStatus,
  excessVersions,
  isHeldByMinimumRetention,
  minimumRetentionMs,
  requiresJustification,
} from "~/governance/retention-rules";
import { NOW, ago, rulesFrom } from "./support";

describe("minimum retention", () => {
  test.each([
    ["GDPR", 0],
    ["SOC2", 0],
    ["HIPAA", 6 * YEAR_MS],
    ["FINRA", 7 * YEAR_MS],
  ])("%s holds data for %d ms", (mode, ms) => {
    expect(minimumRetentionMs(rulesFrom(mode))).toBe(ms);
  });

  test("only FINRA and HIPAA modes apply it, whatever dataRetentionYears says", () => {
    expect(minimumRetentionMs(rulesFrom("GDPR", ["compliance.mode", "Custom"]))).toBe(0);
    expect(
      minimumRetentionMs(rulesFrom("GDPR", ["compliance.mode", "FINRA"], ["compliance.dataRetentionYears", 3])),
    ).toBe(3 * YEAR_MS);
  });

  test("data exactly dataRetentionYears old may be deleted; one millisecond younger may not", () => {
    const finra = rulesFrom("FINRA");
    expect(isHeldByMinimumRetention(finra, ago(7 * YEAR_MS), NOW)).toBe(false);
    expect(isHeldByMinimumRetention(finra, ago(7 * YEAR_MS - 1), NOW)).toBe(true);
  });

  test("what data earned when written holds it under any later policy, up to the earned instant exclusive", () => {
    const gdpr = rulesFrom("GDPR");
    expect(isHeldByMinimumRetention(gdpr, ago(YEAR_MS), NOW, NOW + 1)).toBe(true);
    expect(isHeldByMinimumRetention(gdpr, ago(YEAR_MS), NOW, NOW)).toBe(false);
    expect(isHeldByMinimumRetention(gdpr, ago(YEAR_MS), NOW, null)).toBe(false);
    // The policy in force still holds what it holds, whatever was earned.
    expect(isHeldByMinimumRetention(rulesFrom("HIPAA"), ago(YEAR_MS), NOW, ago(1))).toBe(true);
    expect(canEraseOnUserRequest(gdpr, ago(YEAR_MS), NOW, NOW + DAY_MS)).toBe(false);
  });

  test("user erasure needs purgeOnUserRequest and data outside the minimum retention", () => {
    expect(canEraseOnUserRequest(rulesFrom("GDPR"), NOW, NOW)).toBe(true);
    expect(canEraseOnUserRequest(rulesFrom("FINRA"), ago(10 * YEAR_MS), NOW)).toBe(false);
    expect(canEraseOnUserRequest(rulesFrom("HIPAA"), ago(YEAR_MS), NOW)).toBe(false);
    expect(canEraseOnUserRequest(rulesFrom("HIPAA"), ago(6 * YEAR_MS), NOW)).toBe(true);
  });
});

describe("excessVersions", () => {
  const versions = [1, 2, 3, 4].map((v) => ({ version: v, createdAt: v * 1000, bytes: v }));

  test("returns the versions beyond the newest `keep`, newest first, due from the version that displaced them", () => {
    expect(excessVersions(versions, 2)).toEqual([
      { version: 2, createdAt: 2000, bytes: 2, dueAt: 4000 },
      { version: 1, createdAt: 1000, bytes: 1, dueAt: 3000 },
    ]);
  });

  test("-1 keeps all, 0 keeps the current version, a large count keeps all", () => {
    expect(excessVersions(versions, -1)).toEqual([]);
    expect(excessVersions(versions, 0).map((v) => v.version)).toEqual([3, 2, 1]);
    expect(excessVersions(versions, 10)).toEqual([]);
  });
});

describe("requiresJustification", () => {
  test("an explicitly set policy requires it at the listed importance levels only", () => {
    expect(requiresJustification(rulesFrom("GDPR"), 90, true)).toBe(true);
    expect(requiresJustification(rulesFrom("GDPR"), 89, true)).toBe(false);
    expect(requiresJustification(rulesFrom("HIPAA"), 80, true)).toBe(true);
    expect(requiresJustification(rulesFrom("FINRA"), 0, true)).toBe(true);
  });

  test("the implicit global defaults never require it", () => {
    expect(requiresJustification(rulesFrom("GDPR"), 100, false)).toBe(false);
  });
});

describe("compliance status", () => {
  test("an item is due from its due time and overdue once more than a grace day has passed", () => {
    expect(classifyDue(NOW + 1, NOW)).toBe("not_due");
    expect(classifyDue(NOW, NOW)).toBe("due");
    expect(classifyDue(ago(DAY_MS), NOW)).toBe("due");
    expect(classifyDue(ago(DAY_MS + 1), NOW)).toBe("overdue");
  });

  test("nothing due is COMPLIANT, due is WARNING, overdue is NON_COMPLIANT", () => {
    expect(complianceStatus([], NOW)).toBe("COMPLIANT");
    expect(complianceStatus([NOW + DAY_MS], NOW)).toBe("COMPLIANT");
    expect(complianceStatus([NOW, NOW + 5], NOW)).toBe("WARNING");
    expect(complianceStatus([NOW, ago(2 * DAY_MS)], NOW)).toBe("NON_COMPLIANT");
  });

  test("a deletion request unfulfilled for more than 30 days is NON_COMPLIANT", () => {
    expect(complianceStatus([], NOW, ago(30 * DAY_MS))).toBe("COMPLIANT");
    expect(complianceStatus([], NOW, ago(30 * DAY_MS + 1))).toBe("NON_COMPLIANT");
    expect(complianceStatus([], NOW, null)).toBe("COMPLIANT");
  });
});
