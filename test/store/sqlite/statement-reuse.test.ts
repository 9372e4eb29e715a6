// A prepared statement must run as prepared. Bun's SQLite (3.54) prepares a statement again at every run when
// its plan may read a bound value: a bare `?` (or `$name`) that is a LIMIT or OFFSET, or that is compared with
// =, IS or IN in a statement with ORDER BY or GROUP BY. Binding a new value expires the plan, so each run paid
// a full prepare (the list page: ~30 → ~19 µs, scripts/bench-bound-values.ts). The store writes those values
// `+?`: the same value, with no affinity of its own as `?` has none, as an expression the planner does not
// read. The plans stay the same (checked below). The statements are captured from real requests over every
// path that reads or writes in bulk.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../../support/app";
import { LetterEmbedder } from "../../support/embedders";
import { dbOf, queryPlan, recordStatements } from "../../support/store";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

let t: TestApp;
let statements: Set<string>;

beforeAll(async () => {
  t = await buildTestApp({ embedder: new LetterEmbedder() });
  statements = recordStatements(dbOf(t));
  const add = (user: string, agent: string, memory: string, metadata = {}) =>
    t.post("/add_memories", { user_id: user, agent_id: agent, memory, metadata });
  for (const [i, memory] of ["I keep bees on the roof", "My sister lives in Lisbon", "I moved to Porto"].entries())
    await add("u", i ? "chat" : "notes", memory, { topic: i ? "family" : "hobby" });
  await t.post("/add_memories", {
    user_id: "u",
    agent_id: "chat",
    messages: [
      { role: "user", content: "I work at the harbour" },
      { role: "user", content: "Actually I work at the museum now" },
    ],
  });
  const id = (await t.get("/list_memories?user_id=u&limit=1")).body.results[0].id;
  const cursor = (await t.get("/list_memories?user_id=u&limit=2")).body.next_cursor;
  await t.get(`/list_memories?user_id=u&limit=2&cursor=${cursor}`);
  await t.get("/list_memories?user_id=u&agent_id=chat&include_superseded=true");
  await t.get(`/get_memory?memory_id=${id}&user_id=u`);
  await t.post("/update_memory", { memory_id: id, user_id: "u", memory: "I moved to Braga" });
  await t.get(`/memory_history?memory_id=${id}&user_id=u`);
  for (const body of [
    { user_id: "u", query: "where do I live" },
    { user_id: "u", query: "bees", agent_id: "notes" },
    { user_id: "u", query: "sister", filters: { topic: "family" } },
    { user_id: "u", query: "work", include_superseded: true },
  ])
    await t.post("/search_memory", body);
  await t.post("/governance/enforce", {});
  await t.get("/governance/audit?limit=5");
  await t.post("/delete_memory", { memory_id: id, user_id: "u" });
  await t.post("/delete_all_memories", { user_id: "u" });
});
afterAll(() => t.close());

/** The bound values in a statement whose every new binding makes SQLite prepare it again. */
function replannedValues(sql: string): string[] {
  const value = String.raw`\s*(\?\d*|[$:@]\w+)`;
  const limits = [...sql.matchAll(new RegExp(String.raw`\b(LIMIT|OFFSET)${value}`, "gi"))].map((m) => m[0]);
  if (!/\b(ORDER|GROUP)\s+BY\b/i.test(sql)) return limits;
  const compared = new RegExp(String.raw`((?<![<>!])=|\bIS|\bIN\s*\()${value}`, "gi");
  return [...limits, ...[...sql.matchAll(compared)].map((m) => m[0])];
}

describe("statements SQLite keeps prepared", () => {
  test("the scenario ran the statements it is meant to check", () => {
    const all = [...statements].join("\n");
    for (const part of ["ORDER BY created_at DESC, rowid DESC LIMIT", "memories_fts MATCH", "json_each", "audit_log"])
      expect(all).toContain(part);
  });

  test("no statement of these requests binds a LIMIT, or an ordered or grouped statement's compared value, bare", () => {
    const replanned = [...statements]
      .map((sql) => ({ sql: sql.replace(/\s+/g, " ").trim(), values: replannedValues(sql) }))
      .filter((s) => s.values.length);
    expect(replanned).toEqual([]);
  });

  test("each statement with a constant-form value has the plan its bare form has", () => {
    const constant = [...statements].filter((sql) => /\+(\?|\$\w)/.test(sql));
    expect(constant.length).toBeGreaterThan(10);
    const differ = constant
      .map((sql) => ({
        sql,
        constant: queryPlan(dbOf(t), sql),
        bare: queryPlan(dbOf(t), sql.replace(/\+(?=\?|\$\w)/g, "")),
      }))
      .filter((p) => JSON.stringify(p.constant) !== JSON.stringify(p.bare));
    expect(differ).toEqual([]);
  });

  test("no statement written in store/sqlite binds them bare either, whether or not a request above ran it", () => {
    const dir = join(import.meta.dir, "../../../src/store/sqlite");
    const found = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) =>
        [...readFileSync(join(dir, f), "utf8").matchAll(/`[^`]*`|"(?:[^"\\\n]|\\.)*"/g)]
          .map((m) => ({ file: f, sql: m[0].replace(/\s+/g, " "), values: replannedValues(m[0]) }))
          .filter((s) => s.values.length),
      );
    expect(found).toEqual([]);
  });

  test("the check finds a bare LIMIT, and an ordered statement's compared value, and passes their constant form", () => {
    expect(replannedValues("SELECT a FROM t WHERE b = ? LIMIT ?")).toEqual(["LIMIT ?"]);
    expect(replannedValues("SELECT a FROM t WHERE b = ? AND c IS $c AND d IN (?, ?) ORDER BY a")).toEqual([
      "= ?",
      "IS $c",
      "IN (?",
    ]);
    expect(replannedValues("SELECT a FROM t WHERE b = +? AND c >= ? ORDER BY a LIMIT +?")).toEqual([]);
    expect(replannedValues("SELECT a FROM t WHERE b = ?")).toEqual([]);
  });
});
