// What tools/list tells a model that reads nothing else, checked against what the tools do: each
// test observes a behaviour through the official SDK client and asserts the advertised text says it.
import { afterEach, describe, expect, test } from "bun:test";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { bodyOf, errorOf, inMemoryMcp, textOf, type InMemoryMcp } from "./support";

let m: InMemoryMcp;
afterEach(() => m?.close());

const call = (name: string, args: Record<string, unknown>) => m.client.callTool({ name, arguments: args });
const add = async (args: Record<string, unknown>) =>
  (bodyOf(await call("add_memories", { user_id: "alice", ...args })).memory_ids as string[])[0]!;
const found = async (args: Record<string, unknown>) =>
  (bodyOf(await call("search_memory", { user_id: "alice", ...args })).results as { id: string }[]).map((r) => r.id);

async function tools(): Promise<Record<string, Tool>> {
  return Object.fromEntries((await m.client.listTools()).tools.map((t) => [t.name, t]));
}
/** The advertised description of one argument of one tool. */
const arg = (t: Tool, name: string) => (t.inputSchema.properties?.[name] as { description?: string }).description ?? "";

describe("agent_id", () => {
  test("add_memories without agent_id files under 'mcp-agent', as both the tool and the argument say", async () => {
    m = await inMemoryMcp();
    const id = await add({ memory: "Alice is vegetarian" });
    expect(bodyOf(await call("get_memory", { user_id: "alice", memory_id: id })).agent_id).toBe("mcp-agent");
    const t = (await tools()).add_memories!;
    expect(t.description).toContain("Without agent_id the memory is filed under agent 'mcp-agent'");
    expect(arg(t, "agent_id")).toContain("Default 'mcp-agent'");
  });

  test("search and list without agent_id cover every agent, and say so instead of naming a default", async () => {
    m = await inMemoryMcp();
    const cursor = await add({ memory: "Alice writes Rust at work", agent_id: "cursor" });
    const claude = await add({ memory: "Alice writes Rust for fun", agent_id: "claude" });
    expect((await found({ query: "Rust" })).sort()).toEqual([claude, cursor].sort());
    expect(await found({ query: "Rust", agent_id: "claude" })).toEqual([claude]);
    const listed = bodyOf(await call("list_memories", { user_id: "alice" })).results as { id: string }[];
    expect(listed).toHaveLength(2);
    const t = await tools();
    for (const name of ["search_memory", "list_memories"]) {
      expect(arg(t[name]!, "agent_id")).toBe(
        "Only memories written by this agent. Leave it out (usual) to cover the memories of all the user's agents",
      );
      expect(arg(t[name]!, "agent_id")).not.toContain("mcp-agent");
    }
    expect(t.search_memory!.description).toContain("It covers the memories of all the user's agents unless agent_id");
  });
});

describe("session_id", () => {
  test("a memory written with a session is invisible to a search without one, as add, search and both arguments say", async () => {
    m = await inMemoryMcp();
    const scoped = await add({ memory: "The rented car is a blue Fiat", session_id: "trip" });
    const lasting = await add({ memory: "Alice prefers blue cars" });
    expect(await found({ query: "blue car" })).toEqual([lasting]);
    expect(await found({ query: "blue car", session_id: "trip" })).toEqual([scoped]);
    expect(bodyOf(await call("list_memories", { user_id: "alice" })).total).toBe(2);
    const t = await tools();
    expect(t.add_memories!.description).toContain(
      "a memory written with a session_id is found only by searches that pass the same session_id",
    );
    expect(arg(t.add_memories!, "session_id")).toContain(
      "never by searches without one (list_memories still shows it)",
    );
    expect(t.search_memory!.description).toContain("Without session_id it sees only memories stored without a session");
    expect(arg(t.search_memory!, "session_id")).toContain("memories written with a session are invisible to it");
    expect(t.list_memories!.description).toContain("session-scoped ones included");
  });
});

describe("metadata", () => {
  test("search's metadata narrows the results as a filter, and is described as one", async () => {
    m = await inMemoryMcp();
    const work = await add({ memory: "Standup is at nine", metadata: { tags: ["work", "daily"], importance: 70 } });
    await add({ memory: "Gym is at nine", metadata: { tags: ["health"] } });
    expect(await found({ query: "nine", metadata: { tags: ["work"] } })).toEqual([work]);
    expect(await found({ query: "nine", metadata: { importance: 70 } })).toEqual([work]);
    expect(await found({ query: "nine", metadata: { tags: ["work", "health"] } })).toEqual([]);
    const t = await tools();
    expect(arg(t.search_memory!, "metadata")).toStartWith("A filter, not data to search in");
    expect(arg(t.add_memories!, "metadata")).toStartWith("Free-form JSON object stored with the memory");
    expect(arg(t.update_memory!, "metadata")).toContain("a key set to null is removed");
  });
});

describe("graph_search", () => {
  test("finds the entity ids that graph_traverse needs, from memories alone", async () => {
    m = await inMemoryMcp();
    await add({ memory: "My sister Maria works at Google" });
    const r = await call("graph_search", { user_id: "alice", q: "mar" });
    expect(r.isError).toBeUndefined();
    const results = bodyOf(r).results as { type: string; id: string; name: string }[];
    expect(results.map(({ type, id, name }) => ({ type, id, name }))).toEqual([
      { type: "person", id: "maria", name: "Maria" },
    ]);
    expect(textOf(r)).toBe("Found 1 entity; start graph_traverse at {type, id}:\n1. Maria (type person, id maria)");
    const walk = await call("graph_traverse", { user_id: "alice", start: { type: "person", id: "maria" } });
    expect((bodyOf(walk).entities as { name: string }[]).map((e) => e.name)).toContain("Google");
    const t = await tools();
    expect(t.graph_traverse!.description).toContain("exactly as graph_search returns");
  });

  test("filters by type, answers the same body as GET /graph/entities, and says when nothing matches", async () => {
    m = await inMemoryMcp();
    await add({ memory: "My sister Maria works at Google" });
    const r = await call("graph_search", { user_id: "alice", type: "organization" });
    const http = await m.app.get("/graph/entities?user_id=alice&type=organization");
    expect(http.status).toBe(200);
    expect(r.structuredContent).toEqual(http.body);
    expect((http.body.results as { id: string }[]).map((e) => e.id)).toEqual(["google"]);
    expect(textOf(await call("graph_search", { user_id: "alice", q: "zebra" }))).toBe("No entity matches.");
    expect(textOf(await call("graph_search", { user_id: "bob", q: "mar" }))).toBe("No entity matches.");
  });

  test("refuses a misspelt argument instead of listing everything", async () => {
    m = await inMemoryMcp();
    expect(errorOf(await call("graph_search", { user_id: "alice", name: "Maria" }))).toEqual({
      success: false,
      error: "name: unexpected property",
      code: "VALIDATION_ERROR",
      field: "name",
    });
    const http = await m.app.get("/graph/entities?user_id=alice&name=Maria");
    expect(http.status).toBe(400);
    expect(http.body).toEqual({
      success: false,
      error: "name: unexpected property",
      code: "VALIDATION_ERROR",
      field: "name",
    });
  });
});

test("every tool and every argument has a description of its own", async () => {
  m = await inMemoryMcp();
  for (const t of Object.values(await tools())) {
    expect(t.description!.length).toBeGreaterThan(80);
    for (const name of Object.keys(t.inputSchema.properties ?? {})) expect(arg(t, name).length).toBeGreaterThan(10);
  }
});
