// Applies the numbered migrations bundled into the program, all pending ones in one
// transaction, recording each in schema_migrations.
import type { Db } from "./connection";
import { MIGRATIONS } from "./migrations";
import { withHomeOrg } from "../home-org";

/** PRAGMA application_id of every Engram store ("ENGR"): how store-file.ts tells a store from another application's file. */
export const ENGRAM_APPLICATION_ID = 0x454e4752;

/** `homeOrg`: ENGRAM_ORG_ID, the organization rows stored before organizations existed go to. */
export function migrate(db: Db, homeOrg: string): number {
  db.run(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  // PRAGMA foreign_keys does nothing inside a transaction: a migration that rebuilds a referenced table
  // turns them off before it begins, and checks them itself before the commit.
  const fkOff = MIGRATIONS.some((m) => m.foreignKeysOff && !applied(db).has(m.version));
  if (fkOff) db.run("PRAGMA foreign_keys = OFF");
  try {
    return db.transaction(() => applyPending(db, fkOff, homeOrg)).immediate();
  } finally {
    if (fkOff) db.run("PRAGMA foreign_keys = ON");
  }
}

const applied = (db: Db) =>
  new Set(
    db
      .query<{ version: number }, []>("SELECT version FROM schema_migrations")
      .all()
      .map((r) => r.version),
  );

function applyPending(db: Db, checkForeignKeys: boolean, homeOrg: string): number {
  const { application_id } = db.query<{ application_id: number }, []>("PRAGMA application_id").get()!;
  if (application_id !== ENGRAM_APPLICATION_ID) db.run(`PRAGMA application_id = ${ENGRAM_APPLICATION_ID}`);
  const done = applied(db);
  let count = 0;
  for (const m of MIGRATIONS) {
    if (done.has(m.version)) continue;
    db.run(withHomeOrg(m.sql, homeOrg));
    m.run?.(db);
    db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
      m.version,
      m.name,
      Date.now(),
    );
    count++;
  }
  if (checkForeignKeys && db.query("PRAGMA foreign_key_check").get())
    throw new Error("a migration left rows whose foreign keys point nowhere; nothing was changed");
  return count;
}
