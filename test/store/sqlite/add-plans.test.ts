// What an add costs the store: the duplicate check of SPEC §11 is one lookup of the scope's text key, and
// the index it reads is the one the per-user counts read whole, so each new memory adds one entry to it
// rather than one to each of two indexes (every index entry is a page written on a busy store). A new
// row's keyword and vector entries are written without first deleting entries of its rowid: rowids are
// never reused, so there are none (each such delete still searches the index for the rowid).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../../support/app";
import { LetterEmbedder } from "../../support/embedders";
import { dbOf, queryPlan, recordStatements } from "../../support/store";

let t: TestApp;
let statements: Set<string>;

beforeAll(async () => {
  t = await buildTestApp({ embedder: new LetterEmbedder() });
  await t.post("/add_memories", { user_id: "u", agent_id: "chat", memory: "I keep bees on the roof" });
  statements = recordStatements(dbOf(t));
});
afterAll(() => t.close());

const plan = (sql: string) => queryPlan(dbOf(t), sql);

const memoryIndexes = () =>
  dbOf(t)
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memories' AND sql IS NOT NULL ORDER BY name",
    )
    .all()
    .map((r) => r.name);

describe("the add path's plans", () => {
  test("the duplicate check finds the scope's text key through one index, with no walk of the user's memories", async () => {
    statements.clear();
    const res = await t.post("/add_memories", { user_id: "u", agent_id: "chat", memory: "I keep bees on the roof!" });
    expect(res.body.deduplicated).toHaveLength(1);
    const check = [...statements].filter((s) => s.includes("text_key = ?") && s.startsWith("SELECT"));
    expect(check).toHaveLength(1);
    expect(plan(check[0]!)).toEqual([
      "SEARCH memories USING INDEX memories_by_scope (org_id=? AND user_id=? AND agent_id=? AND session_id=? AND text_key=?)",
    ]);
  });

  test("a new memory's keyword and vector entries are inserted with no delete of its rowid first, and no owner insert for a known user", async () => {
    await t.post("/add_memories", { user_id: "v", agent_id: "chat", memory: "I keep hens" });
    statements.clear();
    const res = await t.post("/add_memories", { user_id: "v", agent_id: "chat", memory: "I water the bees at dawn" });
    expect(res.status).toBe(200);
    const written = [...statements].filter((s) => /^(INSERT|DELETE|UPDATE)/.test(s.trim()));
    expect(written.filter((s) => s.startsWith("DELETE"))).toEqual([]);
    expect(written.filter((s) => s.includes("fts_owners"))).toEqual([]);
    expect(written.filter((s) => s.startsWith("INSERT INTO memories_fts"))).toHaveLength(1);
    expect(written.filter((s) => /^INSERT INTO vec_\w+ \(rowid/.test(s))).toHaveLength(1);
    const found = await t.post("/search_memory", { user_id: "v", query: "water bees dawn" });
    expect(found.body.results[0].memory).toBe("I water the bees at dawn");
  });

  test("an update replaces the memory's keyword and vector entries: the old words no longer find it", async () => {
    const id = (await t.post("/add_memories", { user_id: "w", agent_id: "chat", memory: "I paint old ships" })).body
      .memory_ids[0];
    statements.clear();
    const res = await t.post("/update_memory", { user_id: "w", memory_id: id, memory: "I carve wooden birds" });
    expect(res.status).toBe(200);
    expect([...statements].filter((s) => s.startsWith("DELETE FROM memories_fts"))).toHaveLength(1);
    expect([...statements].filter((s) => /^DELETE FROM vec_\w+ WHERE rowid/.test(s))).toHaveLength(1);
    const old = await t.post("/search_memory", { user_id: "w", query: "paint ships", min_score: 0.01 });
    expect(old.body.results.map((r: { memory: string }) => r.memory)).not.toContain("I paint old ships");
  });

  test("a list's total is counted from that same index alone, with or without an agent", async () => {
    for (const path of ["/list_memories?user_id=u", "/list_memories?user_id=u&agent_id=chat"]) {
      statements.clear();
      const res = await t.request("GET", path);
      expect(res.body.total).toBe(1);
      const count = [...statements].filter((s) => s.includes("count(*) AS n, min(expires_at)"));
      expect(count).toHaveLength(1);
      expect(plan(count[0]!)[0]).toStartWith(
        "SEARCH memories USING COVERING INDEX memories_by_scope (org_id=? AND user_id=?",
      );
    }
  });

  test("memories have one index per way they are read, and no second index by user and text key", () => {
    expect(memoryIndexes()).toEqual([
      "memories_by_agent",
      "memories_by_scope",
      "memories_by_successor",
      "memories_by_user",
      "memories_superseded_of_user",
    ]);
  });
});

describe("the list path's page", () => {
  const pageOf = () => [...statements].filter((s) => s.includes("ORDER BY created_at DESC, rowid DESC LIMIT +?"));

  test("a listing of current memories reads no superseded_by column (null in every row it can show), and still shows what each supersedes", async () => {
    await t.post("/add_memories", { user_id: "s", memory: "I live in Berlin" });
    const lisbon = (await t.post("/add_memories", { user_id: "s", memory: "I moved to Lisbon" })).body.memory_ids[0];
    statements.clear();
    const res = await t.get("/list_memories?user_id=s");
    expect(res.body.results.map((r: { memory: string }) => r.memory)).toEqual(["I moved to Lisbon"]);
    expect(res.body.results[0].supersedes).toHaveLength(1);
    expect(pageOf()).toHaveLength(1);
    expect(pageOf()[0]).not.toContain("superseded_by,");
    expect(pageOf()[0]).not.toMatch(/has_facts, superseded_by/);

    statements.clear();
    const all = await t.get("/list_memories?user_id=s&include_superseded=true");
    expect(
      all.body.results.map((r: { memory: string; superseded_by?: string }) => [r.memory, r.superseded_by]),
    ).toEqual([
      ["I moved to Lisbon", undefined],
      ["I live in Berlin", lisbon],
    ]);
    expect(pageOf()[0]).toMatch(/has_facts, superseded_by FROM memories/);
  });
});
