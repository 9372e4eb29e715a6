// Inputs of the SDK contract: one bad input per SPEC §5.6 code and operation (with the code
// and field both transports must throw), and the template rows of SPEC §5.3.
import type { EngramClient } from "~/index";
import { getTemplate } from "~/governance/templates";
import { withValue } from "./support";

type Call = (c: EngramClient) => Promise<unknown>;
export type Case = [label: string, call: Call, code: string, field: string | undefined];

const org = (...changes: [string, unknown][]) =>
  changes.reduce<any>((p, [path, v]) => withValue(p, path, v), { organizationId: "acme", ...getTemplate("GDPR") });
const ranges = (...rs: [number, number][]) => rs.map((range) => ({ range, versions: 3 }));
const any = (v: unknown) => v as never;

const setPolicy =
  (p: unknown): Call =>
  (c) =>
    c.governance.setPolicy(any(p));
const override =
  (space: unknown, p: unknown): Call =>
  (c) =>
    c.governance.setAgentOverride(any(space), any(p));
const simulate =
  (p: unknown): Call =>
  (c) =>
    c.governance.simulate(any(p));
const enforce =
  (o: unknown): Call =>
  (c) =>
    c.governance.enforce(any(o));
const report =
  (o: unknown): Call =>
  (c) =>
    c.governance.getComplianceReport(any(o));
const period = { start: "2026-01-01", end: "2026-02-01" };

export const VALIDATION_CASES: Case[] = [
  ["setPolicy without a policy", setPolicy(undefined), "MISSING_POLICY", undefined],
  ["setPolicy with null", setPolicy(null), "MISSING_POLICY", undefined],
  [
    "setPolicy without conversations",
    setPolicy(org(["conversations", undefined])),
    "MISSING_REQUIRED_FIELD",
    "conversations",
  ],
  ["setPolicy without compliance", setPolicy(org(["compliance", undefined])), "MISSING_REQUIRED_FIELD", "compliance"],
  [
    "setPolicy without vector.retention",
    setPolicy(org(["vector.retention", undefined])),
    "MISSING_REQUIRED_FIELD",
    "vector.retention",
  ],
  ["setPolicy without a scope", setPolicy(org(["organizationId", undefined])), "MISSING_SCOPE", undefined],
  ["setPolicy with a blank organizationId", setPolicy(org(["organizationId", " "])), "INVALID_SCOPE", "organizationId"],
  ["setPolicy with an empty memorySpaceId", setPolicy(org(["memorySpaceId", ""])), "INVALID_SCOPE", "memorySpaceId"],
  // null is not "absent": an organization policy with memorySpaceId null was filed as a memory-space policy.
  ["setPolicy with a null memorySpaceId", setPolicy(org(["memorySpaceId", null])), "INVALID_SCOPE", "memorySpaceId"],
  [
    "setPolicy with a null organizationId",
    setPolicy(org(["organizationId", null], ["memorySpaceId", "bot"])),
    "INVALID_SCOPE",
    "organizationId",
  ],
  [
    "setPolicy with deleteAfter 7years",
    setPolicy(org(["conversations.retention.deleteAfter", "7years"])),
    "INVALID_PERIOD_FORMAT",
    "conversations.retention.deleteAfter",
  ],
  [
    "setPolicy with sessions idleTimeout 1w",
    setPolicy(org(["sessions.lifecycle.idleTimeout", "1w"])),
    "INVALID_PERIOD_FORMAT",
    "sessions.lifecycle.idleTimeout",
  ],
  [
    "setPolicy with immutable defaultVersions -2",
    setPolicy(org(["immutable.retention.defaultVersions", -2])),
    "INVALID_VERSIONS",
    "immutable.retention.defaultVersions",
  ],
  [
    "setPolicy with a bySourceType of 1.5",
    setPolicy(org(["vector.retention.bySourceType", { tool: 1.5 }])),
    "INVALID_VERSIONS",
    "vector.retention.bySourceType.tool",
  ],
  [
    "setPolicy with a range min >= max",
    setPolicy(org(["vector.retention.byImportance", ranges([50, 20])])),
    "INVALID_IMPORTANCE_RANGE",
    "vector.retention.byImportance[0].range",
  ],
  [
    "setPolicy with a range end over 100",
    setPolicy(org(["vector.retention.byImportance", ranges([0, 101])])),
    "INVALID_IMPORTANCE_RANGE",
    "vector.retention.byImportance[0].range",
  ],
  [
    "setPolicy with ranges sharing an end",
    setPolicy(org(["vector.retention.byImportance", ranges([0, 50], [50, 100])])),
    "OVERLAPPING_IMPORTANCE_RANGES",
    "vector.retention.byImportance[1].range",
  ],
  ["setPolicy with mode SOX", setPolicy(org(["compliance.mode", "SOX"])), "INVALID_COMPLIANCE_MODE", "compliance.mode"],

  ["setAgentOverride without overrides", override("bot", null), "MISSING_POLICY", undefined],
  ["setAgentOverride with a blank space id", override("  ", {}), "MISSING_SCOPE", "memorySpaceId"],
  ["setAgentOverride with an empty space id", override("", { vector: {} }), "MISSING_SCOPE", "memorySpaceId"],
  ["setAgentOverride with a non-object section", override("bot", { vector: "x" }), "MISSING_REQUIRED_FIELD", "vector"],
  [
    "setAgentOverride registering under a blank org",
    override("bot", { organizationId: "" }),
    "INVALID_SCOPE",
    "organizationId",
  ],
  [
    "setAgentOverride registering under a null org",
    override("bot", { organizationId: null }),
    "INVALID_SCOPE",
    "organizationId",
  ],
  [
    "setAgentOverride with archiveAfter 1.5y",
    override("bot", { conversations: { retention: { archiveAfter: "1.5y" } } }),
    "INVALID_PERIOD_FORMAT",
    "conversations.retention.archiveAfter",
  ],
  [
    "setAgentOverride with vector defaultVersions -3",
    override("bot", { vector: { retention: { defaultVersions: -3 } } }),
    "INVALID_VERSIONS",
    "vector.retention.defaultVersions",
  ],
  [
    "setAgentOverride with a range that is not a pair",
    override("bot", { vector: { retention: { byImportance: [{ range: [10], versions: 1 }] } } }),
    "INVALID_IMPORTANCE_RANGE",
    "vector.retention.byImportance[0].range",
  ],
  [
    "setAgentOverride with overlapping ranges",
    override("bot", { vector: { retention: { byImportance: ranges([0, 40], [30, 60]) } } }),
    "OVERLAPPING_IMPORTANCE_RANGES",
    "vector.retention.byImportance[1].range",
  ],
  [
    "setAgentOverride with mode gdpr",
    override("bot", { compliance: { mode: "gdpr" } }),
    "INVALID_COMPLIANCE_MODE",
    "compliance.mode",
  ],

  ["getTemplate Custom", (c) => c.governance.getTemplate("Custom"), "INVALID_COMPLIANCE_MODE", "name"],
  ["getTemplate gdpr", (c) => c.governance.getTemplate("gdpr"), "INVALID_COMPLIANCE_MODE", "name"],
  ["getTemplate with an empty name", (c) => c.governance.getTemplate(""), "INVALID_COMPLIANCE_MODE", "name"],

  ["enforce without options", enforce(undefined), "MISSING_OPTIONS", undefined],
  ["enforce without a scope", enforce({ layers: ["vector"] }), "MISSING_SCOPE", "scope"],
  ["enforce with an empty scope", enforce({ scope: {} }), "INVALID_SCOPE", "scope"],
  [
    "enforce with a blank organizationId",
    enforce({ scope: { organizationId: " " } }),
    "INVALID_SCOPE",
    "scope.organizationId",
  ],
  [
    "enforce with a null memorySpaceId",
    enforce({ scope: { organizationId: "acme", memorySpaceId: null } }),
    "INVALID_SCOPE",
    "scope.memorySpaceId",
  ],
  [
    "enforce with layers as a string",
    enforce({ scope: { organizationId: "acme" }, layers: "vector" }),
    "INVALID_LAYERS",
    "layers",
  ],
  ["enforce with no layers", enforce({ scope: { organizationId: "acme" }, layers: [] }), "INVALID_LAYERS", "layers"],
  [
    "enforce with layer graph",
    enforce({ scope: { organizationId: "acme" }, layers: ["vector", "graph"] }),
    "INVALID_LAYERS",
    "layers",
  ],
  [
    "enforce with rule archive",
    enforce({ scope: { memorySpaceId: "bot" }, rules: ["archive"] }),
    "INVALID_RULES",
    "rules",
  ],
  ["enforce with no rules", enforce({ scope: { memorySpaceId: "bot" }, rules: [] }), "INVALID_RULES", "rules"],

  ["simulate without a policy", simulate(undefined), "MISSING_POLICY", undefined],
  ["simulate with a null section", simulate({ vector: null }), "MISSING_REQUIRED_FIELD", "vector"],
  ["simulate with an empty organizationId", simulate({ organizationId: "" }), "INVALID_SCOPE", "organizationId"],
  [
    "simulate with defaultTTL 30 d",
    simulate({ mutable: { retention: { defaultTTL: "30 d" } } }),
    "INVALID_PERIOD_FORMAT",
    "mutable.retention.defaultTTL",
  ],
  [
    "simulate with versionsToKeep -5",
    simulate({ immutable: { retention: { byType: { policy: { versionsToKeep: -5 } } } } }),
    "INVALID_VERSIONS",
    "immutable.retention.byType.policy.versionsToKeep",
  ],
  [
    "simulate with a negative range start",
    simulate({ vector: { retention: { byImportance: ranges([-1, 10]) } } }),
    "INVALID_IMPORTANCE_RANGE",
    "vector.retention.byImportance[0].range",
  ],
  [
    "simulate with overlapping ranges",
    simulate({ vector: { retention: { byImportance: ranges([0, 10], [5, 20]) } } }),
    "OVERLAPPING_IMPORTANCE_RANGES",
    "vector.retention.byImportance[1].range",
  ],
  ["simulate with mode PCI", simulate({ compliance: { mode: "PCI" } }), "INVALID_COMPLIANCE_MODE", "compliance.mode"],

  [
    "getComplianceReport with a bad start",
    report({ organizationId: "acme", period: { start: "yesterday", end: period.end } }),
    "INVALID_DATE_RANGE",
    "start",
  ],
  [
    "getComplianceReport with a bad end",
    report({ organizationId: "acme", period: { start: period.start, end: "2026-02-30" } }),
    "INVALID_DATE_RANGE",
    "end",
  ],
  [
    "getComplianceReport with start after end",
    report({ organizationId: "acme", period: { start: period.end, end: period.start } }),
    "INVALID_DATE_RANGE",
    "period",
  ],
  [
    "getComplianceReport with start equal to end",
    report({ organizationId: "acme", period: { start: 5, end: 5 } }),
    "INVALID_DATE_RANGE",
    "period",
  ],
  [
    "getComplianceReport with an invalid Date",
    report({ organizationId: "acme", period: { start: new Date(Number.NaN), end: period.end } }),
    "INVALID_DATE_RANGE",
    "start",
  ],
  ["getComplianceReport without a scope", report({ period }), "MISSING_SCOPE", undefined],
  [
    "getComplianceReport with a blank memorySpaceId",
    report({ memorySpaceId: " ", period }),
    "INVALID_SCOPE",
    "memorySpaceId",
  ],

  [
    "getComplianceReport with a null organizationId",
    report({ organizationId: null, period }),
    "INVALID_SCOPE",
    "organizationId",
  ],
  ["simulate with a null memorySpaceId", simulate({ memorySpaceId: null }), "INVALID_SCOPE", "memorySpaceId"],

  ["getEnforcementStats for 2d", (c) => c.governance.getEnforcementStats({ period: "2d" }), "INVALID_PERIOD", "period"],
  ["getEnforcementStats for 7D", (c) => c.governance.getEnforcementStats({ period: "7D" }), "INVALID_PERIOD", "period"],
  [
    "getEnforcementStats without a period",
    (c) => c.governance.getEnforcementStats(any({})),
    "INVALID_PERIOD",
    "period",
  ],

  [
    "getPolicy with an empty organizationId",
    (c) => c.governance.getPolicy({ organizationId: "" }),
    "INVALID_SCOPE",
    "organizationId",
  ],

  ["removePolicy without a scope", (c) => c.governance.removePolicy(any(undefined)), "MISSING_SCOPE", undefined],
  ["removePolicy with neither id", (c) => c.governance.removePolicy({}), "MISSING_SCOPE", undefined],
  [
    "removePolicy with a blank organizationId",
    (c) => c.governance.removePolicy({ organizationId: " " }),
    "INVALID_SCOPE",
    "organizationId",
  ],
  [
    "removePolicy with a null memorySpaceId",
    (c) => c.governance.removePolicy(any({ memorySpaceId: null })),
    "INVALID_SCOPE",
    "memorySpaceId",
  ],
];

/** SPEC §5.3's template table, one projection per template. */
export const TEMPLATE_ROWS = (t: any) => [
  t.conversations.retention.deleteAfter,
  t.conversations.retention.archiveAfter ?? "–",
  t.conversations.retention.purgeOnUserRequest,
  t.conversations.purging.autoDelete,
  t.conversations.purging.deleteInactiveAfter,
  t.immutable.retention.defaultVersions,
  Object.entries(t.immutable.retention.byType)
    .map(([k, v]: [string, any]) => `${k} ${v.versionsToKeep}`)
    .join(", "),
  t.immutable.purging.autoCleanupVersions,
  t.mutable.retention.defaultTTL,
  t.mutable.retention.purgeInactiveAfter,
  t.mutable.purging.autoDelete,
  t.vector.retention.defaultVersions,
  t.vector.retention.byImportance.map((r: any) => `[${r.range}]→${r.versions}`).join(" "),
  t.vector.purging.autoCleanupVersions,
  t.vector.purging.deleteOrphaned,
  t.compliance.dataRetentionYears,
  t.compliance.requireJustification.length === 101 ? "every level 0–100" : `[${t.compliance.requireJustification}]`,
  t.compliance.auditLogging,
];

export const TEMPLATE_TABLE: Record<string, unknown[]> = {
  GDPR: [
    "7y",
    "1y",
    true,
    true,
    "2y",
    20,
    "audit-log -1, policy -1, kb-article 50",
    true,
    null,
    "2y",
    false,
    10,
    "[0,20]→1 [21,40]→3 [41,70]→10 [71,89]→20 [90,100]→30",
    true,
    false,
    7,
    "[90,100]",
    true,
  ],
  HIPAA: [
    "6y",
    "–",
    true,
    false,
    "6y",
    50,
    "audit-log -1, medical-record -1, policy -1",
    false,
    null,
    "6y",
    false,
    20,
    "[0,20]→5 [21,40]→10 [41,100]→20",
    false,
    false,
    6,
    "[80,90,100]",
    true,
  ],
  SOC2: [
    "7y",
    "1y",
    true,
    true,
    "2y",
    30,
    "audit-log -1, access-log -1, policy -1",
    true,
    null,
    "2y",
    false,
    15,
    "[0,30]→3 [31,70]→10 [71,100]→20",
    true,
    true,
    7,
    "[90,100]",
    true,
  ],
  FINRA: [
    "7y",
    "–",
    false,
    false,
    "7y",
    -1,
    "audit-log -1, financial-record -1, transaction -1",
    false,
    null,
    "7y",
    false,
    30,
    "[0,100]→-1",
    false,
    false,
    7,
    "every level 0–100",
    true,
  ],
};
