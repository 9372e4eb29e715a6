// The only bun:sqlite import: picks the SQLite library (macOS: one that loads extensions, when there
// is one), opens the database file, sets the pragmas every connection needs (WAL, busy timeout, foreign
// keys) and loads sqlite-vec from a real file — or says why the portable vector index serves instead.
// The driver's types stay inside store/sqlite/.
import { type Changes, constants, Database, type SQLQueryBindings } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { getLoadablePath } from "sqlite-vec";
import { materialise } from "~/shared/native-files";
import { EMBEDDED_VEC } from "./vec-native-file";
import { sqliteLibraryCandidates, type SqliteLibrary, type VectorIndexChoice, type VectorSupport } from "./platform";
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
  constructor(...args: ConstructorParameters<typeof Database>) {
    // The library is chosen before the first connection of the thread, whichever opens it.
    useSqliteLibrary(undefined);
    super(...args);
  }

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
/**
 * The size the WAL file is cut back to when it starts over (SQLite's default checkpoint size, 1,000 pages).
 * Under sustained writes it grows to the server's checkpoint backstop (~40 MB, sqlite-store.ts), and SQLite
 * keeps a WAL file at its largest size otherwise.
 */
export const WAL_KEPT_BYTES = 4 * 1024 * 1024;

export interface OpenOptions {
  nativeCacheDir: string;
  cacheMb?: number;
  /** Default "auto": sqlite-vec when this SQLite loads it, else the portable index. */
  vectorIndex?: VectorIndexChoice;
  /** ENGRAM_SQLITE_LIB (macOS): the SQLite library to use instead of Apple's. */
  sqliteLib?: string;
}

/** `:memory:` or an absolute/relative file path (already resolved from STORE_URL). */
export async function openDb(path: string, opts: OpenOptions): Promise<Db> {
  useSqliteLibrary(opts.sqliteLib);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new StoreDb(path, { create: true, strict: true });
  db.run("PRAGMA busy_timeout = 5000");
  if (path !== ":memory:") {
    db.run("PRAGMA journal_mode = WAL");
    // NORMAL is durable across process crashes (kill -9) in WAL mode; FULL adds power-loss safety.
    db.run("PRAGMA synchronous = NORMAL");
    db.run(`PRAGMA journal_size_limit = ${WAL_KEPT_BYTES}`);
  }
  db.run("PRAGMA foreign_keys = ON");
  // Deleted content is zeroed, in the pages that keep rows and in the pages a delete frees ("deletes that
  // delete"): FAST left freed pages as they were, and an erased user's text was readable in them.
  db.run("PRAGMA secure_delete = ON");
  db.run("PRAGMA temp_store = MEMORY");
  db.run(`PRAGMA mmap_size = ${MMAP_BYTES}`); // a memory store has no file to map: SQLite ignores it
  db.run(`PRAGMA cache_size = -${Math.round((opts.cacheMb ?? PAGE_CACHE_MB.alone) * 1024)}`);
  support.set(db, await loadVec(db, opts.nativeCacheDir, opts.vectorIndex ?? "auto"));
  return db;
}

const support = new WeakMap<Db, VectorSupport>();

/** Which vector index this connection can serve, and why (set when it was opened). */
export const vectorSupport = (db: Db): VectorSupport =>
  support.get(db) ?? { index: "portable", why: "not opened by openDb" };

async function loadVec(db: Db, cacheDir: string, choice: VectorIndexChoice): Promise<VectorSupport> {
  if (choice === "portable") return { index: "portable", why: "chosen; sqlite-vec is not loaded" };
  try {
    db.loadExtension(await vecFile(cacheDir), "sqlite3_vec_init");
    return { index: "sqlite-vec", version: db.query<{ v: string }, []>("SELECT vec_version() AS v").get()!.v };
  } catch (e) {
    const why = `could not load the sqlite-vec extension (${(e as Error).message})`;
    if (choice === "auto") return { index: "portable", why };
    throw new Error(
      `${why}; reinstall with 'bun install', use the release binary, or set ENGRAM_VECTOR_INDEX=portable`,
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

let library: SqliteLibrary | undefined;

/**
 * Once per thread, before its first connection: on macOS, Bun's SQLite is Apple's, which cannot load
 * extensions; a library named by ENGRAM_SQLITE_LIB, else Homebrew's, replaces it when present. Elsewhere
 * Bun's SQLite is built in and loads extensions (Bun ignores a custom library there).
 */
export function useSqliteLibrary(setting: string | undefined): SqliteLibrary {
  if (library) return library;
  const candidates = sqliteLibraryCandidates(process.platform, setting);
  for (const path of candidates.filter((p) => existsSync(p))) {
    try {
      if (Database.setCustomSQLite(path)) return (library = { path, note: setting ? "ENGRAM_SQLITE_LIB" : "Homebrew" });
    } catch (e) {
      // Already loaded on this thread (a search worker after the server's thread): the first choice stands.
      return (library = { path, note: (e as Error).message });
    }
  }
  const note =
    process.platform !== "darwin"
      ? `built into Bun${setting ? "; ENGRAM_SQLITE_LIB is only used on macOS" : ""}`
      : setting
        ? `ENGRAM_SQLITE_LIB ${setting} was not found: Apple's, which cannot load extensions`
        : "Apple's, which cannot load extensions (brew install sqlite, or set ENGRAM_SQLITE_LIB)";
  return (library = { path: null, note });
}

/**
 * What a connection opened with these options gets (`engram doctor`): SQLite's version and library,
 * whether it loads extensions, and the vector index — found with a throwaway in-memory connection.
 */
export async function probeSqlite(
  opts: OpenOptions,
): Promise<ReturnType<typeof sqliteInfo> & { vectors: VectorSupport }> {
  const db = await openDb(":memory:", opts);
  try {
    return { ...sqliteInfo(db), vectors: vectorSupport(db) };
  } finally {
    db.close();
  }
}

/** SQLite's version, which library it is, and whether this build can load extensions at all. */
export function sqliteInfo(db: Db): { version: string; library: SqliteLibrary; extensionLoading: boolean } {
  const q = db.query<{ v: string; omit: number }, []>(
    "SELECT sqlite_version() AS v, sqlite_compileoption_used('OMIT_LOAD_EXTENSION') AS omit",
  );
  const r = q.get()!;
  return { version: r.v, library: library ?? { path: null, note: "not chosen yet" }, extensionLoading: r.omit === 0 };
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
