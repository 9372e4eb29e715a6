// Applies the numbered migrations bundled into the program, all pending ones in one
// transaction, recording each in schema_migrations.
import type { Db } from "./connection";
import { MIGRATIONS } from "./migrations";

/** PRAGMA application_id of every Engram store ("ENGR"): how store-file.ts tells a store from another application's file. */
export const ENGRAM_APPLICATION_ID = 0x454e4752;

export function migrate(db: Db): number {
  db.run(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  let applied = 0;
  db.transaction(() => {
    const { application_id } = db.query<{ application_id: number }, []>("PRAGMA application_id").get()!;
    if (application_id !== ENGRAM_APPLICATION_ID) db.run(`PRAGMA application_id = ${ENGRAM_APPLICATION_ID}`);
    const done = new Set(
      db
        .query<{ version: number }, []>("SELECT version FROM schema_migrations")
        .all()
        .map((r) => r.version),
    );
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      db.run(m.sql);
      m.run?.(db);
      db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        m.version,
        m.name,
        Date.now(),
      );
      applied++;
    }
  }).immediate();
  return applied;
}
