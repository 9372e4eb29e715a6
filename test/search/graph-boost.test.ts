// Graph boost: names in the query are matched against the user's entities, and memories that mention
// them gain a small bonus in hybrid ranking — scoped by user, inside the search's filter, index kept fresh.
import { afterEach, describe, expect, test } from "bun:test";
import { buildNameIndex, GraphBoost, MAX_MENTIONS, nameKey, namedEntities } from "~/search/graph-boost";
import { buildTestApp, type TestApp } from "../support/app";
import { builtinEmbedder } from "../support/embedders";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("name matching (pure)", () => {
  const index = buildNameIndex([
    [1, "door dash"],
    [2, "paris"],
    [3, "go"],
    [4, "paris"],
    [6, "the"],
    [7, "c++"],
  ]);

  test("keys are lower-case words; stopwords and one-letter names are left out", () => {
    expect(nameKey("Counter-Strike: GO")).toBe("counter strike go");
    expect([...index.byKey.keys()].sort()).toEqual(["door dash", "go", "paris"]);
    expect(index.maxWords).toBe(2);
  });

  test("finds one- and multi-word names, every entity sharing a name", () => {
    expect(namedEntities("When did Gina lose her job at Door Dash?", index)).toEqual([1]);
    expect(namedEntities("When was Jon in Paris?", index).sort()).toEqual([2, 4]);
  });

  test("a name must be capitalised in a cased query, but a query typed in lower case matches any case", () => {
    expect(namedEntities("When did Jon start to go to the gym?", index)).toEqual([]);
    expect(namedEntities("Does Jon write Go?", index)).toEqual([3]);
    expect(namedEntities("when was jon in paris", index).sort()).toEqual([2, 4]);
  });
});

/** A hybrid server with the built-in model; `boost` = SearchService.graphBoost. */
async function hybridApp(boost: number): Promise<TestApp> {
  const app = await buildTestApp({ embedder: builtinEmbedder() });
  app.services.search.graphBoost = boost;
  return app;
}

const add = (app: TestApp, memory: string, extra: Record<string, unknown> = {}) =>
  app.post("/add_memories", { user_id: "u", memory, ...extra });
const memoriesFor = async (app: TestApp, query: string, extra: Record<string, unknown> = {}) =>
  (await app.post("/search_memory", { user_id: "u", query, ...extra })).body.results.map(
    (r: { memory: string }) => r.memory,
  );

// "Initech" is an entity of u's graph only through the first memory ("I work at Initech" has a cue);
// the second says the name twice, so BM25 prefers it, but the extractor links nothing from it.
const LINKED = "I work at Initech as a tester.";
const UNLINKED = "Initech parking is full again, Initech should fix it";

describe("graph boost in hybrid search (HTTP)", () => {
  test("a memory linked to an entity the query names ranks higher with the boost than without", async () => {
    for (const [boost, first] of [
      [0, UNLINKED],
      [0.25, LINKED],
    ] as const) {
      t = await hybridApp(boost);
      await add(t, LINKED);
      await add(t, UNLINKED);
      await add(t, "The cafeteria serves soup on Fridays");
      expect((await memoriesFor(t, "What about Initech?"))[0]).toBe(first);
      await t.close();
      t = undefined;
    }
  });

  test("boosted memories stay inside the user and the search's filters", async () => {
    t = await hybridApp(1);
    await add(t, LINKED, { agent_id: "a1" });
    await t.post("/add_memories", { user_id: "v", memory: "I work at Initech too." });
    await add(t, "Lunch was good");
    expect(await memoriesFor(t, "Initech", { agent_id: "a2" })).toEqual([]);
    const ranked = await memoriesFor(t, "Initech");
    expect(ranked[0]).toBe(LINKED);
    expect(ranked).not.toContain("I work at Initech too.");
  });
});

describe("GraphBoost.mentions", () => {
  const filter = (app: TestApp) => ({ userId: "u", sessionId: "", now: app.clock.now() });

  test("sees entities written after its name index was built (the index is rebuilt on any entity change)", async () => {
    t = await buildTestApp();
    const boost = new GraphBoost(t.services.db);
    expect(boost.mentions(filter(t), "Lisbon").size).toBe(0);
    await add(t, "We moved to Lisbon last year.");
    expect([...boost.mentions(filter(t), "Lisbon").values()]).toEqual([1]);
    await t.post("/graph/entities", { user_id: "u", entities: [{ type: "place", id: "lisbon", name: "Lisboa" }] });
    expect(boost.mentions(filter(t), "Lisbon").size).toBe(0);
    expect(boost.mentions(filter(t), "Lisboa").size).toBe(1);
  });

  test('a named entity no visible memory mentions (the user\'s own "User") does not dilute the shares', async () => {
    t = await buildTestApp();
    await add(t, "I work at Initech.");
    const boost = new GraphBoost(t.services.db);
    expect(boost.index("u").byKey.has("user")).toBe(true);
    expect([...boost.mentions(filter(t), "Does the User like Initech?").values()]).toEqual([1]);
  });

  test("each memory's share is the fraction of the named entities it mentions", async () => {
    t = await buildTestApp();
    await add(t, "We moved to Lisbon last year.");
    await add(t, "I work at Initech in Lisbon.");
    const shares = [...new GraphBoost(t.services.db).mentions(filter(t), "Initech and Lisbon").values()].sort();
    expect(shares).toEqual([0.5, 1]);
  });

  test("an entity with more than MAX_MENTIONS visible mention links boosts nothing", async () => {
    t = await buildTestApp();
    await add(t, "We moved to Lisbon last year.");
    const db = t.services.db;
    const node = db.query<{ node: number }, []>("SELECT node FROM graph_entities WHERE id = 'lisbon'").get()!.node;
    db.transaction(() => {
      for (let i = 0; i < MAX_MENTIONS; i++) {
        db.run(
          "INSERT INTO memories (id, user_id, agent_id, memory, created_at, updated_at) VALUES (?, 'u', 'mcp-agent', 'x', 0, 0)",
          [`m${i}`],
        );
        db.run("INSERT INTO graph_mentions (user_id, memory_id, node) VALUES ('u', ?, ?)", [`m${i}`, node]);
      }
    })();
    expect(new GraphBoost(db).mentions(filter(t), "Lisbon").size).toBe(0);
  });
});
