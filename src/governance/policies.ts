// Policy storage and resolution: setPolicy / getPolicy / setAgentOverride, the effective
// policy of an organization or memory space, and the justification gate for memory writes.
import type { Repos, ScopeKind, Store } from "~/store/store";
import { orgWide, type StoreScope } from "~/shared/store-scope";
import type { Clock } from "~/shared/clock";
import { AppError } from "~/shared/errors";
import { newId } from "~/shared/ids";
import type { RetentionFloor, RetentionScope, WriteGate } from "~/memory/memory-hooks";
import type { GovernancePolicyPatch, PolicyResult, PolicyRules, PolicyScope } from "./policy.schema";
import { validateAgentOverride, validatePolicy, validateRemoveScope } from "./validate";
import { checkScopeIds } from "./policy-checks";
import { deepMerge, effectivePolicy } from "./merge";
import { earnedRetention, requiresJustification } from "./retention-rules";
import { ownOrg } from "./caller-org";

export interface Effective {
  policy: PolicyRules;
  /** An org or space policy was set explicitly (the implicit global defaults never block writes). */
  explicit: boolean;
}

/**
 * Policies change rarely and are read on every request (write gate, retention
 * floor, audit check): cache them briefly. Another process's change drops the cache as soon as the store
 * says so (Store.externalVersion: PostgreSQL's notifications, SQLite's data_version; asked once per
 * resolution), and shows within this time at the latest.
 */
const CACHE_MS = 2000;

export class PolicyService implements WriteGate, RetentionFloor {
  /** Stored policies, keyed by [organization, kind, scope id]. */
  private readonly cache = new Map<string, { at: number; value: unknown }>();
  private seenExternal = -1;
  /** Bumped by every drop of the cache: a read begun before it must not put what it read back. */
  private generation = 0;
  private readonly mergedCache = new Map<
    string,
    { org: GovernancePolicyPatch | null; space: GovernancePolicyPatch | null; policy: PolicyRules }
  >();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    readonly defaultOrg: string,
  ) {}

  /** `caller`: the caller's organization, which the policy belongs to (naming another is NOT_FOUND). */
  async setPolicy(policy: unknown, caller: string): Promise<PolicyResult> {
    validatePolicy(policy);
    const { organizationId, memorySpaceId, ...rules } = policy;
    const org = ownOrg(caller, organizationId);
    const now = this.clock.now();
    const id = newId();
    const kind: ScopeKind = memorySpaceId !== undefined ? "memorySpace" : "organization";
    const scopeId = memorySpaceId ?? org;
    await this.store.write(async (tx) => {
      if (memorySpaceId !== undefined && organizationId !== undefined)
        await tx.governance.registerSpace(org, memorySpaceId, now);
      await tx.governance.replacePolicy(org, kind, scopeId, id, JSON.stringify(rules), now);
    }, orgWide(org));
    this.drop();
    return {
      success: true,
      policyId: id,
      appliedAt: now,
      scope: kind === "memorySpace" ? { memorySpaceId: scopeId } : { organizationId: scopeId },
    } as PolicyResult;
  }

  /** Deep-merges `overrides` into the caller's organization's space `memorySpaceId`. */
  async setAgentOverride(memorySpaceId: unknown, overrides: unknown, caller: string): Promise<void> {
    validateAgentOverride(memorySpaceId, overrides);
    const spaceId = memorySpaceId as string;
    const { organizationId, memorySpaceId: _ignored, ...rules } = overrides;
    const org = ownOrg(caller, organizationId);
    const now = this.clock.now();
    this.followExternal();
    const merged = deepMerge((await this.stored(org, "memorySpace", spaceId)) ?? {}, rules);
    await this.store.write(async (tx) => {
      if (organizationId !== undefined) await tx.governance.registerSpace(org, spaceId, now);
      await tx.governance.replacePolicy(org, "memorySpace", spaceId, newId(), JSON.stringify(merged), now);
    }, orgWide(org));
    this.drop();
  }

  /**
   * Removes the active policy of a scope of the caller's organization (a memory space's override when
   * memorySpaceId is given, else the organization's): the scope falls back to the next level of the
   * hierarchy. The policy stays as history; a space's registration stays too. Records keep the retention
   * they earned.
   */
  async removePolicy(
    scope: unknown,
    caller: string,
  ): Promise<{ success: true; removed: boolean; kind: ScopeKind; scopeId: string; org: string }> {
    const { organizationId, memorySpaceId } = validateRemoveScope(scope);
    const org = ownOrg(caller, organizationId);
    const kind: ScopeKind = memorySpaceId !== undefined ? "memorySpace" : "organization";
    const scopeId = memorySpaceId ?? org;
    const removed = await this.store.write((tx) => tx.governance.deactivatePolicy(org, kind, scopeId), orgWide(org));
    this.drop();
    return { success: true, removed, kind, scopeId, org };
  }

  /** No scope: the global defaults; a space: that space of the caller's organization. */
  async getPolicy(scope: PolicyScope = {}, caller: string): Promise<PolicyRules & PolicyScope> {
    checkScopeIds(scope as Record<string, unknown>);
    const { organizationId, memorySpaceId } = scope;
    const org = ownOrg(caller, organizationId);
    // A copy: the merged policy is shared (and frozen) inside the service; callers may change theirs.
    if (memorySpaceId !== undefined)
      return {
        ...(organizationId !== undefined ? { organizationId } : {}),
        memorySpaceId,
        ...structuredClone((await this.forSpace(org, memorySpaceId)).policy),
      };
    if (organizationId !== undefined) return { organizationId, ...structuredClone((await this.forOrg(org)).policy) };
    return effectivePolicy();
  }

  /** `r`: read through this transaction (when asked from inside one, which sees `org`), else in a read of its own. */
  async forOrg(org: string, r?: Repos): Promise<Effective> {
    this.followExternal();
    return this.orgEffective(org, r);
  }

  /**
   * The organization a call is audited under (its caller's; none: the default organization) and its
   * effective policy: one resolution for the audit check every request makes.
   */
  async auditScope(callerOrg: string | undefined): Promise<{ org: string; policy: PolicyRules }> {
    this.followExternal();
    const org = callerOrg ?? this.defaultOrg;
    return { org, policy: (await this.orgEffective(org)).policy };
  }

  /**
   * auditScope's answer when it is at hand: the organization's policy cached and no other process's
   * change to follow; else undefined (ask auditScope). Every request's audit check, without a promise.
   */
  auditScopeNow(callerOrg: string | undefined): { org: string; policy: PolicyRules } | undefined {
    this.followExternal();
    const org = callerOrg ?? this.defaultOrg;
    const keys = orgKeys(org);
    const hit = this.cache.get(keys.stored);
    if (!hit || Date.now() - hit.at >= CACHE_MS) return undefined;
    return { org, policy: this.merged(keys.merged, hit.value as GovernancePolicyPatch | null, null) };
  }

  private async orgEffective(org: string, r?: Repos): Promise<Effective> {
    const own = await this.stored(org, "organization", org, r);
    return { policy: this.merged(JSON.stringify([org]), own, null), explicit: own !== null };
  }

  /** The effective policy of the organization's memory space `spaceId`; `r` as in forOrg. */
  async forSpace(org: string, spaceId: string, r?: Repos): Promise<Effective> {
    this.followExternal();
    const orgPolicy = await this.stored(org, "organization", org, r);
    const space = await this.stored(org, "memorySpace", spaceId, r);
    return {
      policy: this.merged(JSON.stringify([org, spaceId]), orgPolicy, space),
      explicit: orgPolicy !== null || space !== null,
    };
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

  async retainUntil(scope: RetentionScope, now: number, tx?: Repos): Promise<number | null> {
    return earnedRetention(await this.policyOf(scope, tx))(now);
  }

  async heldUntil(
    scope: RetentionScope,
    writtenAt: number,
    retainUntil: number | null,
    now: number,
    tx?: Repos,
  ): Promise<number | null> {
    const earned = earnedRetention(await this.policyOf(scope, tx))(writtenAt);
    // Exactly at the limit is deletable, as in the planner ("older than X" means now >= t + X).
    const until = Math.max(retainUntil ?? -Infinity, earned ?? -Infinity);
    return now < until ? until : null;
  }

  private async policyOf(scope: RetentionScope, r?: Repos): Promise<PolicyRules> {
    const effective =
      "memorySpaceId" in scope
        ? await this.forSpace(scope.org, scope.memorySpaceId, r)
        : await this.forOrg(scope.organizationId, r);
    return effective.policy;
  }

  async admit(
    space: { org: string; memorySpaceId: string },
    memories: readonly { importance: number; metadata: Record<string, unknown> }[],
  ): Promise<(now: number) => number | null> {
    const { policy, explicit } = await this.forSpace(space.org, space.memorySpaceId);
    for (const m of memories) {
      if (!requiresJustification(policy, m.importance, explicit)) continue;
      const j = m.metadata.justification;
      if (typeof j !== "string" || !j.trim())
        throw new AppError(
          "VALIDATION_ERROR",
          `importance ${m.importance} requires a non-empty metadata.justification under the ${policy.compliance.mode} policy of '${space.memorySpaceId}'`,
          "metadata.justification",
        );
    }
    return earnedRetention(policy);
  }

  /** Drops the cache when another process changed the store: once per resolution (each ask is a query on SQLite). */
  private followExternal(): void {
    const external = this.store.externalVersion();
    if (external === this.seenExternal) return;
    this.seenExternal = external;
    this.drop();
  }

  /** The stored policy of a scope (callers outside the resolutions above call followExternal first). */
  private stored(org: string, kind: ScopeKind, id: string, r?: Repos): Promise<GovernancePolicyPatch | null> {
    return this.cached(
      JSON.stringify([org, kind, id]),
      async (x) => {
        const row = await x.governance.activePolicy(org, kind, id);
        return row ? (JSON.parse(row.policy) as GovernancePolicyPatch) : null;
      },
      { r, scope: orgWide(org) },
    );
  }

  /**
   * `read`'s answer, read through the transaction `r` or else a read of its own in `scope`, cached for
   * CACHE_MS — unless the cache was dropped while it read (a policy written meanwhile): a lookup that began
   * before a policy change (an audited call resolving its policy) would otherwise keep the old policy in the
   * cache for CACHE_MS.
   */
  private async cached<T>(
    key: string,
    read: (x: Repos) => Promise<T>,
    via: { r?: Repos; scope: StoreScope },
  ): Promise<T> {
    const hit = this.cache.get(key);
    const now = Date.now();
    if (hit && now - hit.at < CACHE_MS) return hit.value as T;
    const generation = this.generation;
    const value = await (via.r ? read(via.r) : this.store.read(read, via.scope));
    if (generation !== this.generation) return value;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { at: now, value });
    return value;
  }

  /** Drops every cached answer, and any read under way from putting its answer back. */
  private drop(): void {
    this.generation++;
    this.cache.clear();
  }
}

/**
 * An organization's cache keys (stored's for its own policy, merged's), made once per organization: every
 * request's audit check looked them up, and its two JSON.stringify calls cost 130 ns of it (4 ns memoised).
 */
const keysByOrg = new Map<string, { stored: string; merged: string }>();
function orgKeys(org: string): { stored: string; merged: string } {
  let keys = keysByOrg.get(org);
  if (!keys) {
    if (keysByOrg.size >= 10_000) keysByOrg.clear();
    keysByOrg.set(org, (keys = { stored: JSON.stringify([org, "organization", org]), merged: JSON.stringify([org]) }));
  }
  return keys;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
