// The governance API of seed 001 in one place (the SDK's `governance.*`): policies, templates,
// enforcement, simulation, reports, statistics and the audit log.
import type { Repos, Store } from "~/store/store";
import type { DeferredWrites } from "~/shared/deferred-writes";
import type { Clock } from "~/shared/clock";
import type { Logger } from "~/shared/logger";
import { PolicyService } from "./policies";
import { Enforcer, type MemoryPurger } from "./enforce";
import { Reports } from "./reports";
import { AuditLog } from "./audit";
import { UserErasure } from "./erasure";
import { getTemplate } from "./templates";
import type { PolicyRules, PolicyScope } from "./policy.schema";

export class GovernanceService {
  readonly policies: PolicyService;
  readonly enforcer: Enforcer;
  readonly reports: Reports;
  readonly audit: AuditLog;
  readonly erasure: UserErasure;

  /**
   * `purger`: the memory purger (memory/purger.ts), which the memory service uses too; `writes`: the shared
   * periodic commit the audit log's rows are written in.
   */
  constructor(deps: {
    store: Store;
    clock: Clock;
    logger: Logger;
    orgId: string;
    purger: MemoryPurger;
    writes: DeferredWrites<Repos>;
  }) {
    this.policies = new PolicyService(deps.store, deps.clock, deps.orgId);
    this.enforcer = new Enforcer(deps.store, this.policies, deps.purger, deps.clock);
    this.reports = new Reports(deps.store, this.policies, this.enforcer, deps.clock);
    this.audit = new AuditLog(deps.store, this.policies, deps.clock, deps.logger, deps.writes);
    this.erasure = new UserErasure(this.policies, deps.clock, this.audit);
  }

  // Every operation belongs to its caller's organization (`org`; SPEC §8): an input naming another one is
  // NOT_FOUND. Policy writes wait for the calls already recorded to learn whether the policy before them logs them.
  setPolicy = async (policy: unknown, org: string) => {
    await this.audit.settle();
    return this.policies.setPolicy(policy, org);
  };
  getPolicy = (scope: PolicyScope | undefined, org: string) => this.policies.getPolicy(scope, org);
  setAgentOverride = async (memorySpaceId: unknown, overrides: unknown, org: string): Promise<void> => {
    await this.audit.settle();
    return this.policies.setAgentOverride(memorySpaceId, overrides, org);
  };
  /** SPEC §5.7: the scope falls back to the next level; history kept; audited. */
  removePolicy = async (scope: unknown, org: string): Promise<{ success: true; removed: boolean }> => {
    await this.audit.settle();
    const r = await this.policies.removePolicy(scope, org);
    const space = r.kind === "memorySpace" ? r.scopeId : undefined;
    const query = r.kind === "memorySpace" ? `memorySpaceId=${r.scopeId}` : `organizationId=${r.scopeId}`;
    await this.audit.change({
      organizationId: r.org,
      memorySpaceId: space,
      operation: "removePolicy",
      path: `/governance/policies?${query}`,
    });
    return { success: true, removed: r.removed };
  };
  getTemplate = (name: unknown): PolicyRules => getTemplate(name);
  enforce = (options: unknown, org: string) => this.enforcer.enforce(options, org);
  simulate = (policy: unknown, org: string) => this.enforcer.simulate(policy, org);
  getComplianceReport = (options: unknown, org: string) => this.reports.complianceReport(options, org);
  getEnforcementStats = (options: unknown, org: string) => this.reports.enforcementStats(options, org);
}
