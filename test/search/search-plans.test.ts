// A search must cost what its candidates cost, not what the user owns: no statement of a search may
// walk all of a user's memories (reading them newest first until a LIMIT, or one row, is fine: that stops early). The statements are captured from real requests and
// their plans read with EXPLAIN QUERY PLAN, so a rewrite that loses an index shows up here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { builtinEmbedder } from "../support/embedders";
import { dbOf, queryPlan, recordStatements } from "../support/store";

let t: TestApp;
let statements: Set<string>;

beforeAll(async () => {
  t = await buildTestApp({ embedder: builtinEmbedder() });
  const messages = [
    "Where did we have dinner on my birthday?",
    "At the little Thai place by the river",
    "I adopted a puppy named Biscuit",
    "My sister teaches chemistry in Lisbon",
  ];
  await t.post("/add_memories", {
    user_id: "u",
    agent_id: "chat",
    messages: messages.map((content) => ({ role: "user", content })),
  });
  statements = recordStatements(dbOf(t));
});
afterAll(() => t.close());

const plan = (sql: string) => queryPlan(dbOf(t), sql);

/**
 * Plan lines of a statement that visit every memory of the user (or of the user's agent, or every
 * memory): a scan, or an index searched on nothing narrower than user, agent and expiry.
 */
function walks(sql: string): string[] {
  if (/ORDER BY created_at DESC[^)]*LIMIT \+\?$/.test(sql.trim())) return [];
  return plan(sql).filter(
    (d) =>
      // A partial index of the user's superseded memories only: the existence probe reads one entry of it.
      !d.includes("INDEX memories_superseded_of_user ") &&
      (/^SCAN (memories|m|a|n)\b/.test(d) ||
        /USING (COVERING )?INDEX \w+ \((org_id=\? AND )?user_id=\?( AND agent_id=\?)?( AND expires_at>\?)?\)$/.test(d)),
  );
}

/**
 * The statements that read memories by a list of rowids (which candidates are visible, the rows results
 * show): each must look every one up by rowid. Returns how many of them found that plan.
 */
function rowsRead(sqls: string[]): number {
  const rows = sqls.filter((s) => s.includes("CROSS JOIN memories m ON m.rowid = j.value"));
  expect(rows).toHaveLength(2);
  return rows.filter((s) => plan(s).includes("SEARCH m USING INTEGER PRIMARY KEY (rowid=?)")).length;
}

/** The statements (shortened) that walk, with their offending plan lines. */
const walkers = (sqls: string[]) =>
  sqls.map((s) => ({ sql: s.replace(/\s+/g, " ").slice(0, 60), walks: walks(s) })).filter((w) => w.walks.length);

describe("query plans on the read path", () => {
  test("a hybrid search with reply context looks its rows up by rowid", async () => {
    statements.clear();
    const res = await t.post("/search_memory", { user_id: "u", query: "birthday dinner", limit: 5 });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => r.memory)).toContain("At the little Thai place by the river");
    const read = [...statements].filter((s) => /\bmemories\b/.test(s));
    expect(read.filter((s) => s.includes("WITH pair AS"))).toHaveLength(1); // the reply context ran
    expect(rowsRead(read)).toBe(2);
    expect(walkers(read)).toEqual([]);
  });

  test("a search filtered by agent looks its rows up by rowid", async () => {
    statements.clear();
    const res = await t.post("/search_memory", { user_id: "u", agent_id: "chat", query: "puppy", limit: 2 });
    expect(res.body.results[0].memory).toBe("I adopted a puppy named Biscuit");
    const read = [...statements].filter((s) => /\bmemories\b/.test(s));
    expect(rowsRead(read)).toBe(2);
    expect(walkers(read)).toEqual([]);
  });
});
