// Keeps the FTS5 index of memories in step with the memories table: owner numbers, and the
// owner-prefixed text of each memory (see fts-tokens.ts). Deletions are a trigger. An owner is a user
// of an organization (SPEC §8): org A's "alice" and org B's have namespaces of their own.
import type { Db } from "./connection";
import { ownedText } from "./fts-tokens";
import { ownerOf, type Owner } from "../repos/memory-repo";

const OWNER_SQL = "SELECT id FROM fts_owners WHERE org_id = ? AND user_id = ?";

/** The owner's number, or null when none of their text was ever indexed. */
export const existingOwnerId = (db: Db, o: Owner): number | null =>
  db.query<{ id: number }, [string, string]>(OWNER_SQL).get(o.org, o.userId)?.id ?? null;

/** Nearly every owner has a number already: looked up first, made only when missing (one statement, not two). */
export function ownerId(db: Db, o: Owner): number {
  const id = existingOwnerId(db, o);
  if (id !== null) return id;
  db.query("INSERT OR IGNORE INTO fts_owners (org_id, user_id) VALUES (?, ?)").run(o.org, o.userId);
  return existingOwnerId(db, o)!;
}

/**
 * `fresh`: the row was inserted in this transaction, so the index has no entry of its rowid to replace
 * (rowids are not reused); an FTS5 delete of a rowid it lacks still searches its segments for it.
 */
export function indexMemory(db: Db, rowid: number, o: Owner, text: string, fresh = false): void {
  if (!fresh) db.query("DELETE FROM memories_fts WHERE rowid = ?").run(rowid);
  db.query("INSERT INTO memories_fts (rowid, memory) VALUES (?, ?)").run(rowid, ownedText(ownerId(db, o), text));
}

/**
 * After a user's erasure: drops their owner number when none of their memories remain (the row held
 * their id). True when their text was ever indexed, so the index still holds deleted entries of theirs
 * until it is rewritten (SqliteStore.scrub).
 */
export function forgetOwner(db: Db, o: Owner): boolean {
  const id = existingOwnerId(db, o);
  if (id === null) return false;
  db.query(
    "DELETE FROM fts_owners WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memories WHERE org_id = ? AND user_id = ?)",
  ).run(id, o.org, o.userId);
  return true;
}

/** Indexes every memory again (a copied or repaired store), in rowid order, in the caller's transaction. */
export function reindexAll(db: Db): void {
  const page = db.query<{ rowid: number; org_id: string; user_id: string; memory: string }, [number]>(
    "SELECT rowid, org_id, user_id, memory FROM memories WHERE rowid > ? ORDER BY rowid LIMIT 1000",
  );
  for (let after = 0; ; ) {
    const rows = page.all(after);
    if (!rows.length) return;
    for (const r of rows) indexMemory(db, r.rowid, ownerOf(r), r.memory);
    after = rows.at(-1)!.rowid;
  }
}
