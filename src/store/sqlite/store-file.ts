// Which file the store is, before anything is written to it: a new or empty file becomes a store; an
// Engram store is opened (with a quick integrity check when the last process using it did not stop
// cleanly); anything else — another application's SQLite database, a file that is not SQLite — is
// refused and left exactly as it was: not switched to WAL, no table added.
import { existsSync, openSync, readSync, closeSync, statSync } from "node:fs";
import { openDb, peekDb, type Db } from "./connection";
import { ENGRAM_APPLICATION_ID } from "./migrate";

export type StoreFileProblem = "foreign" | "damaged";

/** The store file cannot be used; nothing was written to it. */
export class StoreFileError extends Error {
  override readonly name = "StoreFileError";
  constructor(
    readonly problem: StoreFileProblem,
    message: string,
  ) {
    super(message);
  }
}

export type StoreFileKind = "new" | "engram" | { foreign: string };

/** What the file at `path` is, read without creating or changing anything. */
export function identify(path: string): StoreFileKind {
  if (!existsSync(path) || statSync(path).size === 0) return "new";
  if (!hasSqliteHeader(path)) return { foreign: "is not a SQLite database" };
  const first = peekKind(path, false);
  // The immutable look ignores the WAL: a store that crashed before its first checkpoint keeps its
  // tables there, and the -wal and -shm files exist already, so an ordinary read-only look adds nothing.
  if (first !== "engram" && existsSync(`${path}-wal`)) return peekKind(path, true);
  return first;
}

function hasSqliteHeader(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.toString("latin1") === "SQLite format 3\0";
  } finally {
    closeSync(fd);
  }
}

function peekKind(path: string, wal: boolean): StoreFileKind {
  let db: Db;
  try {
    db = peekDb(path, { wal });
  } catch (e) {
    return { foreign: `cannot be read as SQLite (${(e as Error).message})` };
  }
  try {
    const tables = db
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid",
      )
      .all()
      .map((r) => r.name);
    if (!tables.length) return "new";
    const { application_id } = db.query<{ application_id: number }, []>("PRAGMA application_id").get()!;
    if (application_id === ENGRAM_APPLICATION_ID) return "engram";
    // Stores made before the application id was set are known by their first migration.
    if (tables.includes("schema_migrations") && firstMigration(db) === "memories") return "engram";
    const shown = tables.slice(0, 3).join(", ") + (tables.length > 3 ? ", …" : "");
    return { foreign: `is a SQLite database of another application (tables: ${shown})` };
  } catch (e) {
    return { foreign: `cannot be read as SQLite (${(e as Error).message})` };
  } finally {
    db.close();
  }
}

function firstMigration(db: Db): string | null {
  try {
    return db.query<{ name: string }, []>("SELECT name FROM schema_migrations WHERE version = 1").get()?.name ?? null;
  } catch {
    return null;
  }
}

/** For the maintenance commands: the file at `path` must be an Engram store already. */
export function requireStore(path: string): void {
  const kind = path === ":memory:" ? "new" : identify(path);
  if (kind === "new") throw new StoreFileError("foreign", `STORE_URL: there is no Engram store at ${path}`);
  if (typeof kind === "object") throw foreign(path, kind.foreign);
}

/**
 * Opens the store at `path` for the server: refuses a foreign file, and when a -wal file is left over
 * (the last process using the store did not close it: a crash, kill -9, power loss — or another process
 * is using it right now) runs SQLite's quick_check first and refuses a damaged store.
 */
export async function openStoreFile(path: string, opts: { nativeCacheDir: string; cacheMb?: number }): Promise<Db> {
  if (path === ":memory:") return openDb(path, opts);
  const unclean = existsSync(`${path}-wal`);
  const kind = identify(path);
  if (typeof kind === "object") throw foreign(path, kind.foreign);
  const db = await openDb(path, opts);
  if (unclean && kind === "engram") {
    const problems = quickCheck(db);
    if (problems.length) {
      db.close();
      throw damaged(path, problems[0]!);
    }
  }
  return db;
}

/** SQLite's quick_check: the b-trees' structure and every page's format, without matching indexes to rows. */
export function quickCheck(db: Db, max = 10): string[] {
  return integrityProblems(db, `PRAGMA quick_check(${max})`);
}

/**
 * The problems an integrity pragma reports, one per line, each b-tree named by its table or index
 * ("Tree 3 (memories) page 3: …"); [] when it says "ok".
 */
export function integrityProblems(db: Db, pragma: string): string[] {
  const lines: string[] = [];
  try {
    // Row by row: the pragma may report some problems, then stop with SQLITE_CORRUPT at a worse one.
    for (const row of db.query<Record<string, unknown>, []>(pragma).iterate())
      lines.push(...String(Object.values(row)[0]).split("\n"));
  } catch (e) {
    lines.push((e as Error).message);
  }
  const names = new Map(
    db
      .query<{ rootpage: number; name: string }, []>("SELECT rootpage, name FROM sqlite_schema WHERE rootpage > 0")
      .all()
      .map((r) => [r.rootpage, r.name]),
  );
  return lines
    .filter((l) => l !== "ok" && !/^\*\*\* in database \w+ \*\*\*$/.test(l))
    .map((l) =>
      l.replace(/^Tree (\d+)/, (t, root) => (names.has(Number(root)) ? `${t} (${names.get(Number(root))})` : t)),
    );
}

const foreign = (path: string, what: string) =>
  new StoreFileError(
    "foreign",
    `STORE_URL: ${path} ${what}, not an Engram store; it was left untouched (point STORE_URL at an Engram store or a new file)`,
  );

function damaged(path: string, problem: string): StoreFileError {
  return new StoreFileError(
    "damaged",
    `the store ${path} is damaged (SQLite's quick_check after an unclean shutdown: ${problem}); nothing was started — ` +
      `'engram check --store-url=${path}' reports every problem, 'engram repair --store-url=${path}' rebuilds the store from what is readable`,
  );
}
