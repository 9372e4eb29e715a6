// The SQLite store's per-user memory counts (kept by triggers) through every route that adds or deletes;
// what both engines answer for keyword evidence is in test/store/term-evidence.contract.ts.
import { afterEach, describe, expect, test } from "bun:test";
import { owner } from "../../support/memory-rows";
import { buildTestApp, type TestApp } from "../../support/app";
import { dbOf } from "../../support/store";
import { EVERY_ROW } from "~/shared/store-scope";

let t: TestApp;
afterEach(() => t.close());

async function add(user: string, memory: string, extra: Record<string, unknown> = {}): Promise<number> {
  const { body } = await t.post("/add_memories", { user_id: user, memory, ...extra });
  return dbOf(t).query<{ rowid: number }, [string]>("SELECT rowid FROM memories WHERE id = ?").get(body.memory_ids[0])!
    .rowid;
}
const read = <T>(fn: (r: any) => Promise<T>): Promise<T> => t.services.store.read(fn, EVERY_ROW);

describe("memory counts in SQLite", () => {
  test("counts each user's memories through adds, deletes and delete_all", async () => {
    t = await buildTestApp();
    await add("u", "one");
    const two = await add("u", "two");
    await add("v", "three");
    const count = async (u: string) => ((await read((r) => r.search.termDocs(owner(u), []))) as { docs: number }).docs;
    expect([await count("u"), await count("v")]).toEqual([2, 1]);
    const id = dbOf(t).query<{ id: string }, [number]>("SELECT id FROM memories WHERE rowid = ?").get(two)!.id;
    expect((await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`)).status).toBe(200);
    expect(await count("u")).toBe(1);
    await t.post("/delete_all_memories", { user_id: "u" });
    expect(await count("u")).toBe(0);
    // The user's row goes with the last memory: no trace of the user id is kept for the count.
    expect(dbOf(t).query("SELECT user_id FROM memory_counts").all()).toEqual([{ user_id: "v" }]);
  });
});
