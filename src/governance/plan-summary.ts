// Turns planner output into counts, megabytes and dollars: one tally per layer, summed
// across batches by the executor, then shaped into enforce/simulate results. Pure.

import type { GovernanceLayer, SimulationImpact } from "./operations.schema";
import type { ConversationPlan, ImmutablePlan, MutablePlan, Planned, VectorPlan } from "./plan";

/** "MB" in results is MiB of record bytes. */
export const BYTES_PER_MB = 1_048_576;
/**
 * costSavings rate: USD per MB-month. $0.10 per GB-month is the usual list price of managed
 * database / block storage (e.g. cloud SSD volumes), which is where these records live.
 */
export const STORAGE_USD_PER_MB_MONTH = 0.0001;

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
export const bytesToMB = (bytes: number): number => round6(bytes / BYTES_PER_MB);
export const costSavingsUsd = (storageMB: number): number => round6(storageMB * STORAGE_USD_PER_MB_MONTH);

export type LayerPlan = ConversationPlan | ImmutablePlan | MutablePlan | VectorPlan;

export interface LayerTally {
  versionsDeleted: number;
  recordsPurged: number;
  archived: number;
  bytesFreed: number;
  /** Removals blocked by minimum retention (FINRA/HIPAA). */
  held: number;
}

export const emptyTally = (): LayerTally => ({
  versionsDeleted: 0,
  recordsPurged: 0,
  archived: 0,
  bytesFreed: 0,
  held: 0,
});

/** The removals of a plan, split into version deletions and whole-record deletions. */
export function removals(plan: LayerPlan): { versions: Planned[]; records: Planned[] } {
  if ("archive" in plan) return { versions: [], records: plan.delete };
  if ("purgeEntities" in plan) return { versions: plan.deleteVersions, records: plan.purgeEntities };
  if ("deleteKeys" in plan) return { versions: [], records: plan.deleteKeys };
  return { versions: plan.deleteVersions, records: plan.purgeMemories };
}

/** Due times of everything the plan removes (archival is not removal) — input of complianceStatus. */
export function removalDueTimes(plan: LayerPlan): number[] {
  const { versions, records } = removals(plan);
  return [...versions, ...records].map((a) => a.dueAt);
}

export function tallyPlan(plan: LayerPlan): LayerTally {
  const { versions, records } = removals(plan);
  const bytes = [...versions, ...records].reduce((n, a) => n + a.bytes, 0);
  return {
    versionsDeleted: versions.length,
    recordsPurged: records.length,
    archived: "archive" in plan ? plan.archive.length : 0,
    bytesFreed: bytes,
    held: plan.held,
  };
}

export const addTallies = (a: LayerTally, b: LayerTally): LayerTally => ({
  versionsDeleted: a.versionsDeleted + b.versionsDeleted,
  recordsPurged: a.recordsPurged + b.recordsPurged,
  archived: a.archived + b.archived,
  bytesFreed: a.bytesFreed + b.bytesFreed,
  held: a.held + b.held,
});

export type LayerTallies = Partial<Record<GovernanceLayer, LayerTally>>;

/** Totals over layers: the counts of EnforcementResult (storageFreed in MB). */
export function totals(tallies: LayerTallies): {
  versionsDeleted: number;
  recordsPurged: number;
  storageFreed: number;
} {
  const sum = Object.values(tallies).reduce(addTallies, emptyTally());
  return {
    versionsDeleted: sum.versionsDeleted,
    recordsPurged: sum.recordsPurged,
    storageFreed: bytesToMB(sum.bytesFreed),
  };
}

/** simulate's answer; layers without a tally count as zero. */
export function simulationImpact(tallies: LayerTallies): SimulationImpact {
  const t = totals(tallies);
  const layer = (l: GovernanceLayer) => {
    const x = tallies[l] ?? emptyTally();
    return { affected: x.versionsDeleted + x.recordsPurged, storageMB: bytesToMB(x.bytesFreed) };
  };
  return {
    versionsAffected: t.versionsDeleted,
    recordsAffected: t.recordsPurged,
    storageFreed: t.storageFreed,
    costSavings: costSavingsUsd(t.storageFreed),
    breakdown: {
      conversations: layer("conversations"),
      immutable: layer("immutable"),
      mutable: layer("mutable"),
      vector: layer("vector"),
    },
  };
}
