// The one-time move of a model's vectors from a table of an earlier layout to the current one, the same
// for both indexes: the sqlite-vec table before 256-slot chunks and the per-user partitions of both indexes
// before organizations (a user id names a user only inside its organization, SPEC §8, so vectors are now
// partitioned by organization and user: two organizations' "alice" never share a nearest-neighbour search).
import type { Db } from "./connection";
import type { Logger } from "~/shared/logger";
import type { VectorRow } from "../repos/vector-repo";

/** What a move needs of a table of either index, whatever its layout. */
export interface LayoutTable {
  readonly table: string;
  /** Every rowid the table holds a vector for, a deleted memory's included. */
  rowids(): number[];
  /** Every live memory's vector, with the filter columns and owner of its memory. */
  vectors(): VectorRow[];
  delete(rowids: number[]): void;
  upsert(rows: VectorRow[]): void;
}

/** A live memory's organization and user, which the vector's partition key names. */
export const ownerOfRowid = (db: Db) => {
  const q = db.query<{ org_id: string; user_id: string }, [number]>(
    "SELECT org_id, user_id FROM memories WHERE rowid = ?",
  );
  return (rowid: number) => q.get(rowid);
};

/**
 * Moves every live memory's vector from `from` (then dropped with its pages zeroed, with `extra` tables) to `to`,
 * inside the caller's transaction. Vectors whose erasure is still queued (a crash between the two) are
 * erased first. A queued rowid is never a live memory's (rowids are not reused), so all of them go.
 *
 * `to` holds rows only if the store went back to an Engram of the earlier layout and forward again. That
 * version wrote only the earlier table and erased nothing from this one: a row here may belong to a memory
 * deleted or rewritten meanwhile. So every row here is erased, the memories whose vector is not in the
 * earlier table lose their mark, and the re-embedding at start writes them again.
 */
export function moveLayout(
  db: Db,
  model: string,
  from: LayoutTable,
  to: LayoutTable,
  o: { extra?: string[]; logger?: Logger },
): void {
  const started = performance.now();
  o.logger?.info("moving vectors to the current layout (once)", { from: from.table, to: to.table });
  from.delete(
    db
      .query<{ r: number }, []>("SELECT memory_rowid AS r FROM vector_erasures")
      .all()
      .map((x) => x.r),
  );
  const untrusted = to.rowids();
  if (untrusted.length) {
    to.delete(untrusted);
    const kept = new Set(from.rowids());
    const unmark = db.query("DELETE FROM memory_embeddings WHERE model = ? AND memory_rowid = ?");
    for (const r of untrusted) if (!kept.has(r)) unmark.run(model, r);
    o.logger?.info("erased vectors left from before a downgrade; they are embedded again", {
      vectors: untrusted.length,
    });
  }
  const rows = from.vectors();
  for (let i = 0; i < rows.length; i += 500) to.upsert(rows.slice(i, i + 500));
  // The connection runs with secure_delete = ON (connection.ts): the drop zeroes every page it frees, so no
  // vector stays readable in the file. Deleting the rows one by one first did the same, but inside the
  // caller's savepoint each vec0 delete cost ~1.6 ms: a 20k store took 33 s to start, a 100k one over 13 min.
  for (const t of [from.table, ...(o.extra ?? [])]) db.run(`DROP TABLE ${t}`);
  o.logger?.info("moved vectors", { vectors: rows.length, ms: Math.round(performance.now() - started) });
}
