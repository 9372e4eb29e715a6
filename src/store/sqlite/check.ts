// `engram check`: every integrity check SQLite and FTS5 have, on a store, without changing its content
// (opening it may checkpoint a WAL a crash left, as any start does) — quick_check and integrity_check (every b-tree, and every index against its table), foreign_key_check (rows that refer
// to missing rows) and FTS5's own check of the keyword index.
import { openDb, type Db } from "./connection";
import { integrityProblems, requireStore } from "./store-file";

export interface CheckReport {
  problems: string[];
  /** Memories and users, when they could be counted. */
  memories: number | null;
  users: number | null;
}

export async function checkStore(path: string, opts: { nativeCacheDir: string }): Promise<CheckReport> {
  requireStore(path);
  const db = await openDb(path, opts);
  try {
    // quick_check names the damaged pages where integrity_check stops at the first unreadable table;
    // integrity_check then also matches every index to its table.
    const problems = integrityProblems(db, "PRAGMA quick_check(100)");
    if (!problems.length) problems.push(...integrityProblems(db, "PRAGMA integrity_check(100)"));
    try {
      for (const v of db
        .query<{ table: string; rowid: number | null; parent: string }, []>("PRAGMA foreign_key_check")
        .all())
        problems.push(`${v.table} row ${v.rowid ?? "?"} refers to a missing ${v.parent} row`);
    } catch (e) {
      problems.push(`foreign_key_check: ${(e as Error).message}`);
    }
    try {
      db.run("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 0)");
    } catch (e) {
      problems.push(`keyword index (memories_fts): ${(e as Error).message}`);
    }
    return { problems, ...counts(db) };
  } finally {
    db.close();
  }
}

function counts(db: Db): { memories: number | null; users: number | null } {
  try {
    return db
      .query<{ memories: number; users: number }, []>(
        "SELECT count(*) AS memories, count(DISTINCT user_id) AS users FROM memories",
      )
      .get()!;
  } catch {
    return { memories: null, users: null };
  }
}
