// Small pure rules shared by the planner, reports and write paths: minimum retention,
// versions to keep, version trimming, justification, erasure, and due/overdue status.

import { DAY_MS, YEAR_MS } from "./durations";
import type { ComplianceStatus } from "./operations.schema";
import { isSourceType, type PolicyRules } from "./policy.schema";

/** Modes whose dataRetentionYears is a floor: nothing younger is deleted (SPEC §5.4). */
export const MINIMUM_RETENTION_MODES: readonly string[] = ["FINRA", "HIPAA"];

export function minimumRetentionMs(policy: PolicyRules): number {
  const { mode, dataRetentionYears } = policy.compliance;
  return MINIMUM_RETENTION_MODES.includes(mode) ? Math.max(0, dataRetentionYears) * YEAR_MS : 0;
}

/** The retain_until a record written at `writtenAt` earns under `policy` (SPEC §5.4); null: none. */
export function earnedRetention(policy: PolicyRules): (writtenAt: number) => number | null {
  const min = minimumRetentionMs(policy);
  return (writtenAt) => (min > 0 ? writtenAt + min : null);
}

/**
 * True when deleting data whose youngest part was written at `youngestAt` would break the
 * minimum retention: the one the policy in force keeps, or the one the data earned when it was
 * written (`retainUntil`, sticky: SPEC §5.4). Callers pass the youngest timestamp and the latest
 * retainUntil of everything the deletion removes (a version's own; a record's newest version,
 * message or update).
 */
export const isHeldByMinimumRetention = (
  policy: PolicyRules,
  youngestAt: number,
  now: number,
  retainUntil?: number | null,
): boolean => (retainUntil != null && now < retainUntil) || now - youngestAt < minimumRetentionMs(policy);

/** A user's erasure request may delete this data (purgeOnUserRequest and minimum retention). */
export const canEraseOnUserRequest = (
  policy: PolicyRules,
  youngestAt: number,
  now: number,
  retainUntil?: number | null,
): boolean =>
  policy.conversations.retention.purgeOnUserRequest && !isHeldByMinimumRetention(policy, youngestAt, now, retainUntil);

/**
 * First byImportance range containing importance, else bySourceType[sourceType], else defaultVersions.
 * Only the four governance source types select a bySourceType rule; any other client source matches none.
 */
export function vectorVersionsToKeep(policy: PolicyRules, importance: number, sourceType: string): number {
  const r = policy.vector.retention;
  const hit = r.byImportance.find(({ range: [min, max] }) => importance >= min && importance <= max);
  if (hit) return hit.versions;
  const bySource = r.bySourceType;
  if (bySource && isSourceType(sourceType) && Object.hasOwn(bySource, sourceType))
    return bySource[sourceType] ?? r.defaultVersions;
  return r.defaultVersions;
}

/** byType[type].versionsToKeep, else defaultVersions. */
export function immutableVersionsToKeep(policy: PolicyRules, type: string): number {
  const r = policy.immutable.retention;
  const rule = Object.hasOwn(r.byType, type) ? r.byType[type] : undefined;
  return rule?.versionsToKeep ?? r.defaultVersions;
}

export interface VersionSummary {
  version: number;
  createdAt: number;
  bytes: number;
  /** The minimum retention it earned when written (sticky); absent or null: none. */
  retainUntil?: number | null;
  /** Newest first across several memories when set (higher is newer); else `version` orders. */
  order?: number;
  /**
   * A version of an older memory that the item superseded (SPEC §11: versions of one fact); `whole` is
   * that memory's current text, whose removal removes the memory.
   */
  of?: { memoryId: string; rowid: number; org: string; userId: string; whole: boolean };
}
export interface ExcessVersion extends VersionSummary {
  /** When it fell out of the kept window: creation of the version `keep` places newer. */
  dueAt: number;
}

/** Versions beyond the newest `keep`; -1 keeps all, and the current version always stays (0 acts as 1). */
export function excessVersions(versions: readonly VersionSummary[], keep: number): ExcessVersion[] {
  if (keep < 0) return [];
  const window = Math.max(1, keep);
  const newestFirst = [...versions].sort((a, b) => (b.order ?? b.version) - (a.order ?? a.version));
  return newestFirst.slice(window).map((v, i) => ({
    ...v,
    dueAt: newestFirst[i]?.createdAt ?? v.createdAt,
  }));
}

/**
 * A write at this importance must carry metadata.justification. The implicit global
 * defaults never block writes: only an explicitly set org/space policy does.
 */
export const requiresJustification = (policy: PolicyRules, importance: number, explicitPolicySet: boolean): boolean =>
  explicitPolicySet && policy.compliance.requireJustification.includes(importance);

/** Items past their limit by more than this are NON_COMPLIANT rather than WARNING. */
export const COMPLIANCE_GRACE_MS = DAY_MS;
/** Deletion requests unfulfilled for longer than this make a report NON_COMPLIANT. */
export const DELETION_REQUEST_DEADLINE_MS = 30 * DAY_MS;

export type DueState = "not_due" | "due" | "overdue";

export function classifyDue(dueAt: number, now: number): DueState {
  if (now < dueAt) return "not_due";
  return now - dueAt > COMPLIANCE_GRACE_MS ? "overdue" : "due";
}

/**
 * A layer's status from the due times of what the next enforcement would remove (see
 * removalDueTimes) and the oldest unfulfilled deletion request, if any.
 */
export function complianceStatus(
  dueAts: readonly number[],
  now: number,
  oldestUnfulfilledRequestAt?: number | null,
): ComplianceStatus {
  const staleRequest =
    oldestUnfulfilledRequestAt != null && now - oldestUnfulfilledRequestAt > DELETION_REQUEST_DEADLINE_MS;
  const states = dueAts.map((d) => classifyDue(d, now));
  if (staleRequest || states.includes("overdue")) return "NON_COMPLIANT";
  return states.includes("due") ? "WARNING" : "COMPLIANT";
}
