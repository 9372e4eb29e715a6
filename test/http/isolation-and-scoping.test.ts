import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { relevance } from "~/search/relevance";
import { buildTestApp, type TestApp } from "../support/app";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const add = async (user: string, memory: string, extra: Record<string, unknown> = {}) =>
  (await t.post("/add_memories", { user_id: user, memory, ...extra })).body.memory_ids[0] as string;
const search = async (user: string, query: string, extra: Record<string, unknown> = {}) =>
  (await t.post("/search_memory", { user_id: user, query, ...extra })).body.results.map(
    (r: any) => r.memory,
  ) as string[];

describe("isolation between users", () => {
  test("another user's memory id behaves exactly like a missing id", async () => {
    const id = await add("alice", "alice's secret plan");
    const missing = await t.get("/get_memory?memory_id=does-not-exist&user_id=mallory");
    const other = await t.get(`/get_memory?memory_id=${id}&user_id=mallory`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ ...missing.body, error: `memory '${id}' not found` });
    expect((await t.post("/update_memory", { memory_id: id, user_id: "mallory", memory: "pwned" })).status).toBe(404);
    expect((await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=mallory`)).status).toBe(404);
    expect((await t.get(`/memories/${id}/versions?user_id=mallory`)).status).toBe(404);
    expect((await t.get(`/get_memory?memory_id=${id}&user_id=alice`)).body.memory).toBe("alice's secret plan");
  });

  test("search and list never return another user's memories", async () => {
    await add("alice", "secret plan for the launch");
    await add("mallory", "my own plan");
    expect(await search("mallory", "secret plan launch")).toEqual(["my own plan"]);
    const list = await t.get("/list_memories?user_id=mallory");
    expect(list.body.results.map((r: any) => r.memory)).toEqual(["my own plan"]);
    expect(list.body.total).toBe(1);
  });

  test("delete_all of one user leaves the others untouched", async () => {
    await add("alice", "a");
    await add("bob", "b");
    await t.post("/delete_all_memories", { user_id: "bob" });
    expect(await search("alice", "a")).toEqual(["a"]);
  });
});

describe("agent scoping", () => {
  test("a search without agent_id sees all of the user's agents; with one, only that agent", async () => {
    await add("u", "coffee from cursor", { agent_id: "cursor" });
    await add("u", "coffee from claude", { agent_id: "claude" });
    expect((await search("u", "coffee")).sort()).toEqual(["coffee from claude", "coffee from cursor"]);
    expect(await search("u", "coffee", { agent_id: "claude" })).toEqual(["coffee from claude"]);
    const list = await t.get("/list_memories?user_id=u&agent_id=cursor");
    expect(list.body.results.map((r: any) => r.memory)).toEqual(["coffee from cursor"]);
    expect(list.body.total).toBe(1);
  });

  test("agent_id defaults to mcp-agent", async () => {
    const id = await add("u", "x");
    expect((await t.get(`/get_memory?memory_id=${id}&user_id=u`)).body.agent_id).toBe("mcp-agent");
  });
});

describe("session scoping", () => {
  test("a session memory is found only by searches with the same session", async () => {
    await add("u", "tea in session one", { session_id: "s1" });
    await add("u", "tea without session");
    expect(await search("u", "tea", { session_id: "s1" })).toEqual(["tea in session one"]);
    expect(await search("u", "tea", { session_id: "s2" })).toEqual([]);
    expect(await search("u", "tea")).toEqual(["tea without session"]);
  });
});

describe("metadata filters", () => {
  test("scalars match by equality and arrays by containment of every element", async () => {
    await add("u", "deploy notes alpha", {
      metadata: { project: "alpha", tags: ["ops", "deploy"], pinned: true, importance: 80 },
    });
    await add("u", "deploy notes beta", { metadata: { project: "beta", tags: ["ops"], pinned: false } });
    expect(await search("u", "deploy", { metadata: { project: "alpha" } })).toEqual(["deploy notes alpha"]);
    expect(await search("u", "deploy", { metadata: { tags: ["ops", "deploy"] } })).toEqual(["deploy notes alpha"]);
    expect((await search("u", "deploy", { metadata: { tags: ["ops"] } })).sort()).toEqual([
      "deploy notes alpha",
      "deploy notes beta",
    ]);
    expect(await search("u", "deploy", { metadata: { pinned: false } })).toEqual(["deploy notes beta"]);
    expect(await search("u", "deploy", { metadata: { importance: 80 } })).toEqual(["deploy notes alpha"]);
    expect(await search("u", "deploy", { metadata: { project: "gamma" } })).toEqual([]);
  });

  test("a metadata filter key with a quote is rejected, not run", async () => {
    const r = await t.post("/search_memory", { user_id: "u", query: "x", metadata: { 'a"b': 1 } });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('metadata.a"b');
  });
});

describe("temporary memories", () => {
  test("are invisible to every read from their expiresAt on", async () => {
    const expiresAt = t.clock.now() + 60_000;
    const id = await add("u", "temporary parking spot B4", { metadata: { temporary: true, expiresAt } });
    expect(await search("u", "parking")).toEqual(["temporary parking spot B4"]);
    t.clock.advance(60_000);
    expect(await search("u", "parking")).toEqual([]);
    expect((await t.get(`/get_memory?memory_id=${id}&user_id=u`)).status).toBe(404);
    expect((await t.get("/list_memories?user_id=u")).body.total).toBe(0);
  });
});

describe("search results", () => {
  test("come best first with scores in (0, 1] and the documented fields", async () => {
    await add("u", "Rust borrow checker rules");
    await add("u", "rust on the old bike chain");
    await add("u", "Borrow checker errors in Rust are about borrow lifetimes");
    const r = await t.post("/search_memory", { user_id: "u", query: "rust borrow checker", limit: 2 });
    expect(r.body.results).toHaveLength(2);
    const [a, b] = r.body.results;
    expect(Object.keys(a).sort()).toEqual(["created_at", "id", "memory", "metadata", "score"]);
    // Absolute, not normalised: two memories hold every word of the query (the earlier one first).
    expect([a.memory, b.memory]).toEqual([
      "Rust borrow checker rules",
      "Borrow checker errors in Rust are about borrow lifetimes",
    ]);
    expect(a.score).toBe(relevance(null, 1));
    expect(b.score).toBe(relevance(null, 1));
  });

  test("rejects a blank query and a limit over 100", async () => {
    expect((await t.post("/search_memory", { user_id: "u", query: "" })).body.field).toBe("query");
    expect((await t.post("/search_memory", { user_id: "u", query: "   " })).body.field).toBe("query");
    expect((await t.post("/search_memory", { user_id: "u", query: "x", limit: 101 })).body.field).toBe("limit");
  });
});

describe("search cache", () => {
  test("serves a repeated search from cache and never hides a memory just added", async () => {
    await add("u", "blue bicycle");
    expect(await search("u", "bicycle")).toEqual(["blue bicycle"]);
    expect(await search("u", "bicycle")).toEqual(["blue bicycle"]);
    expect(t.services.memory.cache.hits).toBe(1);
    await add("u", "red bicycle");
    expect((await search("u", "bicycle")).sort()).toEqual(["blue bicycle", "red bicycle"]);
  });

  test("forgets deleted and updated memories at once", async () => {
    const id = await add("u", "green bicycle");
    await search("u", "bicycle");
    await t.post("/update_memory", { memory_id: id, user_id: "u", memory: "green tricycle" });
    expect(await search("u", "bicycle")).toEqual([]);
    await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`);
    expect(await search("u", "tricycle")).toEqual([]);
  });

  test("expires after 60 seconds", async () => {
    await add("u", "kite");
    await search("u", "kite");
    t.clock.advance(60_001);
    await search("u", "kite");
    expect(t.services.memory.cache.hits).toBe(0);
  });
});
