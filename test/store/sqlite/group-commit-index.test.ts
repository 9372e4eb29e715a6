// A group commit writes its jobs' keyword-index entries after the last job (FTS5 would flush a segment
// at every job's savepoint): the kept jobs' memories are found by their words, a rolled-back job's not.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newMemory, owner } from "../../support/memory-rows";
import { openTestStore } from "../../support/store";

const dir = mkdtempSync(join(tmpdir(), "engram-group-index-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a batch's new memories are indexed once its jobs are done, without those of a job that rolled back", async () => {
  const store = await openTestStore(join(dir, "a.db"));
  try {
    const results = await Promise.allSettled([
      store.group((tx) => tx.memories.insert(newMemory("m1", "bees on the roof"))),
      store.group(async (tx) => {
        await tx.memories.insert(newMemory("m2", "bees in the garden"));
        throw new Error("refused");
      }),
      store.group((tx) => tx.memories.insert(newMemory("m3", "bees again"))),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const [r1, r3] = [results[0], results[2]].map((r) => (r as PromiseFulfilledResult<number>).value);
    const found = await store.read((r) => r.search.termDocs(owner("alice"), ["bees", "garden", "roof"]));
    expect(found).toEqual({ docs: 2, rowids: [[r1!, r3!], [], [r1!]] });
  } finally {
    await store.close();
  }
});

test("a memory inserted outside a group commit is indexed at once, inside its write", async () => {
  const store = await openTestStore(join(dir, "b.db"));
  try {
    const seen = await store.write(async (tx) => {
      await tx.memories.insert(newMemory("m1", "bees on the roof"));
      return (await tx.search.termDocs(owner("alice"), ["bees"])).rowids[0]!.length;
    });
    expect(seen).toBe(1);
  } finally {
    await store.close();
  }
});
