// GroupCommit: writes ready in the same turn share one transaction; each succeeds or fails alone.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, type Db } from "~/store/sqlite/connection";
import { GroupCommit } from "~/store/sqlite/group-commit";
import { Turns } from "~/store/sqlite/turns";

let dir: string;
let db: Db;
let other: Db;
const native = { nativeCacheDir: "/tmp/engram-test-native" };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-group-"));
  db = await openDb(join(dir, "g.db"), native);
  db.run("CREATE TABLE t (x TEXT NOT NULL UNIQUE)");
  other = await openDb(join(dir, "g.db"), native);
});
afterEach(() => {
  db.close();
  other.close();
});

const insert = (x: string) => async () => db.query("INSERT INTO t (x) VALUES (?) RETURNING x").get(x) as { x: string };
const rows = () =>
  other
    .query<{ x: string }, []>("SELECT x FROM t ORDER BY x")
    .all()
    .map((r) => r.x);

describe("group commit", () => {
  test("writes issued in the same turn commit together, each caller getting its own result", async () => {
    const writes = new GroupCommit(db, new Turns());
    let seenByOthersDuringC: string[] | undefined;
    const results = await Promise.all([
      writes.run(insert("a")),
      writes.run(insert("b")),
      writes.run(async () => {
        seenByOthersDuringC = rows(); // a and b are written but not committed yet
        return insert("c")();
      }),
    ]);
    expect(results).toEqual([{ x: "a" }, { x: "b" }, { x: "c" }]);
    expect(seenByOthersDuringC).toEqual([]);
    expect(rows()).toEqual(["a", "b", "c"]);
  });

  test("a failing write rolls back only its own changes and rejects only its caller", async () => {
    const writes = new GroupCommit(db, new Turns());
    const failing = writes.run(async () => {
      await insert("half-done")();
      await insert("half-done")(); // UNIQUE violation: the first insert of this job must go too
    });
    const [f, a, b] = await Promise.allSettled([failing, writes.run(insert("a")), writes.run(insert("b"))]);
    expect(f.status === "rejected" && String(f.reason)).toMatch(/UNIQUE constraint failed/);
    expect([a, b]).toEqual([
      { status: "fulfilled", value: { x: "a" } },
      { status: "fulfilled", value: { x: "b" } },
    ]);
    expect(rows()).toEqual(["a", "b"]);
  });

  test("answers only after the commit: another connection already sees the write", async () => {
    const writes = new GroupCommit(db, new Turns());
    const seen = await writes.run(insert("z")).then(() => rows());
    expect(seen).toEqual(["z"]);
  });

  test("an error that ends the whole transaction fails every write of the group, and none is half-committed", async () => {
    db.run(
      "CREATE TRIGGER t_abort BEFORE INSERT ON t WHEN NEW.x = 'abort' BEGIN SELECT RAISE(ROLLBACK, 'aborted by trigger'); END",
    );
    const writes = new GroupCommit(db, new Turns());
    const settled = await Promise.allSettled([
      writes.run(insert("a")),
      writes.run(insert("abort")),
      writes.run(insert("c")),
    ]);
    expect(settled.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(settled.map((r) => r.status === "rejected" && String(r.reason))).toEqual(
      Array(3).fill("SQLiteError: aborted by trigger"),
    );
    expect(rows()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    expect(await writes.run(insert("after"))).toEqual({ x: "after" });
  });

  test("a write issued after an earlier one was answered finds it committed", async () => {
    const writes = new GroupCommit(db, new Turns());
    await writes.run(insert("a"));
    expect(await writes.run(async () => rows())).toEqual(["a"]);
  });
});
