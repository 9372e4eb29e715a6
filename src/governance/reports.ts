// Compliance reports and enforcement statistics computed from real data, the enforcement log
// and the deletion-request log (SPEC §5.5).
import type { EnforcementLogRow, Store } from "~/store/store";
import { EVERY_ROW } from "~/shared/store-scope";
import type { Clock } from "~/shared/clock";
import type { Enforcer } from "./enforce";
import type { PolicyService } from "./policies";
import type { ComplianceReport, EnforcementStats } from "./operations.schema";
import { validateComplianceReportOptions, validateStatsPeriod } from "./validate";
import { complianceStatus } from "./retention-rules";
import { bytesToMB, costSavingsUsd } from "./plan-summary";
import { YEAR_MS } from "./durations";

export class Reports {
  constructor(
    private readonly store: Store,
    private readonly policies: PolicyService,
    private readonly enforcer: Enforcer,
    private readonly clock: Clock,
  ) {}

  async complianceReport(options: unknown): Promise<ComplianceReport> {
    const { scope, start, end } = validateComplianceReportOptions(options);
    const now = this.clock.now();
    const units = await this.enforcer.unitsOf(scope);
    const org = units.orgs[0] ?? null;
    const dry = await this.enforcer.run({
      units,
      layers: ["conversations", "immutable", "mutable", "vector"],
      now,
      apply: false,
    });
    const spaceIds = units.spaces.map((s) => s.space);
    // The organization whose data the report counts: the scope's, or that of the space it names.
    const owner = org ?? units.spaces[0]?.org ?? this.policies.defaultOrg;
    const log = await this.logFor(spaceIds, org, start, end);
    const sum = (k: keyof EnforcementLogRow) => log.reduce((n, r) => n + (r[k] as number), 0);
    const unfulfilled = (await this.store.read((r) => r.governance.oldestUnfulfilledRequest(), EVERY_ROW)) ?? undefined;
    const status = (l: keyof typeof dry.due) => complianceStatus(dry.due[l], now, unfulfilled);
    const inv = await this.store.read(
      async (r) => ({
        imm: org ? await r.inventory.immutable(org) : { entities: 0, versions: 0 },
        oldest: await r.inventory.oldest(owner, spaceIds, org !== null),
        conversations: await r.inventory.conversations(owner, spaceIds),
        memories: await r.inventory.memories(owner, spaceIds),
        keys: org ? await r.inventory.mutable(org) : 0,
      }),
      EVERY_ROW,
    );
    const imm = inv.imm;
    const { policy } =
      scope.memorySpaceId !== undefined
        ? await this.policies.forSpace(scope.memorySpaceId)
        : await this.policies.forOrg(org!);
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
      userRequests: await this.userRequests(start, end),
    };
  }

  async enforcementStats(options: unknown): Promise<EnforcementStats> {
    const period = (options as { period?: unknown } | null | undefined)?.period;
    const { windowMs } = validateStatsPeriod(period);
    const end = this.clock.now();
    const start = end - windowMs;
    const rows = await this.store.read((r) => r.governance.enforcementLog(start, end), EVERY_ROW);
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

  /**
   * Runs for the org itself and for each space that belongs to it — judged by registration, not by
   * the spaces holding data now, so a space emptied by enforcement still counts. A space report
   * sees only its own runs.
   */
  private async logFor(spaces: string[], org: string | null, start: number, end: number): Promise<EnforcementLogRow[]> {
    if (!org)
      return this.store.read(
        (r) => r.governance.enforcementLog(start, end, { kind: "memorySpace", ids: spaces }),
        EVERY_ROW,
      );
    const [all, ofOrg] = await this.store.read(
      async (r) => [
        await r.governance.enforcementLog(start, end),
        await r.governance.enforcementLog(start, end, { kind: "organization", ids: [org] }),
      ],
      EVERY_ROW,
    );
    const orgOf = new Map<string, string>();
    for (const row of all)
      if (row.scope_kind === "memorySpace" && !orgOf.has(row.scope_id))
        orgOf.set(row.scope_id, await this.policies.orgOf(row.scope_id));
    const bySpace = all.filter((r) => r.scope_kind === "memorySpace" && orgOf.get(r.scope_id) === org);
    return [...bySpace, ...ofOrg];
  }

  private async userRequests(start: number, end: number): Promise<ComplianceReport["userRequests"]> {
    const reqs = await this.store.read((r) => r.governance.deletionRequests(start, end), EVERY_ROW);
    const done = reqs.filter((r) => r.fulfilled_at !== null);
    const avgMs = done.length ? done.reduce((n, r) => n + (r.fulfilled_at! - r.requested_at), 0) / done.length : 0;
    return { deletionRequests: reqs.length, fulfilled: done.length, avgFulfillmentTime: humanDuration(avgMs) };
  }
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
