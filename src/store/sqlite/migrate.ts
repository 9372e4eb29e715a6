// Applies the numbered migrations bundled into the program, all pending ones in one
// transaction, recording each in schema_migrations.
import type { Db } from "./connection";
import { MIGRATIONS } from "./migrations";

export function migrate(db: Db): number {
  db.run(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  let applied = 0;
  db.transaction(() => {
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
