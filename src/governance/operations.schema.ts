// TypeBox schemas of the governance operations' inputs and results (enforce, simulate,
// compliance report, stats), split from policy.schema.ts. Loose on purpose: validate.ts
// produces the exact codes; these drive types and the OpenAPI document.

import { Type, type Static } from "@sinclair/typebox";
import { PolicyScope } from "./policy.schema";

export const GOVERNANCE_LAYERS = ["conversations", "immutable", "mutable", "vector"] as const;
export type GovernanceLayer = (typeof GOVERNANCE_LAYERS)[number];
export const ENFORCEMENT_RULES = ["retention", "purging"] as const;
export type EnforcementRule = (typeof ENFORCEMENT_RULES)[number];
export const STATS_PERIODS = ["7d", "30d", "90d", "1y"] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

const Count = (description?: string) => Type.Integer(description ? { description } : {});
const MB = (description: string) => Type.Number({ description: `${description} Megabytes (MiB) of record bytes.` });
const Usd = Type.Number({ description: "Estimated monthly USD: storageFreed × STORAGE_USD_PER_MB_MONTH." });

export const EnforceOptions = Type.Object(
  {
    scope: Type.Optional(PolicyScope),
    layers: Type.Optional(
      Type.Array(Type.String(), {
        description: "Any of conversations, immutable, mutable, vector; omitted = all four.",
      }),
    ),
    rules: Type.Optional(Type.Array(Type.String(), { description: "Any of retention, purging; omitted = both." })),
  },
  { description: "Options of enforce; scope is required (checked by the validator)." },
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
  { description: "What one enforcement run really did." },
);
export type EnforcementResult = Static<typeof EnforcementResult>;

export const StatsOptions = Type.Object(
  { period: Type.Optional(Type.String({ description: "7d, 30d, 90d or 1y." })) },
  { description: "Options of getEnforcementStats." },
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
  { description: "Enforcement log summed over a window." },
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
  { description: "Dry-run impact of a policy on the real data." },
);
export type SimulationImpact = Static<typeof SimulationImpact>;

const DateInput = Type.Union([Type.String({ description: "ISO 8601" }), Type.Number({ description: "Epoch ms" })]);
export const ComplianceReportOptions = Type.Object(
  {
    organizationId: Type.Optional(Type.String()),
    memorySpaceId: Type.Optional(Type.String()),
    period: Type.Optional(
      Type.Object({ start: DateInput, end: DateInput }, { description: "start strictly before end." }),
    ),
  },
  { description: "Options of getComplianceReport (the SDK also accepts Date objects)." },
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
  { description: "Compliance report over real data and logs inside the period." },
);
export type ComplianceReport = Static<typeof ComplianceReport>;
