// Migration 8's code step, as the schema of that version has it (owners by user only; migration 20
// keys them by organization too): every memory indexed again under its owner's namespace.
import type { Db } from "../connection";
import { ownedText } from "../fts-tokens";

/** One memory indexed under its user's namespace, as stores before migration 20 kept it. */
export function indexByUser(db: Db, rowid: number, userId: string, text: string): void {
  db.query("INSERT OR IGNORE INTO fts_owners (user_id) VALUES (?)").run(userId);
  const owner = db.query<{ id: number }, [string]>("SELECT id FROM fts_owners WHERE user_id = ?").get(userId)!.id;
  db.query("INSERT INTO memories_fts (rowid, memory) VALUES (?, ?)").run(rowid, ownedText(owner, text));
}

export function reindexByUser(db: Db): void {
  for (const r of db
    .query<{ rowid: number; user_id: string; memory: string }, []>("SELECT rowid, user_id, memory FROM memories")
    .iterate())
    indexByUser(db, r.rowid, r.user_id, r.memory);
}
