// TypeBox schemas of the governance operations' inputs and results (enforce, simulate,
// compliance report, stats), split from policy.schema.ts. Loose on purpose: validate.ts
// produces the exact codes; these drive types and the OpenAPI document.

import { Type, type Static } from "@sinclair/typebox";
import { example } from "~/shared/example";
import { GovernancePolicy, PolicyScope, TEMPLATE_NAMES } from "./policy.schema";

export const GOVERNANCE_LAYERS = ["conversations", "immutable", "mutable", "vector"] as const;
export type GovernanceLayer = (typeof GOVERNANCE_LAYERS)[number];
export const ENFORCEMENT_RULES = ["retention", "purging"] as const;
export type EnforcementRule = (typeof ENFORCEMENT_RULES)[number];
export const STATS_PERIODS = ["7d", "30d", "90d", "1y"] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

const Count = (description?: string) => Type.Integer(description ? { description } : {});
const MB = (description: string) => Type.Number({ description: `${description} Megabytes (MiB) of record bytes.` });
const Usd = Type.Number({ description: "Estimated monthly USD: storageFreed × STORAGE_USD_PER_MB_MONTH." });
const JUNE = Date.UTC(2026, 5, 1);

export const EnforceOptions = Type.Object(
  {
    scope: PolicyScope,
    layers: Type.Optional(
      Type.Array(Type.String(), {
        description: "Any of conversations, immutable, mutable, vector; omitted = all four.",
      }),
    ),
    rules: Type.Optional(Type.Array(Type.String(), { description: "Any of retention, purging; omitted = both." })),
  },
  {
    description: "Options of enforce; scope is required (checked by the validator).",
    ...example({ scope: { organizationId: "acme" }, layers: ["vector", "mutable"] }),
  },
);
export type EnforceOptions = Static<typeof EnforceOptions>;

export const EnforcementResult = Type.Object(
  {
    enforcedAt: Type.Number({ description: "Epoch ms of the run." }),
    versionsDeleted: Count("Versions deleted across layers."),
    recordsPurged: Count("Whole records deleted across layers."),
    storageFreed: MB("Freed."),
    affectedLayers: Type.Array(Type.String(), { description: "The layers processed." }),
  },
  {
    description: "What one enforcement run really did.",
    ...example({
      enforcedAt: JUNE,
      versionsDeleted: 12,
      recordsPurged: 3,
      storageFreed: 0.02,
      affectedLayers: ["vector", "mutable"],
    }),
  },
);
export type EnforcementResult = Static<typeof EnforcementResult>;

export const StatsOptions = Type.Object(
  { period: Type.String({ description: "7d, 30d, 90d or 1y." }) },
  { description: "Options of getEnforcementStats.", ...example({ period: "30d" }) },
);
export type StatsOptions = Static<typeof StatsOptions>;

export const EnforcementStats = Type.Object(
  {
    period: Type.Object({ start: Type.Number(), end: Type.Number() }, { description: "Window, epoch ms." }),
    conversations: Type.Object({ purged: Count("Deleted."), archived: Count("Archived.") }),
    immutable: Type.Object({ versionsDeleted: Count("Versions deleted."), entitiesPurged: Count("Entities deleted.") }),
    vector: Type.Object({ versionsDeleted: Count("Versions deleted."), memoriesPurged: Count("Memories deleted.") }),
    mutable: Type.Object({ keysDeleted: Count("Keys deleted.") }),
    storageFreed: MB("Freed in the window."),
    costSavings: Usd,
  },
  {
    description: "Enforcement log summed over a window.",
    ...example({
      period: { start: JUNE - 30 * 86_400_000, end: JUNE },
      conversations: { purged: 4, archived: 9 },
      immutable: { versionsDeleted: 2, entitiesPurged: 0 },
      vector: { versionsDeleted: 12, memoriesPurged: 3 },
      mutable: { keysDeleted: 1 },
      storageFreed: 0.05,
      costSavings: 0.00115,
    }),
  },
);
export type EnforcementStats = Static<typeof EnforcementStats>;

export const LayerImpact = Type.Object({
  affected: Count("Versions and records the policy would remove."),
  storageMB: MB("Would be freed."),
});
export const SimulationImpact = Type.Object(
  {
    versionsAffected: Count("Versions that would be deleted."),
    recordsAffected: Count("Whole records that would be deleted."),
    storageFreed: MB("Would be freed."),
    costSavings: Usd,
    breakdown: Type.Object({
      conversations: LayerImpact,
      immutable: LayerImpact,
      mutable: LayerImpact,
      vector: LayerImpact,
    }),
  },
  {
    description: "Dry-run impact of a policy on the real data.",
    ...example({
      versionsAffected: 12,
      recordsAffected: 3,
      storageFreed: 0.02,
      costSavings: 0.00046,
      breakdown: {
        conversations: { affected: 0, storageMB: 0 },
        immutable: { affected: 0, storageMB: 0 },
        mutable: { affected: 1, storageMB: 0.001 },
        vector: { affected: 14, storageMB: 0.019 },
      },
    }),
  },
);
export type SimulationImpact = Static<typeof SimulationImpact>;

const DateInput = Type.Union([Type.String({ description: "ISO 8601" }), Type.Number({ description: "Epoch ms" })]);
export const ComplianceReportOptions = Type.Object(
  {
    organizationId: Type.Optional(Type.String()),
    memorySpaceId: Type.Optional(Type.String()),
    period: Type.Object({ start: DateInput, end: DateInput }, { description: "start strictly before end." }),
  },
  {
    description: "Options of getComplianceReport (the SDK also accepts Date objects).",
    ...example({ organizationId: "acme", period: { start: "2026-05-01T00:00:00Z", end: "2026-06-01T00:00:00Z" } }),
  },
);
export type ComplianceReportOptions = Static<typeof ComplianceReportOptions>;

export const COMPLIANCE_STATUSES = ["COMPLIANT", "WARNING", "NON_COMPLIANT"] as const;
export const ComplianceStatus = Type.Union(
  COMPLIANCE_STATUSES.map((s) => Type.Literal(s)),
  {
    description:
      "COMPLIANT: nothing held beyond its limit; WARNING: items due now; NON_COMPLIANT: overdue by more than a grace day, or deletion requests unfulfilled for 30 days.",
  },
);
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];

export const ComplianceReport = Type.Object(
  {
    organizationId: Type.Optional(Type.String()),
    memorySpaceId: Type.Optional(Type.String()),
    period: Type.Object({ start: Type.Number(), end: Type.Number() }, { description: "Echoed, epoch ms." }),
    generatedAt: Type.Number({ description: "Epoch ms." }),
    conversations: Type.Object({
      total: Count(),
      deleted: Count(),
      archived: Count(),
      complianceStatus: ComplianceStatus,
    }),
    immutable: Type.Object({
      entities: Count(),
      totalVersions: Count(),
      versionsDeleted: Count(),
      complianceStatus: ComplianceStatus,
    }),
    vector: Type.Object({
      memories: Count(),
      versionsDeleted: Count(),
      orphanedCleaned: Count(),
      complianceStatus: ComplianceStatus,
    }),
    mutable: Type.Optional(Type.Object({ keys: Count(), keysDeleted: Count(), complianceStatus: ComplianceStatus })),
    dataRetention: Type.Object({
      oldestRecord: Type.Union([Type.Number(), Type.Null()], {
        description: "Epoch ms of the oldest record; null when empty.",
      }),
      withinPolicy: Type.Boolean(),
    }),
    userRequests: Type.Object({
      deletionRequests: Count(),
      fulfilled: Count(),
      avgFulfillmentTime: Type.String({ description: 'Human string, e.g. "2.3 hours".' }),
    }),
  },
  {
    description: "Compliance report over real data and logs inside the period.",
    ...example({
      organizationId: "acme",
      period: { start: Date.UTC(2026, 4, 1), end: JUNE },
      generatedAt: JUNE,
      conversations: { total: 40, deleted: 4, archived: 9, complianceStatus: "COMPLIANT" },
      immutable: { entities: 7, totalVersions: 11, versionsDeleted: 2, complianceStatus: "COMPLIANT" },
      vector: { memories: 320, versionsDeleted: 12, orphanedCleaned: 0, complianceStatus: "COMPLIANT" },
      mutable: { keys: 5, keysDeleted: 1, complianceStatus: "COMPLIANT" },
      dataRetention: { oldestRecord: Date.UTC(2026, 0, 3), withinPolicy: true },
      userRequests: { deletionRequests: 1, fulfilled: 1, avgFulfillmentTime: "0.0 hours" },
    }),
  },
);
export type ComplianceReport = Static<typeof ComplianceReport>;

// ---- the HTTP routes' own inputs and results ----
export const PolicyTemplate = Type.Omit(GovernancePolicy, ["organizationId", "memorySpaceId"], {
  description: "A policy without its scope: a compliance template.",
});
export const MemorySpacePath = Type.Object(
  { memorySpaceId: Type.String({ description: "Memory space (agent_id) the override applies to." }) },
  example({ memorySpaceId: "travel-bot" }),
);
export const TemplatePath = Type.Object(
  { name: Type.String({ enum: [...TEMPLATE_NAMES], description: "GDPR, HIPAA, SOC2 or FINRA (case-sensitive)." }) },
  example({ name: "GDPR" }),
);
export const PolicyQuery = Type.Object(
  { ...PolicyScope.properties },
  { description: PolicyScope.description, ...example({ organizationId: "acme" }) },
);
export const RemovePolicyResult = Type.Object(
  {
    success: Type.Literal(true),
    removed: Type.Boolean({ description: "Whether the scope had a policy of its own to remove." }),
  },
  example({ success: true, removed: true }),
);

export const OverrideResult = Type.Object(
  { success: Type.Literal(true), memorySpaceId: Type.String() },
  example({ success: true, memorySpaceId: "travel-bot" }),
);
export type OverrideResult = Static<typeof OverrideResult>;

export const AuditQuery = Type.Object(
  {
    from: Type.Optional(
      Type.Union([Type.Integer(), Type.String()], { description: "ISO date or epoch ms (default 0)" }),
    ),
    to: Type.Optional(
      Type.Union([Type.Integer(), Type.String()], { description: "ISO date or epoch ms (default now)" }),
    ),
    limit: Type.Optional(Type.Integer({ description: "1–10000 (default 1000)" })),
    organizationId: Type.Optional(Type.String({ description: "Default: this server's organization" })),
  },
  example({ from: "2026-05-01T00:00:00Z", limit: 100 }),
);
export const AuditEntries = Type.Object(
  {
    success: Type.Literal(true),
    entries: Type.Array(
      Type.Object({
        at: Type.String({ format: "date-time" }),
        organization_id: Type.String(),
        memory_space_id: Type.Union([Type.String(), Type.Null()]),
        user_id: Type.Union([Type.String(), Type.Null()]),
        method: Type.String(),
        path: Type.String(),
        status: Type.Integer(),
      }),
    ),
  },
  example({
    success: true,
    entries: [
      {
        at: "2026-05-31T17:02:11.000Z",
        organization_id: "acme",
        memory_space_id: "travel-bot",
        user_id: "alice",
        method: "POST",
        path: "/add_memories",
        status: 200,
      },
    ],
  }),
);
export type AuditEntries = Static<typeof AuditEntries>;
