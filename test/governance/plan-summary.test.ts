import { describe, expect, test } from "bun:test";
import {
  BYTES_PER_MB,
  addTallies,
  bytesToMB,
  costSavingsUsd,
  emptyTally,
  removalDueTimes,
  simulationImpact,
  tallyPlan,
  totals,
} from "~/governance/plan-summary";
import type { ConversationPlan, VectorPlan } from "~/governance/plan";

const conversations: ConversationPlan = {
  archive: [{ id: "a", bytes: 5, reason: "retention.archiveAfter", dueAt: 1 }],
  delete: [{ id: "d", bytes: BYTES_PER_MB, reason: "retention.deleteAfter", dueAt: 2 }],
  held: 1,
};
const vector: VectorPlan = {
  deleteVersions: [
    { memoryId: "m", version: 1, bytes: BYTES_PER_MB / 2, reason: "retention.versions", dueAt: 3 },
    { memoryId: "m", version: 2, bytes: BYTES_PER_MB / 2, reason: "retention.versions", dueAt: 4 },
  ],
  purgeMemories: [{ id: "o", bytes: BYTES_PER_MB, reason: "purging.deleteOrphaned", dueAt: 5 }],
  held: 0,
};

describe("plan summaries", () => {
  test("a tally counts versions, records, archivals and freed bytes (archival frees nothing)", () => {
    expect(tallyPlan(conversations)).toEqual({
      versionsDeleted: 0,
      recordsPurged: 1,
      archived: 1,
      bytesFreed: BYTES_PER_MB,
      held: 1,
    });
    expect(tallyPlan(vector)).toEqual({
      versionsDeleted: 2,
      recordsPurged: 1,
      archived: 0,
      bytesFreed: 2 * BYTES_PER_MB,
      held: 0,
    });
    expect(addTallies(tallyPlan(vector), emptyTally())).toEqual(tallyPlan(vector));
  });

  test("removal due times leave archivals out", () => {
    expect(removalDueTimes(conversations)).toEqual([2]);
    expect(removalDueTimes(vector)).toEqual([3, 4, 5]);
  });

  test("totals give EnforcementResult counts with storage in MB", () => {
    expect(totals({ conversations: tallyPlan(conversations), vector: tallyPlan(vector) })).toEqual({
      versionsDeleted: 2,
      recordsPurged: 2,
      storageFreed: 3,
    });
  });

  test("simulationImpact breaks the totals down per layer and prices them at the documented rate", () => {
    expect(simulationImpact({ conversations: tallyPlan(conversations), vector: tallyPlan(vector) })).toEqual({
      versionsAffected: 2,
      recordsAffected: 2,
      storageFreed: 3,
      costSavings: 0.0003, // 3 MB × STORAGE_USD_PER_MB_MONTH
      breakdown: {
        conversations: { affected: 1, storageMB: 1 },
        immutable: { affected: 0, storageMB: 0 },
        mutable: { affected: 0, storageMB: 0 },
        vector: { affected: 3, storageMB: 2 },
      },
    });
  });

  test("megabytes are MiB rounded to six decimals", () => {
    expect(bytesToMB(BYTES_PER_MB * 1.5)).toBe(1.5);
    expect(bytesToMB(1)).toBe(0.000001);
    expect(costSavingsUsd(1000)).toBe(0.1);
  });
});
