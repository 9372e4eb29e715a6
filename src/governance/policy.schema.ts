// TypeBox schemas (and their Static types) of governance policies, their partial/override
// form, and the inputs and results of enforce, simulate, reports and stats (seed 001).
// Deliberately loose (no patterns, ranges or enums): validate.ts owns the exact error codes.

import { Type, type Static, type TSchema } from "@sinclair/typebox";

const Duration = (description: string) =>
  Type.String({ description: `${description} Duration: integer + m|h|d|y (y = 365 days), e.g. 30m, 24h, 7d, 7y.` });
const VersionCount = (description: string) =>
  Type.Number({ description: `${description} Integer >= -1; -1 = unlimited.` });
const obj = <T extends Parameters<typeof Type.Object>[0]>(props: T, description: string) =>
  Type.Object(props, { description });
const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

export const PolicyScope = obj(
  {
    organizationId: opt(Type.String({ description: "Organization the policy applies to." })),
    memorySpaceId: opt(Type.String({ description: "Memory space (agent_id) the override applies to." })),
  },
  "Scope of a policy or an operation: an organization, a memory space, or both.",
);
export type PolicyScope = Static<typeof PolicyScope>;

// ── conversations ──────────────────────────────────────────────────────────────
export const ConversationsRetention = obj(
  {
    deleteAfter: Duration("Delete conversations older than this (age from creation)."),
    archiveAfter: opt(Duration("Archive (cold storage) conversations older than this.")),
    purgeOnUserRequest: Type.Boolean({ description: "Honour users' erasure requests." }),
  },
  "Conversation retention.",
);
export const ConversationsPurging = obj(
  {
    autoDelete: Type.Boolean({ description: "Enables deleteInactiveAfter." }),
    deleteInactiveAfter: opt(Duration("Delete conversations with no message for this long.")),
  },
  "Conversation purging.",
);
export const ConversationsPolicy = obj(
  { retention: ConversationsRetention, purging: ConversationsPurging },
  "Private conversations (append-only message logs).",
);

// ── immutable ──────────────────────────────────────────────────────────────────
export const ImmutableTypeRule = obj(
  {
    versionsToKeep: VersionCount("Newest versions kept for entities of this type."),
    deleteAfter: opt(Duration("Delete entities of this type older than this.")),
  },
  "Per-type rule for immutable records.",
);
export const ImmutableRetention = obj(
  {
    defaultVersions: VersionCount("Versions kept per entity when its type has no rule."),
    byType: Type.Record(Type.String(), ImmutableTypeRule, { description: "Rules by record type." }),
  },
  "Immutable record retention.",
);
export const ImmutablePurging = obj(
  {
    autoCleanupVersions: Type.Boolean({ description: "Enables version trimming (defaultVersions/byType)." }),
    purgeUnusedAfter: opt(Duration("Delete entities not read or written for this long.")),
  },
  "Immutable record purging.",
);
export const ImmutablePolicy = obj(
  { retention: ImmutableRetention, purging: ImmutablePurging },
  "Shared, versioned, organization-wide records.",
);

// ── mutable ────────────────────────────────────────────────────────────────────
export const MutableRetention = obj(
  {
    defaultTTL: opt(
      Type.Union([Duration("TTL for keys without their own."), Type.Null()], {
        description: "null = keys without their own TTL never expire.",
      }),
    ),
    purgeInactiveAfter: opt(Duration("Delete keys not updated for this long.")),
  },
  "Mutable key retention.",
);
export const MutablePurging = obj(
  {
    autoDelete: Type.Boolean({ description: "Enables deleteUnaccessedAfter." }),
    deleteUnaccessedAfter: opt(Duration("Delete keys not read for this long.")),
  },
  "Mutable key purging.",
);
export const MutablePolicy = obj(
  { retention: MutableRetention, purging: MutablePurging },
  "Shared mutable key/value data.",
);

// ── vector ─────────────────────────────────────────────────────────────────────
export const ImportanceRule = obj(
  {
    range: Type.Tuple([Type.Number(), Type.Number()], {
      description: "[min, max], inclusive, within 0–100, min < max; ranges must not overlap.",
    }),
    versions: VersionCount("Versions kept per memory whose importance is in range."),
  },
  "Versions to keep for an importance range.",
);
export const VectorRetention = obj(
  {
    defaultVersions: VersionCount("Versions kept per memory when no other rule matches."),
    byImportance: Type.Array(ImportanceRule, { description: "First range containing the memory's importance wins." }),
    bySourceType: opt(
      Type.Record(Type.String(), VersionCount("Versions kept."), {
        description:
          "Versions by source type (conversation, a2a, system, tool); used when no importance range matches.",
      }),
    ),
  },
  "Vector memory version retention.",
);
export const VectorPurging = obj(
  {
    autoCleanupVersions: Type.Boolean({ description: "Enables version trimming." }),
    deleteOrphaned: Type.Boolean({ description: "Delete memories whose references all point at nothing." }),
  },
  "Vector memory purging.",
);
export const VectorPolicy = obj(
  { retention: VectorRetention, purging: VectorPurging },
  "Vector memories (the memories of the HTTP API).",
);

// ── sessions ───────────────────────────────────────────────────────────────────
export const SessionsLifecycle = obj(
  {
    idleTimeout: Duration("No activity for this long → idle (default 30m)."),
    maxDuration: Duration("Maximum session lifetime (default 24h)."),
    autoExtend: Type.Boolean({ description: "Activity extends the session (default true)." }),
    warnBeforeExpiry: opt(Duration("Warning lead time before expiry.")),
  },
  "Session lifecycle.",
);
export const SessionsCleanup = obj(
  {
    autoExpireIdle: Type.Boolean({ description: "Idle sessions end (default true)." }),
    deleteEndedAfter: opt(Duration("Delete ended sessions after this age.")),
    archiveAfter: opt(Duration("Archive ended sessions after this age.")),
  },
  "Session cleanup.",
);
export const SessionsLimits = obj(
  {
    maxActiveSessions: opt(Type.Number({ description: "Concurrent sessions per user (positive integer)." })),
    maxSessionsPerDevice: opt(Type.Number({ description: "Sessions per device type (positive integer)." })),
  },
  "Session limits.",
);
export const SessionsPolicy = obj(
  { lifecycle: SessionsLifecycle, cleanup: SessionsCleanup, limits: opt(SessionsLimits) },
  "Session lifecycle settings, executed by the sessions API.",
);

// ── compliance ─────────────────────────────────────────────────────────────────
export const COMPLIANCE_MODES = ["GDPR", "HIPAA", "SOC2", "FINRA", "Custom"] as const;
/** The source types a bySourceType rule can name (seed 001); any other metadata.source matches no rule. */
export const SOURCE_TYPES = ["conversation", "a2a", "system", "tool"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const isSourceType = (v: string): v is SourceType => (SOURCE_TYPES as readonly string[]).includes(v);
export type ComplianceMode = (typeof COMPLIANCE_MODES)[number];
/** Modes that have a template (every mode but Custom); names are case-sensitive. */
export const TEMPLATE_NAMES = ["GDPR", "HIPAA", "SOC2", "FINRA"] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];
export const isTemplateName = (value: unknown): value is TemplateName =>
  typeof value === "string" && (TEMPLATE_NAMES as readonly string[]).includes(value);

export const CompliancePolicy = obj(
  {
    mode: Type.String({ description: "GDPR, HIPAA, SOC2, FINRA or Custom." }),
    dataRetentionYears: Type.Number({ description: "Minimum retention in years (enforced in FINRA and HIPAA modes)." }),
    requireJustification: Type.Array(Type.Number(), {
      description: "Importance levels (0–100) whose writes need metadata.justification.",
    }),
    auditLogging: Type.Boolean({ description: "Write every API call of the scope to the audit log." }),
  },
  "Compliance settings.",
);

// ── whole policies ─────────────────────────────────────────────────────────────
export const GovernancePolicy = Type.Object(
  {
    organizationId: PolicyScope.properties.organizationId,
    memorySpaceId: PolicyScope.properties.memorySpaceId,
    conversations: ConversationsPolicy,
    immutable: ImmutablePolicy,
    mutable: MutablePolicy,
    vector: VectorPolicy,
    sessions: opt(SessionsPolicy),
    compliance: CompliancePolicy,
  },
  { description: "A complete governance policy (seed 001)." },
);
export type GovernancePolicy = Static<typeof GovernancePolicy>;
/** A policy without scope: templates, global defaults and effective policies. */
export type PolicyRules = Omit<GovernancePolicy, "organizationId" | "memorySpaceId">;

const part = <T extends Parameters<typeof Type.Object>[0]>(o: { properties: T }, description: string) =>
  Type.Partial(Type.Object(o.properties), { description });

/**
 * Any subset of a policy: setAgentOverride overrides, simulate input, and the setPolicy body
 * (whose completeness validate.ts checks, so that missing parts get MISSING_REQUIRED_FIELD).
 */
export const GovernancePolicyPatch = Type.Partial(
  Type.Object({
    organizationId: PolicyScope.properties.organizationId,
    memorySpaceId: PolicyScope.properties.memorySpaceId,
    conversations: Type.Partial(
      Type.Object({
        retention: part(ConversationsRetention, "Conversation retention."),
        purging: part(ConversationsPurging, "Conversation purging."),
      }),
    ),
    immutable: Type.Partial(
      Type.Object({
        retention: Type.Partial(
          Type.Object({
            defaultVersions: ImmutableRetention.properties.defaultVersions,
            byType: Type.Record(Type.String(), part(ImmutableTypeRule, "Per-type rule.")),
          }),
        ),
        purging: part(ImmutablePurging, "Immutable record purging."),
      }),
    ),
    mutable: Type.Partial(
      Type.Object({
        retention: part(MutableRetention, "Mutable key retention."),
        purging: part(MutablePurging, "Mutable key purging."),
      }),
    ),
    vector: Type.Partial(
      Type.Object({
        retention: part(VectorRetention, "Vector memory retention."),
        purging: part(VectorPurging, "Vector memory purging."),
      }),
    ),
    sessions: Type.Partial(
      Type.Object({
        lifecycle: part(SessionsLifecycle, "Session lifecycle."),
        cleanup: part(SessionsCleanup, "Session cleanup."),
        limits: part(SessionsLimits, "Session limits."),
      }),
    ),
    compliance: part(CompliancePolicy, "Compliance settings."),
  }),
  { description: "A partial governance policy; present parts are deep-merged over lower levels." },
);
export type GovernancePolicyPatch = Static<typeof GovernancePolicyPatch>;

export const PolicyResult = obj(
  {
    success: Type.Boolean(),
    policyId: Type.String({ description: "Id of the stored policy version." }),
    appliedAt: Type.Number({ description: "Epoch ms." }),
    scope: PolicyScope,
  },
  "Result of setPolicy.",
);
export type PolicyResult = Static<typeof PolicyResult>;
