// Deleting memories with everything hanging off them: their rows and vectors (in the caller's
// transaction), their graph links and this process's caches. Beneath the memory service and
// governance, which both purge (delete_memory; enforcement), so neither needs the other for it.
import type { Repos } from "~/store/store";
import type { SearchService } from "~/search/search.service";
import type { GraphLinker } from "./memory-hooks";
import type { MemoryCaches } from "./memory-caches";
import { ownerKey } from "~/shared/principal";

export interface PurgedMemory {
  rowid: number;
  id: string;
  org: string;
  userId: string;
}

export class MemoryPurger {
  constructor(
    private readonly search: SearchService,
    private readonly graph: GraphLinker,
    private readonly caches: MemoryCaches,
  ) {}

  /**
   * Runs inside the transaction `tx`. The graph links go after it, on their own (SQLite's trigger has
   * already dropped them with the rows; this keeps a Neo4j mirror in step, and logs when it cannot).
   */
  async purgeMemories(tx: Repos, rows: PurgedMemory[]): Promise<void> {
    if (!rows.length) return;
    await tx.memories.deleteByRowids(rows.map((r) => r.rowid));
    await this.search.deleteVectors(
      tx,
      rows.map((r) => r.rowid),
    );
    const byOwner = new Map<string, { owner: PurgedMemory; ids: string[] }>();
    for (const r of rows) {
      const key = ownerKey(r);
      byOwner.set(key, { owner: r, ids: [...(byOwner.get(key)?.ids ?? []), r.id] });
    }
    for (const { owner, ids } of byOwner.values()) {
      void this.graph.unlinkDeleted(owner, ids);
      this.caches.touched(owner, ids.length);
    }
  }
}
