// The compliance templates of SPEC §5.3 — values exactly as its table — plus the session
// defaults of seed 001. GDPR doubles as the global defaults. Every call returns a deep copy.

import type { PolicyRules, TemplateName } from "./policy.schema";
import { validateTemplateName } from "./validate";

/** Seed 001's session defaults; no template sets the optional session fields. */
export const SESSION_DEFAULTS = {
  lifecycle: { idleTimeout: "30m", maxDuration: "24h", autoExtend: true },
  cleanup: { autoExpireIdle: true },
} as const;

type Range = readonly [min: number, max: number, versions: number];
interface TemplateSpec {
  deleteAfter: string;
  archiveAfter?: string;
  purgeOnUserRequest: boolean;
  autoDelete: boolean;
  /** conversations.purging.deleteInactiveAfter and mutable.retention.purgeInactiveAfter (equal in the table). */
  inactiveAfter: string;
  immutableVersions: number;
  byType: Record<string, number>;
  /** immutable and vector autoCleanupVersions (equal in the table). */
  autoCleanupVersions: boolean;
  vectorVersions: number;
  byImportance: readonly Range[];
  deleteOrphaned: boolean;
  years: number;
  requireJustification: readonly number[];
}

const EVERY_LEVEL = Array.from({ length: 101 }, (_, i) => i);

const SPECS: Record<TemplateName, TemplateSpec> = {
  GDPR: {
    deleteAfter: "7y",
    archiveAfter: "1y",
    purgeOnUserRequest: true,
    autoDelete: true,
    inactiveAfter: "2y",
    immutableVersions: 20,
    byType: { "audit-log": -1, policy: -1, "kb-article": 50 },
    autoCleanupVersions: true,
    vectorVersions: 10,
    byImportance: [
      [0, 20, 1],
      [21, 40, 3],
      [41, 70, 10],
      [71, 89, 20],
      [90, 100, 30],
    ],
    deleteOrphaned: false,
    years: 7,
    requireJustification: [90, 100],
  },
  HIPAA: {
    deleteAfter: "6y",
    purgeOnUserRequest: true,
    autoDelete: false,
    inactiveAfter: "6y",
    immutableVersions: 50,
    byType: { "audit-log": -1, "medical-record": -1, policy: -1 },
    autoCleanupVersions: false,
    vectorVersions: 20,
    byImportance: [
      [0, 20, 5],
      [21, 40, 10],
      [41, 100, 20],
    ],
    deleteOrphaned: false,
    years: 6,
    requireJustification: [80, 90, 100],
  },
  SOC2: {
    deleteAfter: "7y",
    archiveAfter: "1y",
    purgeOnUserRequest: true,
    autoDelete: true,
    inactiveAfter: "2y",
    immutableVersions: 30,
    byType: { "audit-log": -1, "access-log": -1, policy: -1 },
    autoCleanupVersions: true,
    vectorVersions: 15,
    byImportance: [
      [0, 30, 3],
      [31, 70, 10],
      [71, 100, 20],
    ],
    deleteOrphaned: true,
    years: 7,
    requireJustification: [90, 100],
  },
  FINRA: {
    deleteAfter: "7y",
    purgeOnUserRequest: false,
    autoDelete: false,
    inactiveAfter: "7y",
    immutableVersions: -1,
    byType: { "audit-log": -1, "financial-record": -1, transaction: -1 },
    autoCleanupVersions: false,
    vectorVersions: 30,
    byImportance: [[0, 100, -1]],
    deleteOrphaned: false,
    years: 7,
    requireJustification: EVERY_LEVEL,
  },
};

function build(mode: TemplateName, s: TemplateSpec): PolicyRules {
  const byType = Object.fromEntries(Object.entries(s.byType).map(([t, n]) => [t, { versionsToKeep: n }]));
  return {
    conversations: {
      retention: {
        deleteAfter: s.deleteAfter,
        ...(s.archiveAfter ? { archiveAfter: s.archiveAfter } : {}),
        purgeOnUserRequest: s.purgeOnUserRequest,
      },
      purging: { autoDelete: s.autoDelete, deleteInactiveAfter: s.inactiveAfter },
    },
    immutable: {
      retention: { defaultVersions: s.immutableVersions, byType },
      purging: { autoCleanupVersions: s.autoCleanupVersions },
    },
    mutable: {
      retention: { defaultTTL: null, purgeInactiveAfter: s.inactiveAfter },
      purging: { autoDelete: false },
    },
    vector: {
      retention: {
        defaultVersions: s.vectorVersions,
        byImportance: s.byImportance.map(([min, max, versions]) => ({ range: [min, max], versions })),
      },
      purging: { autoCleanupVersions: s.autoCleanupVersions, deleteOrphaned: s.deleteOrphaned },
    },
    sessions: structuredClone(SESSION_DEFAULTS),
    compliance: {
      mode,
      dataRetentionYears: s.years,
      requireJustification: [...s.requireJustification],
      auditLogging: true,
    },
  };
}

/** A full policy (no scope) for a template name; anything else → INVALID_COMPLIANCE_MODE. */
export function getTemplate(name: unknown): PolicyRules {
  validateTemplateName(name);
  return build(name, SPECS[name]);
}

/** The implicit global defaults (the GDPR template), lowest level of every effective policy. */
export const globalDefaults = (): PolicyRules => getTemplate("GDPR");
