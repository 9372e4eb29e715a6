// The executor: walks a scope's data in bounded batches, asks the pure planner what the
// effective policy requires, and applies it in one transaction per batch (or only counts, for
// simulate and compliance reports). Every real run is written to the enforcement log.
import type { MemoryInfo, Repos, Store } from "~/store/store";
import { EVERY_ROW, orgWide } from "~/shared/store-scope";
import type { Clock } from "~/shared/clock";
import { newId } from "~/shared/ids";
import type { PolicyService } from "./policies";
import type { EnforcementRule, EnforcementResult, GovernanceLayer, SimulationImpact } from "./operations.schema";
import { GOVERNANCE_LAYERS } from "./operations.schema";
import type { GovernancePolicyPatch, PolicyRules } from "./policy.schema";
import { applyPatch } from "./merge";
import { isHeldByMinimumRetention } from "./retention-rules";
import { logKey, logRow, processedLayers, resultOf } from "./enforcement-log";
import { validateEnforceOptions, validatePartialPolicy } from "./validate";
import { ownOrg } from "./caller-org";
import { planConversationBatch, planImmutableBatch, planMutableBatch, planVectorBatch, type PlanContext } from "./plan";
import {
  addTallies,
  emptyTally,
  removalDueTimes,
  simulationImpact,
  tallyPlan,
  totals,
  type LayerTallies,
  type LayerTally,
} from "./plan-summary";

/** Records per batch: bounds memory and transaction length whatever the layer size. */
export const BATCH = 500;

/** Deletes memories with everything hanging off them (vectors, graph links, caches); runs inside the transaction `tx`. */
export interface MemoryPurger {
  purgeMemories(tx: Repos, rows: { rowid: number; id: string; org: string; userId: string }[]): Promise<void>;
}

/** A memory space of one organization: the same space id in two organizations is two spaces (SPEC §8). */
export interface SpaceUnit {
  org: string;
  space: string;
}

export interface Units {
  spaces: SpaceUnit[];
  orgs: string[];
}

export interface RunOptions {
  units: Units;
  layers: readonly GovernanceLayer[];
  rules?: readonly EnforcementRule[];
  now: number;
  apply: boolean;
  patch?: GovernancePolicyPatch;
}

export interface RunResult {
  tallies: LayerTallies;
  /** Per layer, the earliest due time of what the run removes (at most one entry: enough for complianceStatus, bounded memory). */
  due: Record<GovernanceLayer, number[]>;
  orphansPurged: number;
}

export class Enforcer {
  constructor(
    private readonly store: Store,
    private readonly policies: PolicyService,
    private readonly purger: MemoryPurger,
    private readonly clock: Clock,
  ) {}

  /**
   * One run per request across every node of the store: runs of the same key (organization, scope, layers,
   * rules) take turns, and a request that finds a run of its key logged after it arrived (one under way
   * then, or begun since) answers with that run's result instead of running again. `caller`: the caller's
   * organization, the only one whose data the run touches (a scope naming another is NOT_FOUND).
   */
  async enforce(options: unknown, caller: string): Promise<EnforcementResult> {
    const checked = validateEnforceOptions(options);
    const org = ownOrg(caller, checked.scope.organizationId);
    const key = logKey(org, checked.scope, processedLayers(checked.scope, checked.layers), checked.rules);
    const runs = () => this.store.read((r) => r.governance.enforcementRuns(key), orgWide(org));
    const seen = (await runs()).count;
    return this.store.exclusive("enforcement", async () => {
      const { count, latest } = await runs();
      return count > seen && latest ? resultOf(latest) : this.enforceNow(org, checked);
    });
  }

  /**
   * The run no caller asked for (the operator's, a schedule's): every organization, each under its own
   * policies and logged as its own run, so each one's statistics and reports count only its own data.
   */
  async enforceEveryOrganization(): Promise<Record<string, EnforcementResult>> {
    const orgs = await this.store.read((r) => r.inventory.organizations(), EVERY_ROW);
    const results: Record<string, EnforcementResult> = {};
    for (const org of [...new Set([this.policies.defaultOrg, ...orgs])].sort())
      results[org] = await this.enforce({ scope: { organizationId: org } }, org);
    return results;
  }

  private async enforceNow(
    org: string,
    { scope, layers, rules }: ReturnType<typeof validateEnforceOptions>,
  ): Promise<EnforcementResult> {
    const t0 = performance.now();
    const now = this.clock.now();
    const units = await this.unitsOf(org, scope.memorySpaceId);
    const processed = processedLayers(scope, layers);
    const run = await this.run({ units, layers: processed, rules, now, apply: true });
    const row = logRow(logKey(org, scope, processed, rules), now, performance.now() - t0, run);
    await this.store.write((tx) => tx.governance.logEnforcement(newId(), row), orgWide(org));
    return { enforcedAt: now, ...totals(run.tallies), affectedLayers: [...processed] };
  }

  /** A dry run on the caller's organization (no scope: all of it), under the policy merged with `policy`. */
  async simulate(policy: unknown, caller: string): Promise<SimulationImpact> {
    validatePartialPolicy(policy);
    const org = ownOrg(caller, policy.organizationId);
    const run = await this.run({
      units: await this.unitsOf(org, policy.memorySpaceId),
      layers: GOVERNANCE_LAYERS,
      now: this.clock.now(),
      apply: false,
      patch: policy,
    });
    return simulationImpact(run.tallies);
  }

  /** A space of the organization: that space; none: all the organization's spaces plus its immutable/mutable records. */
  async unitsOf(org: string, space?: string): Promise<Units> {
    if (space !== undefined) return { spaces: [{ org, space }], orgs: [] };
    const spaces = await this.store.read((r) => r.governance.spaces(org), orgWide(org));
    return { spaces: spaces.map((id) => ({ org, space: id })), orgs: [org] };
  }

  /** A space's policy: its organization's, with the override of that organization's space of this id. */
  private async spacePolicy(u: SpaceUnit): Promise<PolicyRules> {
    return (await this.policies.forSpace(u.org, u.space)).policy;
  }

  /**
   * Vector first, for every space, then conversations, then the org records: orphan detection
   * then sees the data as it was when the run began — exactly what simulate sees — and a
   * memory orphaned by this run's deletions is purged by the next run.
   */
  async run(o: RunOptions): Promise<RunResult> {
    const result: RunResult = {
      tallies: {},
      due: { conversations: [], immutable: [], mutable: [], vector: [] },
      orphansPurged: 0,
    };
    const add = (layer: GovernanceLayer, t: LayerTally, due: number[]) => {
      result.tallies[layer] = addTallies(result.tallies[layer] ?? emptyTally(), t);
      const earliest = due.reduce((a, b) => Math.min(a, b), result.due[layer][0] ?? Infinity);
      if (earliest !== Infinity) result.due[layer] = [earliest];
    };
    const ctx = (policy: PolicyRules): PlanContext => ({
      policy: o.patch ? applyPatch(policy, o.patch) : policy,
      now: o.now,
      rules: o.rules,
    });
    const spaces: { unit: SpaceUnit; ctx: PlanContext }[] = [];
    for (const unit of o.units.spaces) spaces.push({ unit, ctx: ctx(await this.spacePolicy(unit)) });
    if (o.layers.includes("vector"))
      for (const s of spaces) result.orphansPurged += await this.vector(s.unit, s.ctx, o.apply, add);
    if (o.layers.includes("conversations"))
      for (const s of spaces) await this.conversations(s.unit, s.ctx, o.apply, add);
    for (const org of o.units.orgs) {
      const c = ctx((await this.policies.forOrg(org)).policy);
      if (o.layers.includes("immutable")) await this.immutable(org, c, o.apply, add);
      if (o.layers.includes("mutable")) await this.mutable(org, c, o.apply, add);
    }
    return result;
  }

  private async conversations(u: SpaceUnit, ctx: PlanContext, apply: boolean, add: Adder): Promise<void> {
    for (let after = ""; ; ) {
      const batch = await this.store.read(
        (r) => r.retention.conversations(u.org, u.space, after, BATCH),
        orgWide(u.org),
      );
      if (!batch.length) return;
      const plan = planConversationBatch(ctx, batch);
      if (apply)
        await this.store.write(async (tx) => {
          await tx.conversations.archive(
            plan.archive.map((a) => a.id),
            ctx.now,
          );
          await tx.conversations.delete(plan.delete.map((a) => a.id));
        }, orgWide(u.org));
      add("conversations", tallyPlan(plan), removalDueTimes(plan));
      after = batch.at(-1)!.id;
    }
  }

  private async vector(u: SpaceUnit, ctx: PlanContext, apply: boolean, add: Adder): Promise<number> {
    const retention = !ctx.rules || ctx.rules.includes("retention");
    // Expired temporaries are retention's to remove (below); planning them here too would count them twice.
    const planned = (m: MemoryInfo) => !retention || m.expiresAt === null || m.expiresAt > ctx.now;
    let orphans = 0;
    for (let after = 0; ; ) {
      const batch = await this.store.read((r) => r.retention.memories(u.org, u.space, after, BATCH), orgWide(u.org));
      if (!batch.length) break;
      const plan = planVectorBatch(ctx, batch.filter(planned));
      const byId = new Map(batch.map((m) => [m.id, m]));
      if (apply)
        await this.store.write(async (tx) => {
          await tx.memories.deleteVersions(plan.deleteVersions);
          await this.purger.purgeMemories(
            tx,
            plan.purgeMemories.map(
              (p) => byId.get(p.id) ?? { id: p.id, rowid: p.rowid!, org: p.org!, userId: p.userId! },
            ),
          );
        }, orgWide(u.org));
      orphans += plan.purgeMemories.filter((p) => p.reason === "purging.deleteOrphaned").length;
      add("vector", tallyPlan(plan), removalDueTimes(plan));
      after = batch.at(-1)!.rowid;
    }
    if (retention) await this.expiredTemporaries(u, ctx, apply, add);
    return orphans;
  }

  /** Temporary memories past expiresAt are invisible already; retention removes them for good (minimum retention permitting). */
  private async expiredTemporaries(u: SpaceUnit, ctx: PlanContext, apply: boolean, add: Adder): Promise<void> {
    for (let after = 0; ; ) {
      const batch = await this.store.read(
        (r) => r.retention.expiredMemories(u.org, u.space, ctx.now, after, BATCH),
        orgWide(u.org),
      );
      if (!batch.length) return;
      const purge = batch.filter((m) => !isHeldByMinimumRetention(ctx.policy, m.updatedAt, ctx.now, m.retainUntil));
      if (apply) await this.store.write((tx) => this.purger.purgeMemories(tx, purge), orgWide(u.org));
      const bytesFreed = purge.reduce((n, m) => n + m.bytes, 0);
      add(
        "vector",
        { ...emptyTally(), recordsPurged: purge.length, bytesFreed, held: batch.length - purge.length },
        purge.map((m) => m.expiresAt),
      );
      after = batch.at(-1)!.rowid;
    }
  }

  private async immutable(org: string, ctx: PlanContext, apply: boolean, add: Adder): Promise<void> {
    for (let after: [string, string] = ["", ""]; ; ) {
      const batch = await this.store.read((r) => r.retention.immutable(org, after, BATCH), orgWide(org));
      if (!batch.length) return;
      const plan = planImmutableBatch(ctx, batch);
      if (apply)
        await this.store.write(async (tx) => {
          await tx.immutable.deleteVersions(org, plan.deleteVersions);
          await tx.immutable.delete(org, plan.purgeEntities);
        }, orgWide(org));
      add("immutable", tallyPlan(plan), removalDueTimes(plan));
      const last = batch.at(-1)!;
      after = [last.type, last.id];
    }
  }

  private async mutable(org: string, ctx: PlanContext, apply: boolean, add: Adder): Promise<void> {
    for (let after: [string, string] = ["", ""]; ; ) {
      const batch = await this.store.read((r) => r.retention.mutable(org, after, BATCH), orgWide(org));
      if (!batch.length) return;
      const plan = planMutableBatch(ctx, batch);
      if (apply) await this.store.write((tx) => tx.mutable.delete(org, plan.deleteKeys), orgWide(org));
      add("mutable", tallyPlan(plan), removalDueTimes(plan));
      const last = batch.at(-1)!;
      after = [last.namespace, last.key];
    }
  }
}

type Adder = (layer: GovernanceLayer, t: LayerTally, due: number[]) => void;
