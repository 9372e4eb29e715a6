// KeywordIndex's fast path ranks only FTS5's best 2n matches against the visibility filter; when the
// filter hides most of them, the exact query must still find what is visible.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const memories = async (body: Record<string, unknown>) =>
  (await t.post("/search_memory", body)).body.results.map((r: any) => r.memory);

describe("keyword ranking", () => {
  test("finds visible matches even when 120 better matches are hidden by the session filter", async () => {
    for (const half of [0, 60]) {
      const strong = Array.from({ length: 60 }, (_, i) => ({ role: "user", content: `apple apple apple ${half + i}` }));
      expect((await t.post("/add_memories", { user_id: "u", session_id: "s1", messages: strong })).status).toBe(200);
    }
    const weak = [
      "an apple a day keeps the doctor away from the house",
      "she bought an apple pie at the market on saturday",
    ];
    for (const memory of weak) await t.post("/add_memories", { user_id: "u", memory });
    expect((await memories({ user_id: "u", query: "apple", limit: 10 })).sort()).toEqual([...weak].sort());
    expect(await memories({ user_id: "u", query: "apple", limit: 3, session_id: "s1" })).toHaveLength(3);
  });

  test("searches a query of stopwords alone as a phrase first: the memories that say it, not every one sharing a word", async () => {
    const said = ["Who is it at the door?", "I asked who is it, and nobody answered"];
    const others = ["it is late", "who knows what it is", "is it raining"];
    for (const memory of [...said, ...others]) await t.post("/add_memories", { user_id: "u", memory });
    await t.post("/add_memories", { user_id: "v", memory: "who is it" });
    expect((await memories({ user_id: "u", query: "Who is it?" })).sort()).toEqual([...said].sort());
    // No memory says "it who": its words OR-ed answer, so one missing word does not empty the result.
    expect((await memories({ user_id: "u", query: "it who" })).sort()).toEqual([...said, ...others].sort());
  });

  test("falls back to the words OR-ed when every memory holding the phrase is hidden by the filter", async () => {
    await t.post("/add_memories", { user_id: "u", session_id: "s1", memory: "who is it" });
    await t.post("/add_memories", { user_id: "u", memory: "it is what it is" });
    expect(await memories({ user_id: "u", query: "who is it" })).toEqual(["it is what it is"]);
    expect(await memories({ user_id: "u", query: "who is it", session_id: "s1" })).toEqual(["who is it"]);
  });

  test("gives the same head, in BM25 order, whatever the limit", async () => {
    for (const memory of ["pear", "pear pear", "pear pear pear banana", "banana", "a pear and a plum", "plum"])
      await t.post("/add_memories", { user_id: "u", memory });
    const all = await memories({ user_id: "u", query: "pear plum", limit: 10 });
    expect(all).toHaveLength(5);
    for (const limit of [1, 2, 3, 4])
      expect(await memories({ user_id: "u", query: "pear plum", limit })).toEqual(all.slice(0, limit));
  });
});
