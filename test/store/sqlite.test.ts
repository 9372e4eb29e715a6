import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, type Db } from "~/store/sqlite";

const native = "/tmp/engram-test-native";
const open: Db[] = [];
const dirs: string[] = [];

async function connect(path: string): Promise<Db> {
  const db = await openDb(path, { nativeCacheDir: native });
  open.push(db);
  return db;
}

afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("openDb", () => {
  test("reads a file store through a memory map of SQLite's largest size; a memory store has none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "engram-sqlite-"));
    dirs.push(dir);
    const file = await connect(join(dir, "store.db"));
    const memory = await connect(":memory:");
    expect(file.query("PRAGMA mmap_size").get()).toEqual({ mmap_size: 0x7fff0000 });
    expect(memory.query("PRAGMA mmap_size").get()).toBeNull(); // SQLite answers no row: nothing to map
  });

  test("a reader on its own connection sees every row another connection committed, as the file grows under its map", async () => {
    const dir = mkdtempSync(join(tmpdir(), "engram-sqlite-"));
    dirs.push(dir);
    const path = join(dir, "store.db");
    const writer = await connect(path);
    const reader = await connect(path);
    writer.run("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB NOT NULL)");
    const insert = writer.query("INSERT INTO t (body) VALUES (?)");
    const count = reader.query<{ n: number; bytes: number }, []>("SELECT count(*) AS n, coalesce(sum(length(body)), 0) AS bytes FROM t");
    expect(count.get()).toEqual({ n: 0, bytes: 0 });
    for (let round = 1; round <= 3; round++) {
      writer.transaction(() => {
        for (let i = 0; i < 100; i++) insert.run(new Uint8Array(10_000).fill(round));
      })();
      // Checkpointed into the main file, so the reader reads these pages through the map, not the WAL.
      writer.run("PRAGMA wal_checkpoint(TRUNCATE)");
      expect(count.get()).toEqual({ n: 100 * round, bytes: 1_000_000 * round });
    }
    expect(reader.query("SELECT DISTINCT hex(substr(body, 1, 1)) AS b FROM t ORDER BY b").all()).toEqual([{ b: "01" }, { b: "02" }, { b: "03" }]);
  });
});
