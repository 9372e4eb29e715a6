import { afterAll, describe, expect, test } from "bun:test";
import { toFtsQueries } from "~/store/sqlite/fts-query";
import { buildTestApp } from "../../support/app";

describe("toFtsQueries", () => {
  test("quotes each term and ORs them", () => {
    expect(toFtsQueries("Dark roast coffee")).toEqual(['"dark" OR "roast" OR "coffee"']);
  });

  test("drops stopwords; a query made only of them is a phrase in its order first, then its words OR-ed", () => {
    expect(toFtsQueries("what is the plan")).toEqual(['"plan"']);
    expect(toFtsQueries("who is it")).toEqual(['"who" + "is" + "it"', '"who" OR "is" OR "it"']);
    expect(toFtsQueries("It is, is it?", "u0000001")).toEqual([
      '"u0000001it" + "u0000001is" + "u0000001is" + "u0000001it"',
      '"u0000001it" OR "u0000001is"',
    ]);
    expect(toFtsQueries("it it")).toEqual(['"it" + "it"', '"it"']);
    expect(toFtsQueries("it")).toEqual(['"it"']);
  });

  test("tries no phrase when a word was left out for its length: its neighbours were not adjacent", () => {
    expect(toFtsQueries(`who is ${"x".repeat(65)} it`)).toEqual(['"who" OR "is" OR "it"']);
  });

  test("reduces operators, quotes and punctuation to plain terms", () => {
    expect(toFtsQueries('a NEAR(b c) "d* AND e" OR -f ^g col:h')).toEqual([
      '"near" OR "b" OR "c" OR "d" OR "e" OR "f" OR "g" OR "col" OR "h"',
    ]);
  });

  test("answers nothing to try for text without a searchable term", () => {
    for (const q of ["", "   ", '"*"', "()", "\u0000\u0000", "-- ;"]) expect(toFtsQueries(q)).toEqual([]);
  });

  test("keeps non-Latin letters and digits", () => {
    expect(toFtsQueries("café 東京 2024")).toEqual(['"café" OR "東京" OR "2024"']);
  });
});

describe("hostile search strings", () => {
  const t = buildTestApp();
  afterAll(async () => (await t).close());
  const hostile = [
    '"',
    '""',
    "'",
    "*",
    "a*",
    "NEAR",
    "NEAR(a b, 3)",
    "(",
    ")",
    "((a)",
    "a AND",
    "OR OR OR",
    "NOT a",
    "a:b",
    "memory:x",
    "^a",
    "-a",
    "+a",
    "{a b}",
    "[a]",
    "a\u0000b",
    "\u0000",
    "x".repeat(5000),
    "🙂🙂",
    "%",
    "\\",
    "'; DROP TABLE memories; --",
  ];
  test("never raise and still find memories by their plain words", async () => {
    const app = await t;
    await app.post("/add_memories", { user_id: "u", memory: "the memory table has a NEAR operator and stars" });
    for (const q of hostile) {
      const r = await app.post("/search_memory", { user_id: "u", query: q });
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body.results)).toBe(true);
    }
    const hit = await app.post("/search_memory", { user_id: "u", query: 'NEAR("operator" *' });
    expect(hit.body.results).toHaveLength(1);
  });
});
