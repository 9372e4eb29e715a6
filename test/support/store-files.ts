// Store files in the states start-up must tell apart: another application's SQLite database, a store
// left behind by a process that did not stop (its -wal file still there), and one with a broken page.
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, openSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "~/config/load-config";
import { buildServices } from "~/main";
import { silentLogger } from "~/shared/logger";
import { userScopeOf } from "~/shared/principal";
import { dbOf } from "./store";

/** A SQLite database of some other program, closed cleanly, in rollback-journal or WAL mode. */
export function foreignDatabase(path: string, journal: "delete" | "wal"): void {
  const db = new Database(path);
  db.run(`PRAGMA journal_mode = ${journal}`);
  db.run("CREATE TABLE invoices (id INTEGER PRIMARY KEY, customer TEXT, total REAL)");
  db.run("CREATE TABLE customers (name TEXT PRIMARY KEY)");
  db.run("INSERT INTO invoices (customer, total) VALUES ('acme', 12.5)");
  db.close();
}

/**
 * An Engram store with `memories` memories, copied (file and -wal) while its process still had it open:
 * what a kill -9 leaves behind. Everything is checkpointed into the main file first, so damaging a page
 * of that file damages the store.
 */
export async function crashedStore(dir: string, memories: number): Promise<string> {
  const live = join(dir, "live.db");
  const engine = await buildServices(loadConfig({ options: { storeUrl: live, searchWorkers: 0 } }), {
    logger: silentLogger(),
    embedder: null,
  });
  for (let i = 0; i < memories; i++)
    await engine.memory.add(userScopeOf("default", `user-${i % 7}`), {
      memory: `Memory ${i}: the team meets in room ${i} on Tuesdays`,
    });
  dbOf(engine).run("PRAGMA wal_checkpoint(TRUNCATE)");
  const crashed = join(dir, "crashed.db");
  copyFileSync(live, crashed);
  if (existsSync(`${live}-wal`)) copyFileSync(`${live}-wal`, `${crashed}-wal`);
  await engine.close();
  return crashed;
}

/** Overwrites the first interior (non-leaf) b-tree page of `table` with garbage. */
/** The number SQLite's integrity_check names `table`'s b-tree by (its root page). */
export function rootPage(path: string, table: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.query<{ rootpage: number }, [string]>("SELECT rootpage FROM sqlite_master WHERE name = ?").get(table)!
      .rootpage;
  } finally {
    db.close();
  }
}

export const breakInteriorPage = (path: string, table: string) => breakPage(path, table, "internal");

/** Overwrites a leaf page in the middle of `table`'s b-tree with garbage: the rows on it are lost. */
export const breakLeafPage = (path: string, table: string) => breakPage(path, table, "leaf");

function breakPage(path: string, table: string, type: "internal" | "leaf"): number {
  const db = new Database(path, { readonly: true });
  const pages = db
    .query<{ pageno: number }, [string, string]>(
      "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno",
    )
    .all(table, type)
    .map((r) => r.pageno);
  const page = type === "leaf" ? pages[Math.floor(pages.length / 2)] : pages[0];
  const size = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  db.close();
  if (!page) throw new Error(`${table} has no ${type} page yet: store more rows`);
  const fd = openSync(path, "r+");
  writeSync(fd, new Uint8Array(size).fill(0x55), 0, size, (page - 1) * size);
  closeSync(fd);
  return page;
}
