// The acceptance scenario of SPEC §11 with the real built-in model: after "I live in Berlin" … "I moved
// to Lisbon", "where do I live" answers Lisbon first, and Berlin only with include_superseded.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { builtinEmbedder } from "../support/embedders";

let t: TestApp;
const DAY = 86_400_000;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ embedder: builtinEmbedder() });
  const story = [
    "I live in Berlin.",
    "I love hiking in the Alps on long weekends.",
    "My sister lives in Rome and teaches chemistry.",
    "I live for good coffee and long walks.",
    "We are planning a kitchen renovation this spring.",
    "My favourite editor is Vim.",
    "I moved to Lisbon last month.",
    "The new flat has a view of the river.",
  ];
  for (const memory of story) {
    ids[memory] = (await t.post("/add_memories", { user_id: "u", memory })).body.memory_ids[0];
    t.clock.advance(30 * DAY);
  }
});
afterAll(() => t.close());

const search = async (query: string, more: Record<string, unknown> = {}) =>
  (await t.post("/search_memory", { user_id: "u", query, limit: 5, ...more })).body.results as {
    id: string;
    memory: string;
    supersedes?: string[];
    superseded_by?: string;
  }[];

describe("where do I live", () => {
  test("answers Lisbon first, which says it superseded Berlin; Berlin is not among the results", async () => {
    const results = await search("where do I live");
    expect(results[0]!.memory).toBe("I moved to Lisbon last month.");
    expect(results[0]!.supersedes).toEqual([ids["I live in Berlin."]!]);
    expect(results.map((r) => r.memory)).not.toContain("I live in Berlin.");
  });

  test("with include_superseded, Berlin is there too, marked superseded by Lisbon", async () => {
    const results = await search("where do I live", { include_superseded: true });
    const berlin = results.find((r) => r.memory === "I live in Berlin.");
    expect(berlin?.superseded_by).toBe(ids["I moved to Lisbon last month."]);
    expect(results.map((r) => r.memory)).toContain("I moved to Lisbon last month.");
  });

  test("a query in the old memory's words finds the current one (the sister in Rome is another fact)", async () => {
    const results = await search("Berlin");
    expect(results[0]!.memory).toBe("I moved to Lisbon last month.");
  });
});
