// Compliance reports and enforcement statistics computed from real data, the enforcement log
// and the deletion-request log (SPEC §5.5).
import type { DeletionRequestRow, EnforcementLogRow, Store } from "~/store/store";
import { orgWide } from "~/shared/store-scope";
import type { Clock } from "~/shared/clock";
import type { Enforcer } from "./enforce";
import type { PolicyService } from "./policies";
import type { ComplianceReport, EnforcementStats } from "./operations.schema";
import { validateComplianceReportOptions, validateStatsPeriod } from "./validate";
import { complianceStatus } from "./retention-rules";
import { bytesToMB, costSavingsUsd } from "./plan-summary";
import { YEAR_MS } from "./durations";
import { ownOrg } from "./caller-org";

export class Reports {
  constructor(
    private readonly store: Store,
    private readonly policies: PolicyService,
    private readonly enforcer: Enforcer,
    private readonly clock: Clock,
  ) {}

  /** `caller`: the caller's organization, the only one the report reads (a scope naming another is NOT_FOUND). */
  async complianceReport(options: unknown, caller: string): Promise<ComplianceReport> {
    const { scope, start, end } = validateComplianceReportOptions(options);
    const owner = ownOrg(caller, scope.organizationId);
    const space = scope.memorySpaceId;
    const now = this.clock.now();
    const units = await this.enforcer.unitsOf(owner, space);
    // An organization's report also counts its immutable and mutable records; a space's has none.
    const org = space === undefined ? owner : null;
    const dry = await this.enforcer.run({
      units,
      layers: ["conversations", "immutable", "mutable", "vector"],
      now,
      apply: false,
    });
    const spaceIds = units.spaces.map((s) => s.space);
    const inv = await this.store.read(
      async (r) => ({
        log: await r.governance.enforcementLog(owner, start, end, space),
        unfulfilled: (await r.governance.oldestUnfulfilledRequest(owner)) ?? undefined,
        requests: await r.governance.deletionRequests(owner, start, end),
        imm: org ? await r.inventory.immutable(org) : { entities: 0, versions: 0 },
        oldest: await r.inventory.oldest(owner, spaceIds, org !== null),
        conversations: await r.inventory.conversations(owner, spaceIds),
        memories: await r.inventory.memories(owner, spaceIds),
        keys: org ? await r.inventory.mutable(org) : 0,
      }),
      orgWide(owner),
    );
    const sum = (k: keyof EnforcementLogRow) => inv.log.reduce((n, r) => n + (r[k] as number), 0);
    const status = (l: keyof typeof dry.due) => complianceStatus(dry.due[l], now, inv.unfulfilled);
    const { policy } =
      space !== undefined ? await this.policies.forSpace(owner, space) : await this.policies.forOrg(owner);
    const imm = inv.imm;
    const oldest = inv.oldest;
    return {
      ...scope,
      period: { start, end },
      generatedAt: now,
      conversations: {
        total: inv.conversations,
        deleted: sum("conversations_purged"),
        archived: sum("conversations_archived"),
        complianceStatus: status("conversations"),
      },
      immutable: {
        entities: imm.entities,
        totalVersions: imm.versions,
        versionsDeleted: sum("immutable_versions_deleted"),
        complianceStatus: status("immutable"),
      },
      vector: {
        memories: inv.memories,
        versionsDeleted: sum("vector_versions_deleted"),
        orphanedCleaned: sum("vector_orphans_purged"),
        complianceStatus: status("vector"),
      },
      mutable: {
        keys: inv.keys,
        keysDeleted: sum("mutable_keys_deleted"),
        complianceStatus: status("mutable"),
      },
      dataRetention: {
        oldestRecord: oldest,
        withinPolicy: oldest === null || now - oldest <= policy.compliance.dataRetentionYears * YEAR_MS,
      },
      userRequests: userRequests(inv.requests),
    };
  }

  /** The caller's organization's runs over the period. */
  async enforcementStats(options: unknown, caller: string): Promise<EnforcementStats> {
    const period = (options as { period?: unknown } | null | undefined)?.period;
    const { windowMs } = validateStatsPeriod(period);
    const end = this.clock.now();
    const start = end - windowMs;
    const rows = await this.store.read((r) => r.governance.enforcementLog(caller, start, end), orgWide(caller));
    const sum = (k: keyof EnforcementLogRow) => rows.reduce((n, r) => n + (r[k] as number), 0);
    const storageFreed = bytesToMB(sum("bytes_freed"));
    return {
      period: { start, end },
      conversations: { purged: sum("conversations_purged"), archived: sum("conversations_archived") },
      immutable: {
        versionsDeleted: sum("immutable_versions_deleted"),
        entitiesPurged: sum("immutable_entities_purged"),
      },
      vector: { versionsDeleted: sum("vector_versions_deleted"), memoriesPurged: sum("vector_memories_purged") },
      mutable: { keysDeleted: sum("mutable_keys_deleted") },
      storageFreed,
      costSavings: costSavingsUsd(storageFreed),
    };
  }
}

/** The deletion requests of a report's period: how many, how many fulfilled, how long they took on average. */
function userRequests(reqs: DeletionRequestRow[]): ComplianceReport["userRequests"] {
  const done = reqs.filter((r) => r.fulfilled_at !== null);
  const avgMs = done.length ? done.reduce((n, r) => n + (r.fulfilled_at! - r.requested_at), 0) / done.length : 0;
  return { deletionRequests: reqs.length, fulfilled: done.length, avgFulfillmentTime: humanDuration(avgMs) };
}

/** "0 seconds", "1.5 seconds", "2.3 hours", "4 days". */
export function humanDuration(ms: number): string {
  const units: [string, number][] = [
    ["days", 86_400_000],
    ["hours", 3_600_000],
    ["minutes", 60_000],
    ["seconds", 1000],
  ];
  for (const [name, size] of units) {
    if (ms >= size) return `${Number((ms / size).toFixed(1))} ${name}`;
  }
  return `${Number((ms / 1000).toFixed(3))} seconds`;
}
