import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, type Db } from "~/store/sqlite/connection";

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
  test("reads a file store through a memory map of SQLite's largest size", async () => {
    const dir = mkdtempSync(join(tmpdir(), "engram-sqlite-"));
    dirs.push(dir);
    const file = await connect(join(dir, "store.db"));
    expect(file.query("PRAGMA mmap_size").get()).toEqual({ mmap_size: 0x7fff0000 });
  });

  test("a reader's map follows the file as another connection grows it, then shrinks it with VACUUM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "engram-sqlite-"));
    dirs.push(dir);
    const path = join(dir, "store.db");
    const writer = await connect(path);
    const reader = await connect(path);
    writer.run("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB NOT NULL)");
    const insert = writer.query("INSERT INTO t (body) VALUES (?)");
    const count = reader.query<{ n: number; bytes: number }, []>(
      "SELECT count(*) AS n, coalesce(sum(length(body)), 0) AS bytes FROM t",
    );
    expect(count.get()).toEqual({ n: 0, bytes: 0 });
    for (let round = 1; round <= 3; round++) {
      writer.transaction(() => {
        for (let i = 0; i < 100; i++) insert.run(new Uint8Array(10_000).fill(round));
      })();
      // Checkpointed into the main file, so the reader reads these pages through its map, not the WAL.
      writer.run("PRAGMA wal_checkpoint(TRUNCATE)");
      expect(count.get()).toEqual({ n: 100 * round, bytes: 1_000_000 * round });
    }
    const grown = statSync(path).size;
    writer.run("DELETE FROM t WHERE id > 10");
    writer.run("VACUUM");
    writer.run("PRAGMA wal_checkpoint(TRUNCATE)");
    expect(statSync(path).size).toBeLessThan(grown / 10);
    expect(count.get()).toEqual({ n: 10, bytes: 100_000 });
    expect(reader.query("SELECT DISTINCT hex(substr(body, 1, 1)) AS b FROM t").all()).toEqual([{ b: "01" }]);
  });
});
