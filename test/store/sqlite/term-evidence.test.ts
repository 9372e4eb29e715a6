// What keyword evidence reads from the store: each word's memories in the user's own namespace, the
// user's memory count (kept by triggers), the user's vocabulary for typo corrections, and which
// candidates the visibility filter lets through.
import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../../support/app";
import { dbOf } from "../../support/store";

let t: TestApp;
afterEach(() => t.close());

async function add(user: string, memory: string, extra: Record<string, unknown> = {}): Promise<number> {
  const { body } = await t.post("/add_memories", { user_id: user, memory, ...extra });
  return dbOf(t).query<{ rowid: number }, [string]>("SELECT rowid FROM memories WHERE id = ?").get(body.memory_ids[0])!
    .rowid;
}
const read = <T>(fn: (r: any) => Promise<T>): Promise<T> => t.services.store.read(fn);

describe("term evidence in SQLite", () => {
  test("finds each word's memories of that user only, stemmed as the index stems", async () => {
    t = await buildTestApp();
    const walk = await add("u", "We walked the dog by the river");
    const river = await add("u", "The river flooded in March");
    await add("v", "I walk my dog every day");
    expect(await read((r) => r.search.termDocs("u", ["walking", "river", "absent", 'bad"word']))).toEqual({
      docs: 2,
      rowids: [[walk], [walk, river], [], []],
    });
    expect(await read((r) => r.search.termDocs("nobody", ["walk"]))).toEqual({ docs: 0, rowids: [[]] });
  });

  test("counts each user's memories through adds, deletes and delete_all", async () => {
    t = await buildTestApp();
    await add("u", "one");
    const two = await add("u", "two");
    await add("v", "three");
    const count = async (u: string) => ((await read((r) => r.search.termDocs(u, []))) as { docs: number }).docs;
    expect([await count("u"), await count("v")]).toEqual([2, 1]);
    const id = dbOf(t).query<{ id: string }, [number]>("SELECT id FROM memories WHERE rowid = ?").get(two)!.id;
    expect((await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`)).status).toBe(200);
    expect(await count("u")).toBe(1);
    await t.post("/delete_all_memories", { user_id: "u" });
    expect(await count("u")).toBe(0);
    // The user's row goes with the last memory: no trace of the user id is kept for the count.
    expect(dbOf(t).query("SELECT user_id FROM memory_counts").all()).toEqual([{ user_id: "v" }]);
  });

  test("lists the user's vocabulary by first letters, as index terms, and each term's memories", async () => {
    t = await buildTestApp();
    const a = await add("u", "Penicillin allergy, penicillin again");
    await add("u", "A pencil and a pension");
    await add("v", "penguins");
    // Porter stems of the owner-prefixed tokens: "pension" ends up "pens" (the prefix adds to its measure).
    expect(await read((r) => r.search.vocabulary("u", "pen", 100))).toEqual(["pencil", "penicillin", "pens"]);
    expect(await read((r) => r.search.vocabulary("u", "pen", 2))).toHaveLength(2);
    expect(await read((r) => r.search.vocabulary("u", "x-y", 10))).toEqual([]);
    expect(await read((r) => r.search.indexTermDocs("u", ["penicillin", "allergi", "nothing"]))).toEqual([
      [a],
      [a],
      [],
    ]);
  });

  test("lets through the first n visible candidates in their order", async () => {
    t = await buildTestApp();
    const rows = [];
    for (let i = 0; i < 12; i++) rows.push(await add("u", `memory ${i}`, i % 3 ? {} : { session_id: "s" }));
    const filter = { userId: "u", sessionId: "", now: t.clock.now() };
    const order = [...rows].reverse();
    const shown = order.filter((_, i) => (11 - i) % 3 !== 0);
    expect(await read((r) => r.search.visible(filter, order, 3))).toEqual(shown.slice(0, 3));
    expect(await read((r) => r.search.visible(filter, order, 100))).toEqual(shown);
    expect(await read((r) => r.search.visible({ ...filter, userId: "v" }, order, 5))).toEqual([]);
  });
});
