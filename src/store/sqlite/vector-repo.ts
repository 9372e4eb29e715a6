// Vectors in SQLite through sqlite-vec (vector-index.ts, one vec0 table per model) or the portable index
// (portable-vector-index.ts) where sqlite-vec cannot load (vector-indexes.ts picks and hands over), the
// record of which model embedded each memory, and the erasure of deleted memories' vectors (vector-erasure.ts).
import type { Db } from "./connection";
import type { Logger } from "~/shared/logger";
import { indexOfTable, openVectorIndex, type ModelVectorIndex, type VectorIndexKind } from "./vector-indexes";
import type { VectorErasure } from "./vector-erasure";
import type { MemoryFilter, RankedRow } from "../repos/search-repo";
import type { VectorColumns, VectorRepo, VectorRow, VectorSpace } from "../repos/vector-repo";

export class SqliteVectorRepo implements VectorRepo {
  private index: ModelVectorIndex | null = null;

  constructor(
    private readonly db: Db,
    private readonly kind: VectorIndexKind,
    private readonly erasure: VectorErasure,
    private readonly logger: Logger,
  ) {}

  async open(modelId: string, dimensions: number): Promise<VectorSpace> {
    const index = openVectorIndex(this.db, this.kind, modelId, dimensions, this.logger);
    return { model: modelId, key: index.table };
  }

  async upsert(space: VectorSpace, rows: VectorRow[]): Promise<void> {
    this.of(space).upsert(rows);
  }

  async rank(space: VectorSpace, filter: MemoryFilter, vector: Float32Array, n: number): Promise<RankedRow[]> {
    return this.of(space).rank(filter, vector, n);
  }

  async erase(rowids: number[]): Promise<void> {
    this.erasure.erase(rowids);
  }

  async embeddedCount(model: string): Promise<number> {
    return this.db
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM memory_embeddings WHERE model = ?")
      .get(model)!.n;
  }

  async unembedded(model: string, limit: number) {
    return this.db
      .query<VectorColumns & { memory: string }, [string, number]>(
        `SELECT m.rowid, m.org_id, m.user_id, m.agent_id, m.session_id, m.expires_at, m.memory FROM memories m
         LEFT JOIN memory_embeddings e ON e.memory_rowid = m.rowid AND e.model = ? WHERE e.memory_rowid IS NULL LIMIT +?`,
      )
      .all(model, limit);
  }

  /** The index of a space (kept while the same space is asked for: a search worker asks every time). */
  private of(space: VectorSpace): ModelVectorIndex {
    if (this.index?.table !== space.key) this.index = indexOfTable(this.db, space.model, space.key);
    return this.index;
  }
}
