// Stores for tests: a fresh migrated SQLite store, and the connection under an engine's store for
// tests that read the file's tables themselves (never reachable from src outside store/).
import { openSqliteStore, type SqliteStore } from "~/store/sqlite/sqlite-store";
import type { Db } from "~/store/sqlite/connection";
import type { Store } from "~/store/store";
import { silentLogger } from "~/shared/logger";

export const NATIVE_CACHE = "/tmp/engram-test-native";
/** ENGRAM_ORG_ID's default: the organization of every test store and app that names none. */
export const HOME_ORG = "default";

/** A fresh, migrated store (":memory:" unless a path is given). */
export const openTestStore = (path = ":memory:", nativeCacheDir = NATIVE_CACHE): Promise<SqliteStore> =>
  openSqliteStore({ path, nativeCacheDir, homeOrg: HOME_ORG, logger: silentLogger() });

/** The SQLite connection under a test app's (or engine's) store. */
export function dbOf(t: { services: { store: Store } } | { store: Store }): Db {
  const store = "services" in t ? t.services.store : t.store;
  return (store as SqliteStore).db;
}

/** Every statement the connection prepares from now on, in order of first use (db.query is wrapped). */
export function recordStatements(db: Db): Set<string> {
  const statements = new Set<string>();
  const query = db.query.bind(db);
  db.query = ((sql: string) => (statements.add(sql), query(sql))) as typeof db.query;
  return statements;
}

/**
 * SQLite's plan of a statement, one line per step (EXPLAIN QUERY PLAN's detail column). The statement is
 * finalized at once: an explained write left open holds the connection "in progress" for the next SAVEPOINT.
 */
export function queryPlan(db: Db, sql: string): string[] {
  const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  try {
    return (explain.all() as { detail: string }[]).map((p) => p.detail);
  } finally {
    explain.finalize();
  }
}

/**
 * Rows of a test's own SQL on the store under a test app, on either engine (`?` placeholders): SQLite
 * through its connection, PostgreSQL through the harness's superuser in the store's schema (row-level
 * security does not hide rows from it). Counts come back as numbers and booleans as 0/1, as SQLite answers.
 */
export async function rowsOf<T = Record<string, unknown>>(
  t: { services: { store: Store } },
  sql: string,
  params: (string | number | null)[] = [],
): Promise<T[]> {
  const store = t.services.store;
  if (store.kind === "sqlite")
    return dbOf(t)
      .query(sql)
      .all(...params) as T[];
  const { testPostgres } = await import("./postgres");
  const { admin } = await testPostgres();
  const schema = (store as unknown as { target: { schema: string } }).target.schema;
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  const rows: Record<string, unknown>[] = await admin.begin(async (tx) => {
    await tx.unsafe(`SET LOCAL search_path TO "${schema}", public`);
    return tx.unsafe(text, params);
  });
  return rows.map((r) => sqliteShaped(r) as T);
}

const sqliteShaped = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      typeof v === "boolean" ? Number(v) : typeof v === "string" && /^count|^n$/.test(k) ? Number(v) : v,
    ]),
  );

/**
 * Asks `ask` twice while the test holds the store's exclusive run of `name` (scheduled work: enforcement,
 * session sweeps), so neither request can run before the other has asked; `settled` (a read of the
 * store's) runs before the turn is released. Both answers, in order.
 */
export async function askedTwiceAtOnce<T>(
  store: Store,
  name: string,
  ask: () => Promise<T>,
  settled: () => Promise<unknown>,
): Promise<T[]> {
  let release!: () => void;
  let holding!: () => void;
  const holds = new Promise<void>((r) => (holding = r));
  const held = store.exclusive(name, () => {
    holding();
    return new Promise<void>((r) => (release = r));
  });
  await holds;
  const asked = [ask(), ask()];
  await settled();
  release();
  await held;
  return Promise.all(asked);
}

/**
 * The store's write transactions (write and group) from now on, in order: each commits (grouped ones may
 * share a commit), and a commit makes every other connection to a SQLite file drop its page cache.
 */
export function countWrites(store: Store): string[] {
  const calls: string[] = [];
  const { write, group } = store;
  // PostgreSQL's group is its write: the write it calls at once is the same transaction.
  let inGroup = false;
  store.write = ((fn, scope) => (inGroup || calls.push("write"), write.call(store, fn, scope))) as Store["write"];
  store.group = ((fn, scope) => {
    calls.push("group");
    inGroup = true;
    try {
      return group.call(store, fn, scope);
    } finally {
      inGroup = false;
    }
  }) as Store["group"];
  return calls;
}
