// Store.externalVersion on SQLite: another process's commit shows from the next turn of the event loop
// (a request sent after that commit is read in a later turn), another store's of this process at once.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Db, openDb } from "~/store/sqlite/connection";
import type { SqliteStore } from "~/store/sqlite/sqlite-store";
import { NATIVE_CACHE, openTestStore } from "../../support/store";

const dir = mkdtempSync(join(tmpdir(), "engram-external-version-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A store and a second connection on its file, as another process holds it; both closed after `fn`. */
async function withOtherProcess(name: string, fn: (store: SqliteStore, otherProcess: Db) => Promise<void>) {
  const file = join(dir, name);
  const store = await openTestStore(file);
  const otherProcess = await openDb(file, { nativeCacheDir: NATIVE_CACHE });
  try {
    await fn(store, otherProcess);
  } finally {
    otherProcess.close();
    await store.close();
  }
}

test("a commit by another connection (another process) changes the version from the next turn on", () =>
  withOtherProcess("a.db", async (store, otherProcess) => {
    const before = store.externalVersion();
    await nextTurn();
    expect(store.externalVersion()).toBe(before);
    otherProcess.run("INSERT INTO memory_spaces (id, organization_id, created_at) VALUES ('s', 'o', 0)");
    await nextTurn();
    expect(store.externalVersion()).not.toBe(before);
  }));

test("a commit through another store of this process changes the version at once", async () => {
  const file = join(dir, "b.db");
  const [mine, other] = [await openTestStore(file), await openTestStore(file)];
  try {
    const before = mine.externalVersion();
    await other.write((tx) => tx.governance.registerSpace("o", "s", 0));
    const afterWrite = mine.externalVersion();
    await other.group((tx) => tx.governance.registerSpace("o", "t", 0));
    expect([afterWrite === before, mine.externalVersion() === afterWrite]).toEqual([false, false]);
  } finally {
    await Promise.all([mine.close(), other.close()]);
  }
});

test("this store's own commits leave the version as it was", async () => {
  const store = await openTestStore(join(dir, "c.db"));
  try {
    const before = store.externalVersion();
    await store.write((tx) => tx.governance.registerSpace("o", "s", 0));
    await nextTurn();
    expect(store.externalVersion()).toBe(before);
  } finally {
    await store.close();
  }
});

test("the turn's first read sees another connection's earlier commit, and the version it notes says so", () =>
  withOtherProcess("d.db", async (store, otherProcess) => {
    const before = store.externalVersion();
    otherProcess.run("INSERT INTO memory_spaces (id, organization_id, created_at) VALUES ('s', 'o', 0)");
    await nextTurn();
    const spaces = await store.read((r) => r.governance.spaces("o"));
    const noted = store.externalVersion();
    otherProcess.run("INSERT INTO memory_spaces (id, organization_id, created_at) VALUES ('t', 'o', 0)");
    expect([spaces, noted === before, store.externalVersion() === noted]).toEqual([["s"], false, true]);
    await nextTurn();
    expect(store.externalVersion()).not.toBe(noted);
  }));

test("a read that awaits holds no transaction open while it waits", async () => {
  const store = await openTestStore(join(dir, "e.db"));
  try {
    await nextTurn();
    const held = await store.read(async (r) => {
      await r.governance.spaces("o");
      await nextTurn();
      return store.db.inTransaction;
    });
    expect(held).toBe(false);
  } finally {
    await store.close();
  }
});
