// Stores for tests: a fresh migrated SQLite store, and the connection under an engine's store for
// tests that read the file's tables themselves (never reachable from src outside store/).
import { openSqliteStore, type SqliteStore } from "~/store/sqlite/sqlite-store";
import type { Db } from "~/store/sqlite/connection";
import type { Store } from "~/store/store";
import { silentLogger } from "~/shared/logger";

export const NATIVE_CACHE = "/tmp/engram-test-native";

/** A fresh, migrated store (":memory:" unless a path is given). */
export const openTestStore = (path = ":memory:", nativeCacheDir = NATIVE_CACHE): Promise<SqliteStore> =>
  openSqliteStore({ path, nativeCacheDir, logger: silentLogger() });

/** The SQLite connection under a test app's (or engine's) store. */
export function dbOf(t: { services: { store: Store } } | { store: Store }): Db {
  const store = "services" in t ? t.services.store : t.store;
  return (store as SqliteStore).db;
}
