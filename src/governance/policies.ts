// Policy storage and resolution: setPolicy / getPolicy / setAgentOverride, the effective
// policy of an organization or memory space, and the justification gate for memory writes.
import type { ScopeKind, Store } from "~/store/store";
import type { Clock } from "~/shared/clock";
import { AppError } from "~/shared/errors";
import { newId } from "~/shared/ids";
import type { RetentionFloor, RetentionScope, WriteGate } from "~/memory/memory-hooks";
import type { GovernancePolicyPatch, PolicyResult, PolicyRules, PolicyScope } from "./policy.schema";
import { validateAgentOverride, validatePolicy, validateRemoveScope } from "./validate";
import { checkScopeIds } from "./policy-checks";
import { deepMerge, effectivePolicy } from "./merge";
import { minimumRetentionMs, requiresJustification } from "./retention-rules";

export interface Effective {
  policy: PolicyRules;
  /** An org or space policy was set explicitly (the implicit global defaults never block writes). */
  explicit: boolean;
}

/** Policies change rarely and are read on every write: cache them briefly (another process's change shows within this). */
const CACHE_MS = 2000;

export class PolicyService implements WriteGate, RetentionFloor {
  private readonly cache = new Map<string, { at: number; value: GovernancePolicyPatch | null }>();
  private readonly mergedCache = new Map<
    string,
    { org: GovernancePolicyPatch | null; space: GovernancePolicyPatch | null; policy: PolicyRules }
  >();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    readonly defaultOrg: string,
  ) {}

  setPolicy(policy: unknown): PolicyResult {
    validatePolicy(policy);
    const { organizationId, memorySpaceId, ...rules } = policy;
    const now = this.clock.now();
    const id = newId();
    const kind: ScopeKind = memorySpaceId !== undefined ? "memorySpace" : "organization";
    const scopeId = (memorySpaceId ?? organizationId)!;
    this.store.write((tx) => {
      if (memorySpaceId !== undefined && organizationId !== undefined)
        tx.governance.registerSpace(memorySpaceId, organizationId, now);
      tx.governance.replacePolicy(kind, scopeId, id, JSON.stringify(rules), now);
    });
    this.cache.clear();
    return {
      success: true,
      policyId: id,
      appliedAt: now,
      scope: kind === "memorySpace" ? { memorySpaceId: scopeId } : { organizationId: scopeId },
    } as PolicyResult;
  }

  setAgentOverride(memorySpaceId: unknown, overrides: unknown): void {
    validateAgentOverride(memorySpaceId, overrides);
    const spaceId = memorySpaceId as string;
    const { organizationId, memorySpaceId: _ignored, ...rules } = overrides;
    const now = this.clock.now();
    const merged = deepMerge(this.stored("memorySpace", spaceId) ?? {}, rules);
    this.store.write((tx) => {
      if (organizationId !== undefined) tx.governance.registerSpace(spaceId, organizationId, now);
      tx.governance.replacePolicy("memorySpace", spaceId, newId(), JSON.stringify(merged), now);
    });
    this.cache.clear();
  }

  /**
   * Removes the active policy of a scope (a memory space's override when memorySpaceId is given, else the
   * organization's): the scope falls back to the next level of the hierarchy. The policy stays as history;
   * a space's registration under an organization stays too. Records keep the retention they earned.
   */
  removePolicy(scope: unknown): { success: true; removed: boolean; kind: ScopeKind; scopeId: string } {
    const { organizationId, memorySpaceId } = validateRemoveScope(scope);
    const kind: ScopeKind = memorySpaceId !== undefined ? "memorySpace" : "organization";
    const scopeId = (memorySpaceId ?? organizationId)!;
    const removed = this.store.write((tx) => tx.governance.deactivatePolicy(kind, scopeId));
    this.cache.clear();
    return { success: true, removed, kind, scopeId };
  }

  getPolicy(scope: PolicyScope = {}): PolicyRules & PolicyScope {
    checkScopeIds(scope as Record<string, unknown>);
    const { organizationId, memorySpaceId } = scope;
    if (memorySpaceId !== undefined) {
      const org = organizationId ?? this.orgOf(memorySpaceId);
      // A copy: the merged policy is shared (and frozen) inside the service; callers may change theirs.
      return {
        ...(organizationId !== undefined ? { organizationId } : {}),
        memorySpaceId,
        ...structuredClone(this.forSpace(memorySpaceId, org).policy),
      };
    }
    if (organizationId !== undefined) return { organizationId, ...structuredClone(this.forOrg(organizationId).policy) };
    return effectivePolicy();
  }

  orgOf(spaceId: string): string {
    return this.store.read((r) => r.governance.spaceOrg(spaceId)) ?? this.defaultOrg;
  }

  forOrg(orgId: string): Effective {
    const org = this.stored("organization", orgId);
    return { policy: this.merged(`org:${orgId}`, org, null), explicit: org !== null };
  }

  forSpace(spaceId: string, orgId = this.orgOf(spaceId)): Effective {
    const org = this.stored("organization", orgId);
    const space = this.stored("memorySpace", spaceId);
    return { policy: this.merged(`space:${orgId}:${spaceId}`, org, space), explicit: org !== null || space !== null };
  }

  /**
   * The merge, done again only when a stored policy changed (every request's audit check asked for it: 14 µs
   * of structuredClone each). Frozen, because every caller shares it.
   */
  private merged(key: string, org: GovernancePolicyPatch | null, space: GovernancePolicyPatch | null): PolicyRules {
    const hit = this.mergedCache.get(key);
    if (hit && hit.org === org && hit.space === space) return hit.policy;
    const policy = deepFreeze(effectivePolicy({ org, space }));
    if (this.mergedCache.size > 10_000) this.mergedCache.clear();
    this.mergedCache.set(key, { org, space, policy });
    return policy;
  }

  retainUntil(scope: RetentionScope, now: number): number | null {
    const min = minimumRetentionMs(this.policyOf(scope));
    return min > 0 ? now + min : null;
  }

  heldUntil(scope: RetentionScope, writtenAt: number, retainUntil: number | null, now: number): number | null {
    const min = minimumRetentionMs(this.policyOf(scope));
    // Exactly at the limit is deletable, as in the planner ("older than X" means now >= t + X).
    const until = Math.max(retainUntil ?? -Infinity, min > 0 ? writtenAt + min : -Infinity);
    return now < until ? until : null;
  }

  private policyOf(scope: RetentionScope): PolicyRules {
    return "memorySpaceId" in scope
      ? this.forSpace(scope.memorySpaceId).policy
      : this.forOrg(scope.organizationId).policy;
  }

  checkWrite(input: { memorySpaceId: string; importance: number; metadata: Record<string, unknown> }): void {
    const { policy, explicit } = this.forSpace(input.memorySpaceId);
    if (!requiresJustification(policy, input.importance, explicit)) return;
    const j = input.metadata.justification;
    if (typeof j !== "string" || !j.trim())
      throw new AppError(
        "VALIDATION_ERROR",
        `importance ${input.importance} requires a non-empty metadata.justification under the ${policy.compliance.mode} policy of '${input.memorySpaceId}'`,
        "metadata.justification",
      );
  }

  private stored(kind: ScopeKind, id: string): GovernancePolicyPatch | null {
    const key = `${kind}:${id}`;
    const hit = this.cache.get(key);
    const now = Date.now();
    if (hit && now - hit.at < CACHE_MS) return hit.value;
    const row = this.store.read((r) => r.governance.activePolicy(kind, id));
    const value = row ? (JSON.parse(row.policy) as GovernancePolicyPatch) : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { at: now, value });
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
