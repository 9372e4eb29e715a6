// The vec0 table of a model: how sqlite-vec finds a user's vectors.
import { describe, expect, test } from "bun:test";
import { openDb } from "~/store/sqlite";
import { VectorIndex } from "~/search/vector-index";

const open = () => openDb(":memory:", { nativeCacheDir: "/tmp/engram-test-native" });

describe("vector index", () => {
  test("a user's chunks are found through an index, not by reading every user's chunks", async () => {
    const db = await open();
    const { table } = VectorIndex.forModel(db, "m", 4);
    // The statement sqlite-vec 0.1.9 runs for a KNN inside one partition (its text is in vec0.so).
    const plan = db.query<{ detail: string }, [string]>(`EXPLAIN QUERY PLAN select chunk_id, validity, rowids from "main"."${table}_chunks" WHERE partition00 = ?`).all("u");
    expect(plan.map((p) => p.detail)).toEqual([`SEARCH main.${table}_chunks USING INDEX ${table}_chunks_by_user (partition00=?)`]);
    db.close();
  });
});
