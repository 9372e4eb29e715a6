// The only bun:sqlite import: opens the database file, sets the pragmas every connection
// needs (WAL, busy timeout, foreign keys) and loads sqlite-vec from a real file. The driver's
// types stay inside store/sqlite/.
import { type Changes, constants, Database, type SQLQueryBindings } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { getLoadablePath } from "sqlite-vec";
import { materialise } from "~/shared/native-files";
import { EMBEDDED_VEC } from "./vec-native-file";
import { AppError } from "~/shared/errors";

/**
 * SQLite's own "cannot grow" error (SQLITE_FULL: the disk or a quota is full, or max_page_count is reached)
 * as the AppError every adapter answers with (HTTP 507 STORAGE_FULL). The transaction it broke is rolled
 * back, so nothing of the write is stored. Other errors pass through unchanged.
 */
export function storeError(e: unknown): unknown {
  if (e instanceof Error && (e as { code?: unknown }).code === "SQLITE_FULL")
    return new AppError("STORAGE_FULL", "the store cannot grow (disk full or quota reached); nothing was written");
  return e;
}

const mapped =
  <A extends any[], T>(fn: (...args: A) => T) =>
  (...args: A): T => {
    try {
      return fn(...args);
    } catch (e) {
      throw storeError(e);
    }
  };

/**
 * The connection every store module uses: a bun:sqlite Database whose transactions and plain statements
 * report a full disk as STORAGE_FULL (storeError), wherever in the transaction — a statement or the COMMIT —
 * SQLite found out.
 */
export class StoreDb extends Database {
  override transaction<A extends any[], T>(fn: (...args: A) => T) {
    const t = super.transaction(fn);
    return Object.assign(mapped(t), {
      deferred: mapped(t.deferred),
      immediate: mapped(t.immediate),
      exclusive: mapped(t.exclusive),
    });
  }

  override run<P extends SQLQueryBindings[]>(sql: string, ...bindings: P[]): Changes {
    try {
      return super.run(sql, ...bindings);
    } catch (e) {
      throw storeError(e);
    }
  }
}

export type Db = StoreDb;

/**
 * Page cache per connection, in MB. Alone, the server's connection gets 32 MB: at 1M memories the default
 * 2 MB made each search miss ~100 pages (search 6.8 → 1.6 ms in process). Beside search workers every
 * connection gets 8 MB: on the 1M store, main 8 + two workers × 8 served 1.7× the searches of one 32 MB
 * connection at the same RSS (≈ 270–310 MB either way), while larger worker caches only added RSS.
 */
export const PAGE_CACHE_MB = { alone: 32, shared: 8 } as const;

/**
 * Reads come from a memory map of the store file (up to SQLite's 2 GB limit) rather than pread into each
 * connection's page cache: a search reads its user's vector chunks (~100 KB each) and FTS5 pages, and
 * with 8 MB caches nearly every page was a syscall and a copy, on each of three connections. Ranking at
 * 100k memories, in process: 545 → 415–480 µs; search over HTTP (wrk, c = 16, three alternating pairs)
 * +6 to +45 %. The mapped pages are the OS page cache that pread filled anyway, shared by every
 * connection: they show in VmRSS (RssFile) but are not the process's own memory (RssAnon).
 */
const MMAP_BYTES = 2 ** 31;

/** `:memory:` or an absolute/relative file path (already resolved from STORE_URL). */
export async function openDb(path: string, opts: { nativeCacheDir: string; cacheMb?: number }): Promise<Db> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new StoreDb(path, { create: true, strict: true });
  db.run("PRAGMA busy_timeout = 5000");
  if (path !== ":memory:") {
    db.run("PRAGMA journal_mode = WAL");
    // NORMAL is durable across process crashes (kill -9) in WAL mode; FULL adds power-loss safety.
    db.run("PRAGMA synchronous = NORMAL");
  }
  db.run("PRAGMA foreign_keys = ON");
  // Deleted rows are zeroed in place rather than left readable in free pages ("deletes that delete").
  db.run("PRAGMA secure_delete = FAST");
  db.run("PRAGMA temp_store = MEMORY");
  db.run(`PRAGMA mmap_size = ${MMAP_BYTES}`); // a memory store has no file to map: SQLite ignores it
  db.run(`PRAGMA cache_size = -${Math.round((opts.cacheMb ?? PAGE_CACHE_MB.alone) * 1024)}`);
  await loadVec(db, opts.nativeCacheDir);
  return db;
}

async function loadVec(db: Db, cacheDir: string): Promise<void> {
  try {
    db.loadExtension(await vecFile(cacheDir), "sqlite3_vec_init");
  } catch (e) {
    throw new Error(
      `could not load the sqlite-vec extension (${(e as Error).message}); reinstall with 'bun install' or use the release binary`,
    );
  }
}

/**
 * The loadable file for the running platform: the binary's own copy, unpacked; from source, the one
 * sqlite-vec's lookup finds (its platform package: sqlite-vec-<os>-<arch>/vec0.<so|dylib|dll>).
 */
async function vecFile(cacheDir: string): Promise<string> {
  if (EMBEDDED_VEC) return materialise(EMBEDDED_VEC.path, join(cacheDir, "native"), EMBEDDED_VEC.name);
  return getLoadablePath();
}

/**
 * A read-only look at a store file that creates and changes nothing: SQLite's `immutable` mode takes no
 * lock and makes no -wal or -shm file, so it sees the main file only. With `wal`, an ordinary read-only
 * connection that also reads the WAL (for a file whose -wal and -shm exist already).
 */
export function peekDb(path: string, opts: { wal?: boolean } = {}): Db {
  if (opts.wal) return new StoreDb(path, { readonly: true });
  const uri = `file:${path.split("/").map(encodeURIComponent).join("/")}?immutable=1`;
  return new StoreDb(uri, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
}
