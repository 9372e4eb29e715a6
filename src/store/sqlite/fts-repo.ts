// Keeps the FTS5 index of memories in step with the memories table: owner numbers, and the
// owner-prefixed text of each memory (see fts-tokens.ts). Deletions are a trigger.
import type { Db } from "./connection";
import { ownedText } from "./fts-tokens";

export function ownerId(db: Db, userId: string): number {
  db.query("INSERT OR IGNORE INTO fts_owners (user_id) VALUES (?)").run(userId);
  return db.query<{ id: number }, [string]>("SELECT id FROM fts_owners WHERE user_id = ?").get(userId)!.id;
}

export function indexMemory(db: Db, rowid: number, userId: string, text: string): void {
  db.query("DELETE FROM memories_fts WHERE rowid = ?").run(rowid);
  db.query("INSERT INTO memories_fts (rowid, memory) VALUES (?, ?)").run(rowid, ownedText(ownerId(db, userId), text));
}

/**
 * After a user's erasure: drops their owner number when none of their memories remain (the row held
 * their id). True when their text was ever indexed, so the index still holds deleted entries of theirs
 * until it is rewritten (SqliteStore.scrub).
 */
export function forgetOwner(db: Db, userId: string): boolean {
  const owner = db.query<{ id: number }, [string]>("SELECT id FROM fts_owners WHERE user_id = ?").get(userId);
  if (!owner) return false;
  db.query("DELETE FROM fts_owners WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memories WHERE user_id = ?)").run(
    owner.id,
    userId,
  );
  return true;
}

/** Indexes every memory again (migration 8), in rowid order, in the caller's transaction. */
export function reindexAll(db: Db): void {
  const page = db.query<{ rowid: number; user_id: string; memory: string }, [number]>(
    "SELECT rowid, user_id, memory FROM memories WHERE rowid > ? ORDER BY rowid LIMIT 1000",
  );
  for (let after = 0; ; ) {
    const rows = page.all(after);
    if (!rows.length) return;
    for (const r of rows) indexMemory(db, r.rowid, r.user_id, r.memory);
    after = rows.at(-1)!.rowid;
  }
}
