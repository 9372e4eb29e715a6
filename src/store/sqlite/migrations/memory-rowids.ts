// The memory rowids migration's step (0013): memories.rowid becomes AUTOINCREMENT, so a deleted memory's rowid is never
// handed to a new one (vectors, FTS entries and queued erasures are keyed by it). SQLite cannot add
// AUTOINCREMENT to a column, so the table is rebuilt once: a copy under the same definition plus the
// keyword, every row with its rowid, then its indexes and triggers as they were. Runs with foreign
// keys off (dropping the old table would otherwise cascade to versions and embeddings); migrate.ts
// checks them before the commit.
import type { Db } from "../connection";
import { VectorIndex } from "../vector-index";
import { PortableVectorIndex } from "../portable-vector-index";

export function rebuildMemoriesWithAutoincrement(db: Db): void {
  const table = db
    .query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'memories'")
    .get()!.sql;
  const dependents = db
    .query<{ sql: string }, []>(
      "SELECT sql FROM sqlite_master WHERE tbl_name = 'memories' AND type IN ('index', 'trigger') AND sql IS NOT NULL",
    )
    .all();
  const rebuilt = table
    .replace(/^CREATE TABLE "?memories"?/, "CREATE TABLE memories_rebuilt")
    .replace(/\browid INTEGER PRIMARY KEY\b(?! AUTOINCREMENT)/, "rowid INTEGER PRIMARY KEY AUTOINCREMENT");
  if (!rebuilt.includes("AUTOINCREMENT")) throw new Error("memories has no rowid column to make AUTOINCREMENT");
  db.run(rebuilt);
  db.run("INSERT INTO memories_rebuilt SELECT * FROM memories");
  db.run("DROP TABLE memories");
  db.run("ALTER TABLE memories_rebuilt RENAME TO memories");
  for (const d of dependents) db.run(d.sql);
  // The sequence starts above every rowid still named anywhere, not only above the live memories.
  const seq = Math.max(0, ...usedRowids(db));
  db.query("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'memories'").run(seq);
  db.query("INSERT INTO sqlite_sequence (name, seq) SELECT 'memories', ? WHERE changes() = 0").run(seq);
}

/** The largest rowid each place that keys by memory rowid holds (vector tables read through their rowid maps). */
function usedRowids(db: Db): number[] {
  const max = (sql: string) => db.query<{ n: number | null }, []>(sql).get()?.n ?? 0;
  return [
    max("SELECT max(rowid) AS n FROM memories"),
    max("SELECT max(memory_rowid) AS n FROM vector_erasures"),
    max("SELECT max(memory_rowid) AS n FROM memory_embeddings"),
    ...VectorIndex.tables(db).map((t) => max(`SELECT max(rowid) AS n FROM ${t}_rowids`)),
    ...PortableVectorIndex.tables(db).map((t) => max(`SELECT max(memory_rowid) AS n FROM ${t}_rowids`)),
  ];
}
