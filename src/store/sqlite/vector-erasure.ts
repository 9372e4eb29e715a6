// Erasing the vectors of deleted memories, from every model's vec0 table (not only the current
// model's: after a model change the old table still holds them). sqlite-vec deletes one row at a
// time (~14 µs each), which made half of a 10k-memory delete_all; so a small delete erases inside its
// own transaction, and a bulk one queues the rowids in `vector_erasures` (same transaction, so a
// rollback queues nothing) and they are erased in batches right after it commits. The queue lives in
// the database: a crash between the two is finished at the next start. Memory rowids are never reused
// (the memory rowids migration), so a queued rowid's vectors are always the deleted memory's, in every table.
import type { Db } from "./connection";
import type { Logger } from "~/shared/logger";
import { erasableTables, indexOfTable, type VectorIndexKind } from "./vector-indexes";
import type { VectorErasures } from "../store";
import type { Turns } from "./turns";

/** Up to this many rows are erased inside the deleting transaction (a single delete costs ~14 µs). */
export const INLINE_ERASE = 100;
/** Rows erased per transaction when draining the queue; requests are served between batches. */
const BATCH = 500;

export class VectorErasure implements VectorErasures {
  private draining = false;
  private closed = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly turns: Turns,
    private readonly logger: Logger,
    /** The index in use: with the portable one, sqlite-vec is not loaded and its tables cannot be touched. */
    private readonly kind: VectorIndexKind,
    /** A read-only connection (a search worker's) never erases: the server's connection does. */
    private readonly writable: boolean,
  ) {
    // What a crash left queued is erased in the background from the start.
    this.schedule();
  }

  /** Call inside the transaction that deletes the memories with these rowids. */
  erase(rowids: number[]): void {
    if (!rowids.length) return;
    if (rowids.length <= INLINE_ERASE) return this.eraseRows(rowids);
    this.db
      .query("INSERT OR IGNORE INTO vector_erasures (memory_rowid) SELECT value FROM json_each(?)")
      .run(JSON.stringify(rowids));
    this.schedule();
  }

  /** Erases what is queued, in the background. */
  schedule(): void {
    if (!this.writable || this.draining) return;
    this.draining = true;
    setTimeout(() => void this.drain(), 0);
  }

  get pending(): number {
    return this.db.query<{ n: number }, []>("SELECT count(*) AS n FROM vector_erasures").get()!.n;
  }

  /** Resolves once the queue is empty. */
  settled(): Promise<void> {
    return this.draining ? new Promise((resolve) => this.idle.push(resolve)) : Promise.resolve();
  }

  /** Erases everything still queued, now, and stops the background drain (shutdown). */
  async finish(): Promise<void> {
    this.closed = true;
    if (this.writable) while ((await this.turns.run(() => this.eraseQueued())) > 0);
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private async drain(): Promise<void> {
    try {
      while (await this.turns.run(() => this.batch())) await new Promise((resolve) => setImmediate(resolve));
    } catch (e) {
      this.draining = false;
      this.logger.error("erasing vectors of deleted memories failed; retried at the next delete or start", {
        error: (e as Error).message,
      });
    }
    for (const resolve of this.idle.splice(0)) resolve();
  }

  /**
   * One batch, within a turn of the connection. The empty check and `draining = false` happen in that
   * same turn, where no erase() can run, so one queued later always schedules a new drain.
   */
  private batch(): boolean {
    if (!this.closed && this.eraseQueued() > 0) return true;
    this.draining = false;
    return false;
  }

  /** One batch from the queue in one transaction; returns how many rowids it took. */
  private eraseQueued(): number {
    return this.db
      .transaction(() => {
        const rowids = this.db
          .query<{ r: number }, []>(`SELECT memory_rowid AS r FROM vector_erasures LIMIT ${BATCH}`)
          .all()
          .map((x) => x.r);
        if (!rowids.length) return 0;
        this.eraseRows(rowids);
        this.db
          .query("DELETE FROM vector_erasures WHERE memory_rowid IN (SELECT value FROM json_each(?))")
          .run(JSON.stringify(rowids));
        return rowids.length;
      })
      .immediate();
  }

  private eraseRows(rowids: number[]): void {
    for (const table of erasableTables(this.db, this.kind)) indexOfTable(this.db, "", table).delete(rowids);
  }
}
