import { describe, expect, test } from "bun:test";
import { getTemplate, globalDefaults, SESSION_DEFAULTS } from "~/governance/templates";
import { expectGovernanceError } from "./support";

const r = (min: number, max: number, versions: number) => ({ range: [min, max], versions });
const keep = (entries: Record<string, number>) =>
  Object.fromEntries(Object.entries(entries).map(([t, n]) => [t, { versionsToKeep: n }]));

// One row per SPEC §5.3 table column.
const TABLE = {
  GDPR: {
    conversations: {
      retention: { deleteAfter: "7y", archiveAfter: "1y", purgeOnUserRequest: true },
      purging: { autoDelete: true, deleteInactiveAfter: "2y" },
    },
    immutable: {
      retention: { defaultVersions: 20, byType: keep({ "audit-log": -1, policy: -1, "kb-article": 50 }) },
      purging: { autoCleanupVersions: true },
    },
    mutable: { retention: { defaultTTL: null, purgeInactiveAfter: "2y" }, purging: { autoDelete: false } },
    vector: {
      retention: {
        defaultVersions: 10,
        byImportance: [r(0, 20, 1), r(21, 40, 3), r(41, 70, 10), r(71, 89, 20), r(90, 100, 30)],
      },
      purging: { autoCleanupVersions: true, deleteOrphaned: false },
    },
    compliance: { mode: "GDPR", dataRetentionYears: 7, requireJustification: [90, 100], auditLogging: true },
  },
  HIPAA: {
    conversations: {
      retention: { deleteAfter: "6y", purgeOnUserRequest: true },
      purging: { autoDelete: false, deleteInactiveAfter: "6y" },
    },
    immutable: {
      retention: { defaultVersions: 50, byType: keep({ "audit-log": -1, "medical-record": -1, policy: -1 }) },
      purging: { autoCleanupVersions: false },
    },
    mutable: { retention: { defaultTTL: null, purgeInactiveAfter: "6y" }, purging: { autoDelete: false } },
    vector: {
      retention: { defaultVersions: 20, byImportance: [r(0, 20, 5), r(21, 40, 10), r(41, 100, 20)] },
      purging: { autoCleanupVersions: false, deleteOrphaned: false },
    },
    compliance: { mode: "HIPAA", dataRetentionYears: 6, requireJustification: [80, 90, 100], auditLogging: true },
  },
  SOC2: {
    conversations: {
      retention: { deleteAfter: "7y", archiveAfter: "1y", purgeOnUserRequest: true },
      purging: { autoDelete: true, deleteInactiveAfter: "2y" },
    },
    immutable: {
      retention: { defaultVersions: 30, byType: keep({ "audit-log": -1, "access-log": -1, policy: -1 }) },
      purging: { autoCleanupVersions: true },
    },
    mutable: { retention: { defaultTTL: null, purgeInactiveAfter: "2y" }, purging: { autoDelete: false } },
    vector: {
      retention: { defaultVersions: 15, byImportance: [r(0, 30, 3), r(31, 70, 10), r(71, 100, 20)] },
      purging: { autoCleanupVersions: true, deleteOrphaned: true },
    },
    compliance: { mode: "SOC2", dataRetentionYears: 7, requireJustification: [90, 100], auditLogging: true },
  },
  FINRA: {
    conversations: {
      retention: { deleteAfter: "7y", purgeOnUserRequest: false },
      purging: { autoDelete: false, deleteInactiveAfter: "7y" },
    },
    immutable: {
      retention: { defaultVersions: -1, byType: keep({ "audit-log": -1, "financial-record": -1, transaction: -1 }) },
      purging: { autoCleanupVersions: false },
    },
    mutable: { retention: { defaultTTL: null, purgeInactiveAfter: "7y" }, purging: { autoDelete: false } },
    vector: {
      retention: { defaultVersions: 30, byImportance: [r(0, 100, -1)] },
      purging: { autoCleanupVersions: false, deleteOrphaned: false },
    },
    compliance: {
      mode: "FINRA",
      dataRetentionYears: 7,
      requireJustification: Array.from({ length: 101 }, (_, i) => i),
      auditLogging: true,
    },
  },
} as const;

describe("getTemplate", () => {
  test.each(Object.keys(TABLE))("%s has exactly the values of the SPEC table plus the session defaults", (name) => {
    expect(getTemplate(name)).toEqual({ ...TABLE[name as keyof typeof TABLE], sessions: SESSION_DEFAULTS } as never);
  });

  test("session defaults are idleTimeout 30m, maxDuration 24h, autoExtend and autoExpireIdle", () => {
    expect(getTemplate("HIPAA").sessions).toEqual({
      lifecycle: { idleTimeout: "30m", maxDuration: "24h", autoExtend: true },
      cleanup: { autoExpireIdle: true },
    });
  });

  test("templates carry no scope", () => {
    const t = getTemplate("SOC2") as Record<string, unknown>;
    expect(t.organizationId).toBeUndefined();
    expect(t.memorySpaceId).toBeUndefined();
  });

  test("every call returns a fresh deep copy", () => {
    const a = getTemplate("GDPR");
    a.vector.retention.byImportance.push({ range: [0, 1], versions: 1 });
    a.compliance.requireJustification.push(1);
    if (a.sessions) a.sessions.lifecycle.idleTimeout = "1m";
    expect(getTemplate("GDPR")).toEqual({ ...TABLE.GDPR, sessions: SESSION_DEFAULTS } as never);
  });

  test.each([["gdpr"], ["Gdpr"], ["Custom"], ["PCI"], [""], [undefined], [null]])(
    "%p is INVALID_COMPLIANCE_MODE",
    (name) => {
      expectGovernanceError(() => getTemplate(name), "INVALID_COMPLIANCE_MODE", "name");
    },
  );

  test("the global defaults are the GDPR template", () => {
    expect(globalDefaults()).toEqual(getTemplate("GDPR"));
  });
});
