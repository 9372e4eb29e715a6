// The enforcement log's rows as the enforcer writes and reads them: one row per real run, keyed by scope,
// processed layers and rules. A request that waited for another node's run of the same key answers with
// that run's row (enforce.ts), so its result must be recoverable from the row alone.
import type { EnforcementKey, EnforcementLogRow } from "~/store/repos/governance-repo";
import type { EnforcementResult, GovernanceLayer } from "./operations.schema";
import type { PolicyScope } from "./policy.schema";
import { addTallies, bytesToMB, emptyTally, type LayerTallies } from "./plan-summary";

/** The layers a run of `scope` processes: a memory space has no immutable or mutable records of its own. */
export const processedLayers = (scope: PolicyScope, layers: readonly GovernanceLayer[]): GovernanceLayer[] =>
  layers.filter((l) => (l === "immutable" || l === "mutable" ? scope.memorySpaceId === undefined : true));

/** `org`: the organization the run belongs to (a space's, or the scope's own). */
export function logKey(
  org: string,
  scope: PolicyScope,
  layers: readonly string[],
  rules: readonly string[],
): EnforcementKey {
  return {
    org_id: org,
    scope_kind: scope.memorySpaceId !== undefined ? "memorySpace" : "organization",
    scope_id: scope.memorySpaceId ?? org,
    layers: JSON.stringify(layers),
    rules: JSON.stringify(rules),
  };
}

export function logRow(
  key: EnforcementKey,
  now: number,
  ms: number,
  run: { tallies: LayerTallies; orphansPurged: number },
): EnforcementLogRow {
  const t = (l: GovernanceLayer) => run.tallies[l] ?? emptyTally();
  const all = Object.values(run.tallies).reduce(addTallies, emptyTally());
  return {
    ...key,
    enforced_at: now,
    duration_ms: ms,
    conversations_purged: t("conversations").recordsPurged,
    conversations_archived: t("conversations").archived,
    immutable_versions_deleted: t("immutable").versionsDeleted,
    immutable_entities_purged: t("immutable").recordsPurged,
    vector_versions_deleted: t("vector").versionsDeleted,
    vector_memories_purged: t("vector").recordsPurged,
    vector_orphans_purged: run.orphansPurged,
    mutable_keys_deleted: t("mutable").recordsPurged,
    bytes_freed: all.bytesFreed,
    held: all.held,
  };
}

/** The result the run logged as `row` answered (conversations and mutable keys have no versions: plan-summary's removals). */
export function resultOf(row: EnforcementLogRow): EnforcementResult {
  const n = (k: keyof EnforcementLogRow) => Number(row[k]);
  return {
    enforcedAt: n("enforced_at"),
    versionsDeleted: n("immutable_versions_deleted") + n("vector_versions_deleted"),
    recordsPurged:
      n("conversations_purged") +
      n("immutable_entities_purged") +
      n("vector_memories_purged") +
      n("mutable_keys_deleted"),
    storageFreed: bytesToMB(n("bytes_freed")),
    affectedLayers: JSON.parse(row.layers),
  };
}
