// Known answers for absolute scores, typo tolerance and words that carry no meaning (SPEC §2.3, §4), with
// the real built-in model through the HTTP API, over personas of the held-out paraphrase set.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { relevance } from "~/search/relevance";
import { focusQuery } from "~/search/query-focus";
import { goldOf, HALVES, type Persona } from "./fixtures/personas";
import { tom } from "./fixtures/personas/tom";
import { buildTestApp, type TestApp } from "../support/app";
import { builtinEmbedder } from "../support/embedders";

const REPORT = HALVES.report;
const hannah = REPORT.find((p) => p.id === "hannah")!;
let hybrid: TestApp;
let keywordOnly: TestApp;

async function store(app: TestApp, p: Persona): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (const [key, memory] of Object.entries(p.memories)) {
    const { body } = await app.post("/add_memories", { user_id: p.id, memory });
    keys.set(body.memory_ids[0], key);
  }
  return keys;
}

const keysOf = new Map<TestApp, Map<string, string>>();
beforeAll(async () => {
  hybrid = await buildTestApp({ embedder: builtinEmbedder() });
  keywordOnly = await buildTestApp();
  for (const app of [hybrid, keywordOnly]) {
    const keys = new Map<string, string>();
    for (const p of [...REPORT, tom]) for (const [id, key] of await store(app, p)) keys.set(id, key);
    keysOf.set(app, keys);
  }
});
afterAll(async () => {
  await hybrid.close();
  await keywordOnly.close();
});

async function search(app: TestApp, user: string, query: string, extra: Record<string, unknown> = {}) {
  const res = await app.post("/search_memory", { user_id: user, query, limit: 5, ...extra });
  expect(res.status).toBe(200);
  return res.body.results as { id: string; memory: string; score: number; score_details?: any }[];
}
const keys = (app: TestApp, results: { id: string }[]) => results.map((r) => keysOf.get(app)!.get(r.id));

describe("scores are absolute", () => {
  test("a clear match scores near 1 and an unrelated question near 0: the best result is not forced to 1", async () => {
    const clear = await search(hybrid, "hannah", "who is my maid of honor");
    expect(keys(hybrid, clear)[0]).toBe("tasha");
    expect(clear[0]!.score).toBeGreaterThan(0.9);
    const unrelated = await search(hybrid, "hannah", "what is the weather in Tokyo");
    expect(unrelated.length).toBeGreaterThan(0);
    expect(unrelated[0]!.score).toBeLessThan(0.1);
  });

  test("min_score drops the weaker results and keeps the order of the rest", async () => {
    const all = await search(hybrid, "hannah", "who is my maid of honor");
    const kept = await search(hybrid, "hannah", "who is my maid of honor", { min_score: 0.5 });
    expect(kept).toEqual(all.filter((r) => r.score >= 0.5));
    expect(kept.length).toBeGreaterThan(0);
    expect(await search(hybrid, "hannah", "what is the weather in Tokyo", { min_score: 0.15 })).toEqual([]);
  });

  test("explain shows the raw cosine and the keyword share the score was computed from", async () => {
    const [top] = await search(hybrid, "hannah", "who is my maid of honor", { explain: true });
    const embedder = builtinEmbedder();
    // The query is embedded without the words common to the user's memories ("my": query-focus.ts).
    const embedded = focusQuery("who is my maid of honor", Object.values(hannah.memories));
    const [q, m] = (await embedder.embed([embedded, hannah.memories.tasha!])) as Float32Array[];
    await embedder.close();
    const cosine = q!.reduce((s, x, i) => s + x * m![i]!, 0);
    expect(top!.score_details.keyword).toBe(1); // "maid" and "honor": both there
    expect(top!.score_details.semantic).toBeCloseTo(cosine, 5);
    expect(top!.score).toBe(relevance(top!.score_details.semantic, 1));
    expect(Object.keys((await search(hybrid, "hannah", "who is my maid of honor"))[0]!)).not.toContain("score_details");
  });

  test("a keyword-only server scores by the keyword share alone", async () => {
    const [top] = await search(keywordOnly, "hannah", "who is my maid of honor", { explain: true });
    expect(top!.score_details).toEqual({ semantic: null, keyword: 1 });
    expect(top!.score).toBe(relevance(null, 1));
  });
});

describe("typos", () => {
  for (const p of REPORT)
    for (const [question, gold] of p.typos)
      test(`"${question}" finds ${p.id}'s ${goldOf(gold).join(" or ")} memory first, with and without vectors`, async () => {
        for (const app of [hybrid, keywordOnly])
          expect(goldOf(gold)).toContain(keys(app, await search(app, p.id, question))[0]!);
      });

  test("a real word the user never used is not taken for a typo of one they did", async () => {
    // "cake" is one edit from "came", "lake", "bake"…: a known word, so only memories with "cake" match.
    expect(keys(keywordOnly, await search(keywordOnly, "hannah", "cake"))).toEqual(["cake"]);
    expect(await search(keywordOnly, "hannah", "lake")).toEqual([]);
  });
});

describe("words that carry no meaning", () => {
  test("the s of what's and the t of can't match nothing", async () => {
    // Possessives ("Chris's", "Colorado's") are indexed with a bare "s": it once matched every one of them.
    expect(await search(keywordOnly, "hannah", "what's up?")).toEqual([]);
    expect(await search(keywordOnly, "hannah", "can't won't")).toEqual([]);
  });

  test("never outvote the vectors: what's wrong with my pickup finds the truck", async () => {
    expect(keys(hybrid, await search(hybrid, "tom", "what's wrong with my pickup"))[0]).toBe("truck");
  });
});
