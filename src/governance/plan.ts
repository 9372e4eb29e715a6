// The pure retention planner (SPEC §5.4): effective policy + a bounded batch of record
// summaries + now → the deletions and archivals enforcement must perform. No I/O here:
// enforce.ts feeds batches from SQLite, reports.ts and simulate reuse the same plans.

import { optionalDurationMs, parseDuration } from "./durations";
import type { EnforcementRule } from "./operations.schema";
import type { PolicyRules } from "./policy.schema";
import {
  excessVersions,
  immutableVersionsToKeep,
  isHeldByMinimumRetention,
  vectorVersionsToKeep,
  type VersionSummary,
} from "./retention-rules";

export interface PlanContext {
  policy: PolicyRules;
  now: number;
  /** Omitted = both rules. */
  rules?: readonly EnforcementRule[];
}

export type PlanReason =
  | "retention.deleteAfter"
  | "retention.archiveAfter"
  | "purging.deleteInactiveAfter"
  | "retention.versions"
  | "retention.byType.deleteAfter"
  | "purging.purgeUnusedAfter"
  | "retention.ttl"
  | "purging.purgeInactiveAfter"
  | "purging.deleteUnaccessedAfter"
  | "purging.deleteOrphaned";

/** Every action says why, and since when it has been due (for WARNING/NON_COMPLIANT). */
export interface Planned {
  bytes: number;
  reason: PlanReason;
  dueAt: number;
}

interface Candidate {
  reason: PlanReason;
  dueAt: number;
}

const ruleOn = (ctx: PlanContext, rule: EnforcementRule) => !ctx.rules || ctx.rules.includes(rule);

/** A rule "older than limit, measured from `from`"; undefined when the limit is not configured. */
const after = (reason: PlanReason, from: number, limitMs: number | undefined): Candidate | undefined =>
  limitMs === undefined ? undefined : { reason, dueAt: from + limitMs };

/** The earliest-due candidate that is due at `now` (several rules may remove the same record). */
function firstDue(now: number, candidates: readonly (Candidate | undefined)[]): Candidate | undefined {
  let best: Candidate | undefined;
  for (const c of candidates) if (c && c.dueAt <= now && (!best || c.dueAt < best.dueAt)) best = c;
  return best;
}

const sumBytes = (versions: readonly VersionSummary[]) => versions.reduce((n, v) => n + v.bytes, 0);
const newestAt = (versions: readonly VersionSummary[], fallback: number) =>
  versions.reduce((t, v) => Math.max(t, v.createdAt), fallback);
/** The latest retention any of the versions earned (null: none did). */
const latestRetainUntil = (versions: readonly VersionSummary[]): number | null =>
  versions.reduce<number | null>(
    (t, v) => (v.retainUntil != null && (t === null || v.retainUntil > t) ? v.retainUntil : t),
    null,
  );

// ── conversations ──────────────────────────────────────────────────────────────
export interface ConversationSummary {
  id: string;
  createdAt: number;
  /** Time of the newest message; absent = createdAt. */
  lastMessageAt?: number | null;
  archivedAt?: number | null;
  /** Bytes of the conversation and its messages. */
  bytes: number;
  /** The minimum retention its messages earned when written (sticky); absent or null: none. */
  retainUntil?: number | null;
}
export interface ConversationAction extends Planned {
  id: string;
}
export interface ConversationPlan {
  archive: ConversationAction[];
  delete: ConversationAction[];
  held: number;
}

/** Retention: archive past archiveAfter, delete past deleteAfter (age from creation). Purging: inactivity when autoDelete. */
export function planConversationBatch(ctx: PlanContext, items: readonly ConversationSummary[]): ConversationPlan {
  const {
    policy: { conversations: c },
    now,
  } = ctx;
  const plan: ConversationPlan = { archive: [], delete: [], held: 0 };
  const retention = ruleOn(ctx, "retention");
  const inactiveMs =
    ruleOn(ctx, "purging") && c.purging.autoDelete ? optionalDurationMs(c.purging.deleteInactiveAfter) : undefined;
  for (const conv of items) {
    const lastAt = conv.lastMessageAt ?? conv.createdAt;
    const removal = firstDue(now, [
      retention ? after("retention.deleteAfter", conv.createdAt, parseDuration(c.retention.deleteAfter)) : undefined,
      after("purging.deleteInactiveAfter", lastAt, inactiveMs),
    ]);
    if (removal && !isHeldByMinimumRetention(ctx.policy, Math.max(conv.createdAt, lastAt), now, conv.retainUntil)) {
      plan.delete.push({ id: conv.id, bytes: conv.bytes, ...removal });
      continue;
    }
    if (removal) plan.held += 1;
    const archive =
      retention && conv.archivedAt == null
        ? firstDue(now, [after("retention.archiveAfter", conv.createdAt, optionalDurationMs(c.retention.archiveAfter))])
        : undefined;
    if (archive) plan.archive.push({ id: conv.id, bytes: conv.bytes, ...archive });
  }
  return plan;
}

// ── immutable ──────────────────────────────────────────────────────────────────
export interface ImmutableSummary {
  type: string;
  id: string;
  /** Creation of the first version. */
  createdAt: number;
  /** Last read or write; absent = newest version's createdAt. */
  lastUsedAt?: number | null;
  /** Every version, the current one included. */
  versions: VersionSummary[];
}
export interface ImmutableVersionAction extends Planned {
  type: string;
  id: string;
  version: number;
}
export interface ImmutableEntityAction extends Planned {
  type: string;
  id: string;
}
export interface ImmutablePlan {
  deleteVersions: ImmutableVersionAction[];
  purgeEntities: ImmutableEntityAction[];
  held: number;
}

function immutableRemoval(ctx: PlanContext, e: ImmutableSummary, newest: number): Candidate | undefined {
  const { immutable } = ctx.policy;
  const rule = Object.hasOwn(immutable.retention.byType, e.type) ? immutable.retention.byType[e.type] : undefined;
  return firstDue(ctx.now, [
    ruleOn(ctx, "retention")
      ? after("retention.byType.deleteAfter", e.createdAt, optionalDurationMs(rule?.deleteAfter))
      : undefined,
    ruleOn(ctx, "purging")
      ? after(
          "purging.purgeUnusedAfter",
          e.lastUsedAt ?? newest,
          optionalDurationMs(immutable.purging.purgeUnusedAfter),
        )
      : undefined,
  ]);
}

/** Retention: byType deleteAfter; version trimming when autoCleanupVersions. Purging: purgeUnusedAfter. */
export function planImmutableBatch(ctx: PlanContext, items: readonly ImmutableSummary[]): ImmutablePlan {
  const plan: ImmutablePlan = { deleteVersions: [], purgeEntities: [], held: 0 };
  const trim = ruleOn(ctx, "retention") && ctx.policy.immutable.purging.autoCleanupVersions;
  for (const e of items) {
    const newest = newestAt(e.versions, e.createdAt);
    const removal = immutableRemoval(ctx, e, newest);
    if (removal && !isHeldByMinimumRetention(ctx.policy, newest, ctx.now, latestRetainUntil(e.versions))) {
      plan.purgeEntities.push({ type: e.type, id: e.id, bytes: sumBytes(e.versions), ...removal });
      continue;
    }
    if (removal) plan.held += 1;
    if (!trim) continue;
    for (const v of excessVersions(e.versions, immutableVersionsToKeep(ctx.policy, e.type))) {
      if (isHeldByMinimumRetention(ctx.policy, v.createdAt, ctx.now, v.retainUntil)) {
        plan.held += 1;
        continue;
      }
      plan.deleteVersions.push({
        type: e.type,
        id: e.id,
        version: v.version,
        bytes: v.bytes,
        reason: "retention.versions",
        dueAt: v.dueAt,
      });
    }
  }
  return plan;
}

// ── mutable ────────────────────────────────────────────────────────────────────
export interface MutableSummary {
  namespace: string;
  key: string;
  createdAt: number;
  updatedAt: number;
  /** Last read; absent = never read since updatedAt. */
  accessedAt?: number | null;
  /** The key's own expiry; absent = defaultTTL from updatedAt applies. */
  expiresAt?: number | null;
  bytes: number;
  /** The minimum retention its writes earned (sticky); absent or null: none. */
  retainUntil?: number | null;
}
export interface MutableKeyAction extends Planned {
  namespace: string;
  key: string;
}
export interface MutablePlan {
  deleteKeys: MutableKeyAction[];
  held: number;
}

function mutableRemoval(ctx: PlanContext, k: MutableSummary): Candidate | undefined {
  const { retention, purging } = ctx.policy.mutable;
  const ttlMs = optionalDurationMs(retention.defaultTTL);
  const expiry = k.expiresAt ?? (ttlMs === undefined ? undefined : k.updatedAt + ttlMs);
  const purge = ruleOn(ctx, "purging");
  return firstDue(ctx.now, [
    ruleOn(ctx, "retention") && expiry !== undefined ? { reason: "retention.ttl", dueAt: expiry } : undefined,
    purge
      ? after("purging.purgeInactiveAfter", k.updatedAt, optionalDurationMs(retention.purgeInactiveAfter))
      : undefined,
    purge && purging.autoDelete
      ? after(
          "purging.deleteUnaccessedAfter",
          k.accessedAt ?? k.updatedAt,
          optionalDurationMs(purging.deleteUnaccessedAfter),
        )
      : undefined,
  ]);
}

/** Retention: TTL (own, else defaultTTL). Purging: purgeInactiveAfter; deleteUnaccessedAfter when autoDelete. */
export function planMutableBatch(ctx: PlanContext, items: readonly MutableSummary[]): MutablePlan {
  const plan: MutablePlan = { deleteKeys: [], held: 0 };
  for (const k of items) {
    const removal = mutableRemoval(ctx, k);
    if (!removal) continue;
    if (isHeldByMinimumRetention(ctx.policy, k.updatedAt, ctx.now, k.retainUntil)) {
      plan.held += 1;
      continue;
    }
    plan.deleteKeys.push({ namespace: k.namespace, key: k.key, bytes: k.bytes, ...removal });
  }
  return plan;
}

// ── vector ─────────────────────────────────────────────────────────────────────
export interface VectorSummary {
  id: string;
  importance: number;
  sourceType: string;
  createdAt: number;
  /** Every version, the current one included. */
  versions: VersionSummary[];
  conversationRef?: string | null;
  /** Whether conversationRef resolves; ignored when there is no conversationRef. */
  conversationRefExists?: boolean;
  immutableRef?: string | null;
  immutableRefExists?: boolean;
}
export interface VectorVersionAction extends Planned {
  memoryId: string;
  version: number;
}
export interface VectorMemoryAction extends Planned {
  id: string;
  /** A superseded memory removed as an old version of its successor's fact: not among the planned items. */
  rowid?: number;
  org?: string;
  userId?: string;
}
export interface VectorPlan {
  deleteVersions: VectorVersionAction[];
  purgeMemories: VectorMemoryAction[];
  held: number;
}

/** Has at least one reference, and none of its references resolves. */
export function isOrphan(m: VectorSummary): boolean {
  const hasConv = m.conversationRef != null && m.conversationRef !== "";
  const hasImm = m.immutableRef != null && m.immutableRef !== "";
  if (!hasConv && !hasImm) return false;
  return !(hasConv && m.conversationRefExists) && !(hasImm && m.immutableRefExists);
}

/** Retention: version trimming when autoCleanupVersions. Purging: orphans when deleteOrphaned. */
export function planVectorBatch(ctx: PlanContext, items: readonly VectorSummary[]): VectorPlan {
  const { policy, now } = ctx;
  const plan: VectorPlan = { deleteVersions: [], purgeMemories: [], held: 0 };
  const trim = ruleOn(ctx, "retention") && policy.vector.purging.autoCleanupVersions;
  const orphans = ruleOn(ctx, "purging") && policy.vector.purging.deleteOrphaned;
  for (const m of items) {
    if (orphans && isOrphan(m)) {
      // The moment the reference vanished is unknown, so an orphan is "due now", never overdue.
      if (!isHeldByMinimumRetention(policy, newestAt(m.versions, m.createdAt), now, latestRetainUntil(m.versions))) {
        plan.purgeMemories.push({
          id: m.id,
          bytes: sumBytes(m.versions),
          reason: "purging.deleteOrphaned",
          dueAt: now,
        });
        continue;
      }
      plan.held += 1;
    }
    if (trim) trimVersions(plan, policy, now, m);
  }
  return plan;
}

/**
 * Versions beyond the policy's count. An older memory the item superseded counts as versions of the same
 * fact: when its current text falls out of the window the whole memory goes (its older versions with it).
 */
function trimVersions(plan: VectorPlan, policy: PolicyRules, now: number, m: VectorSummary): void {
  const excess = excessVersions(m.versions, vectorVersionsToKeep(policy, m.importance, m.sourceType));
  const whole = new Set<string>();
  for (const v of excess) {
    if (v.of && whole.has(v.of.memoryId)) continue;
    if (isHeldByMinimumRetention(policy, v.createdAt, now, v.retainUntil)) {
      plan.held += 1;
      continue;
    }
    const removal = { reason: "retention.versions" as const, dueAt: v.dueAt };
    if (v.of?.whole) {
      whole.add(v.of.memoryId);
      const bytes = sumBytes(excess.filter((x) => x.of?.memoryId === v.of!.memoryId));
      plan.purgeMemories.push({
        id: v.of.memoryId,
        rowid: v.of.rowid,
        org: v.of.org,
        userId: v.of.userId,
        bytes,
        ...removal,
      });
    } else
      plan.deleteVersions.push({ memoryId: v.of?.memoryId ?? m.id, version: v.version, bytes: v.bytes, ...removal });
  }
}
