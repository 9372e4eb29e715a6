// The MCP tools through a real SDK Client over an in-memory link: schemas, annotations, results
// equal to the HTTP bodies, readable text, and errors as isError results with the HTTP envelope.
import { afterEach, describe, expect, test } from "bun:test";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  AddMemoriesInput,
  DeleteAllInput,
  ListMemoriesInput,
  SpaceMemoryRef,
  MemoryRef,
  PromoteMemoryInput,
  SearchMemoryInput,
  SupersedeMemoryInput,
  UpdateMemoryInput,
} from "~/memory/memory.schema";
import { createLogger } from "~/shared/logger";
import { FindEntitiesQuery, TraverseBody } from "~/graph/graph.schema";
import { ListSpacesInput } from "~/spaces/spaces.schema";
import { bodyOf, errorOf, inMemoryMcp, textOf, TOOL_NAMES, type InMemoryMcp } from "./support";

let m: InMemoryMcp;
afterEach(() => m?.close());

const HTTP_SCHEMAS = {
  add_memories: AddMemoriesInput,
  search_memory: SearchMemoryInput,
  list_memories: ListMemoriesInput,
  delete_all_memories: DeleteAllInput,
  get_memory: SpaceMemoryRef,
  update_memory: UpdateMemoryInput,
  supersede_memory: SupersedeMemoryInput,
  promote_memory: PromoteMemoryInput,
  list_spaces: ListSpacesInput,
  delete_memory: SpaceMemoryRef,
  graph_search: FindEntitiesQuery,
  graph_traverse: TraverseBody,
};
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema));
const call = (name: string, args: Record<string, unknown>) => m.client.callTool({ name, arguments: args });
const addOne = async (memory: string, user_id = "alice") =>
  bodyOf(await call("add_memories", { user_id, memory })).memory_ids as string[];

describe("tools/list", () => {
  test("lists the twelve tools by their endpoint names", async () => {
    m = await inMemoryMcp();
    const { tools } = await m.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  });

  test("gives every tool the HTTP endpoint's input schema, with user_id required when there is no default user", async () => {
    m = await inMemoryMcp();
    const { tools } = await m.client.listTools();
    for (const t of tools) {
      const http = plain(HTTP_SCHEMAS[t.name as keyof typeof HTTP_SCHEMAS]);
      expect(t.inputSchema.type).toBe("object");
      expect(t.inputSchema.properties).toEqual(http.properties);
      // Over HTTP user_id may come from the key (SPEC §8); a connection with no user of its own must name it.
      expect(http.required ?? []).not.toContain("user_id");
      expect(t.inputSchema.required).toEqual([...(http.required ?? []), "user_id"]);
    }
  });

  test("makes user_id optional, and nothing else, when the server has a default user", async () => {
    m = await inMemoryMcp({ defaultUserId: "me" });
    const { tools } = await m.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
    expect(byName.add_memories!.required).toBeUndefined();
    expect(byName.search_memory!.required).toEqual(["query"]);
    expect(byName.get_memory!.required).toEqual(["memory_id"]);
    expect(byName.update_memory!.required).toEqual(["memory_id"]);
    expect(byName.list_memories!.properties).toEqual(plain(ListMemoriesInput).properties);
  });

  test("marks the read-only and the destructive tools in their annotations", async () => {
    m = await inMemoryMcp();
    const { tools } = await m.client.listTools();
    const hints = Object.fromEntries(tools.map(({ name, annotations: { title: _, ...a } = {} }) => [name, a]));
    const read = { readOnlyHint: true, openWorldHint: false };
    const additive = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
    const destructive = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
    expect(hints).toEqual({
      add_memories: additive,
      search_memory: read,
      list_memories: read,
      delete_all_memories: destructive,
      get_memory: read,
      update_memory: additive,
      supersede_memory: additive,
      promote_memory: additive,
      list_spaces: read,
      delete_memory: destructive,
      graph_search: read,
      graph_traverse: read,
    });
    expect(tools.find((t) => t.name === "search_memory")!.title).toBe("Search memory");
  });
});

describe("tools/call", () => {
  test("graph_traverse walks the graph filled from stored memories", async () => {
    m = await inMemoryMcp();
    await call("add_memories", { user_id: "alice", memory: "My sister Maria works at Google" });
    const r = await call("graph_traverse", { user_id: "alice", start: { type: "person", id: "user" }, max_depth: 2 });
    expect(r.isError).toBeUndefined();
    const names = (bodyOf(r).entities as { name: string }[]).map((e) => e.name);
    expect(names).toContain("Maria");
    expect(textOf(r)).toStartWith("Reached ");
    const missing = await call("graph_traverse", { user_id: "alice", start: { type: "person", id: "nobody" } });
    expect(missing.isError).toBe(true);
    expect((errorOf(missing) as { code: string }).code).toBe("NOT_FOUND");
  });

  test("adds a memory and answers the HTTP body plus a readable line", async () => {
    m = await inMemoryMcp();
    const r = await call("add_memories", { user_id: "alice", memory: "I prefer dark roast coffee" });
    const ids = bodyOf(r).memory_ids as string[];
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toEqual({ success: true, memory_ids: [ids[0]!] });
    expect(textOf(r)).toBe(`Stored 1 memory (id: ${ids[0]}).`);
  });

  test("answers a search with the HTTP results and a numbered list with scores", async () => {
    m = await inMemoryMcp();
    await addOne("I prefer dark roast coffee");
    await addOne("Coffee after noon keeps me awake");
    await addOne("My cat is called Miso");
    const r = await call("search_memory", { user_id: "alice", query: "coffee" });
    const http = await m.app.post("/search_memory", { user_id: "alice", query: "coffee" });
    expect(r.structuredContent).toEqual(http.body);
    const results = http.body.results as { id: string; memory: string; score: number }[];
    expect(results).toHaveLength(2);
    expect(textOf(r)).toBe(
      [
        "Found 2 memories, best first:",
        ...results.map((x, i) => `${i + 1}. ${x.memory} (score ${x.score.toFixed(3)}, id ${x.id})`),
      ].join("\n"),
    );
    expect(textOf(await call("search_memory", { user_id: "alice", query: "sailing" }))).toBe("No matching memories.");
  });

  test("gets, updates and deletes a memory with the same bodies as HTTP", async () => {
    m = await inMemoryMcp();
    const [id] = await addOne("I live in Porto");
    const got = await call("get_memory", { user_id: "alice", memory_id: id });
    expect(got.structuredContent).toEqual((await m.app.get(`/get_memory?memory_id=${id}&user_id=alice`)).body);
    const updated = await call("update_memory", {
      user_id: "alice",
      memory_id: id,
      memory: "I live in Lisbon",
      metadata: { importance: 80 },
    });
    const body = (await m.app.get(`/get_memory?memory_id=${id}&user_id=alice`)).body;
    expect(updated.structuredContent).toEqual(body);
    expect(body.version).toBe(2);
    expect(textOf(updated)).toBe(
      `Memory ${id} (version 2, agent mcp-agent, updated ${body.updated_at}):\nI live in Lisbon\nmetadata: {"importance":80}`,
    );
    const deleted = await call("delete_memory", { user_id: "alice", memory_id: id });
    expect(deleted.structuredContent).toEqual({ success: true, deleted_count: 1 });
    expect(textOf(deleted)).toBe(`Deleted memory ${id}.`);
    expect((await m.app.get(`/get_memory?memory_id=${id}&user_id=alice`)).status).toBe(404);
  });

  test("supersedes a memory like POST /memories/:id/supersede; lists show the old one only when asked", async () => {
    m = await inMemoryMcp();
    const [old] = await addOne("My editor is Vim");
    const r = await call("supersede_memory", { user_id: "alice", memory_id: old, memory: "My editor is Helix" });
    const out = bodyOf(r);
    expect(r.isError).toBeUndefined();
    expect(out.supersedes).toEqual([old]);
    expect(out).toEqual((await m.app.get(`/get_memory?memory_id=${out.id}&user_id=alice`)).body);
    expect(textOf(r)).toEndWith(`This is the current memory; it supersedes ${old}.`);
    const listed = (x: unknown) => (x as { results: { memory: string; superseded_by?: string }[] }).results;
    expect(listed(bodyOf(await call("list_memories", { user_id: "alice" }))).map((x) => x.memory)).toEqual([
      "My editor is Helix",
    ]);
    const all = listed(bodyOf(await call("list_memories", { user_id: "alice", include_superseded: true })));
    expect(all.map((x) => [x.memory, x.superseded_by])).toEqual([
      ["My editor is Helix", undefined],
      ["My editor is Vim", out.id],
    ]);
    const again = await call("supersede_memory", { user_id: "alice", memory_id: old, memory: "My editor is Zed" });
    expect((errorOf(again) as { code: string }).code).toBe("CONFLICT");
  });

  test("lists memories newest first and tells how to get the next page", async () => {
    m = await inMemoryMcp();
    for (const text of ["first", "second", "third"]) {
      await addOne(text);
      m.app.clock.advance(1000);
    }
    const r = await call("list_memories", { user_id: "alice", limit: 2 });
    const page = r.structuredContent as { results: { id: string; created_at: string }[]; next_cursor: string };
    expect(r.structuredContent).toEqual((await m.app.get("/list_memories?user_id=alice&limit=2")).body);
    const [a, b] = page.results;
    expect(textOf(r)).toBe(
      `Showing 2 of 3 memories, newest first:\n1. third (id ${a!.id}, ${a!.created_at})\n2. second (id ${b!.id}, ${b!.created_at})\n` +
        `More: call list_memories again with cursor "${page.next_cursor}".`,
    );
    const next = await call("list_memories", { user_id: "alice", limit: 2, cursor: page.next_cursor });
    expect((next.structuredContent as { results: { memory: string }[] }).results.map((x) => x.memory)).toEqual([
      "first",
    ]);
    expect(textOf(await call("list_memories", { user_id: "nobody" }))).toBe("No memories stored for this user.");
  });

  test("deletes all of a user's memories and says how many", async () => {
    m = await inMemoryMcp();
    await addOne("one");
    await addOne("two");
    await addOne("bob's", "bob");
    const r = await call("delete_all_memories", { user_id: "alice" });
    expect(r.structuredContent).toEqual({ success: true, deleted_count: 2 });
    expect(textOf(r)).toBe("Deleted 2 memories.");
    expect((await m.app.get("/list_memories?user_id=bob")).body.total).toBe(1);
  });
});

describe("users", () => {
  test("a call without user_id and no default user is a VALIDATION_ERROR on user_id", async () => {
    m = await inMemoryMcp();
    const r = await call("add_memories", { memory: "orphan" });
    expect(r).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: JSON.stringify({
            success: false,
            error: "user_id is required",
            code: "VALIDATION_ERROR",
            field: "user_id",
          }),
        },
      ],
    });
  });

  test("the default user fills in a missing user_id, and an explicit user_id wins over it", async () => {
    m = await inMemoryMcp({ defaultUserId: "me" });
    await call("add_memories", { memory: "mine" });
    await call("add_memories", { memory: "alice's", user_id: "alice" });
    expect(
      (await m.app.get("/list_memories?user_id=me")).body.results.map((r: { memory: string }) => r.memory),
    ).toEqual(["mine"]);
    expect(
      (await m.app.get("/list_memories?user_id=alice")).body.results.map((r: { memory: string }) => r.memory),
    ).toEqual(["alice's"]);
  });

  test("another user's memory id is NOT_FOUND, exactly like an unknown id", async () => {
    m = await inMemoryMcp();
    const [id] = await addOne("secret", "bob");
    expect(errorOf(await call("get_memory", { user_id: "alice", memory_id: id }))).toEqual({
      success: false,
      error: `memory '${id}' not found`,
      code: "NOT_FOUND",
    });
    expect(errorOf(await call("delete_memory", { user_id: "alice", memory_id: "no-such-id" }))).toEqual({
      success: false,
      error: "memory 'no-such-id' not found",
      code: "NOT_FOUND",
    });
  });
});

describe("bad calls", () => {
  test("bad arguments get the same code, field and message as over HTTP", async () => {
    m = await inMemoryMcp();
    const cases: [string, string, Record<string, unknown>][] = [
      ["search_memory", "/search_memory", { user_id: "alice", query: "x", limit: 0 }],
      ["add_memories", "/add_memories", { user_id: "alice", memory: 42 }],
      ["add_memories", "/add_memories", { user_id: "alice", memory: "x", messages: [{ role: "user", content: "y" }] }],
      ["update_memory", "/update_memory", { user_id: "alice", memory_id: "m" }],
      ["add_memories", "/add_memories", { user_id: "", memory: "x" }],
    ];
    for (const [tool, path, args] of cases) {
      const http = await m.app.post(path, args);
      expect(http.status).toBe(400);
      expect(errorOf(await call(tool, args))).toEqual(http.body);
    }
    expect(errorOf(await call("search_memory", { user_id: "alice", query: "x", limit: 0 }))).toEqual({
      success: false,
      error: "limit: expected integer to be greater or equal to 1",
      code: "VALIDATION_ERROR",
      field: "limit",
    });
  });

  test("an unknown tool is a protocol error, not a tool result", async () => {
    m = await inMemoryMcp();
    const e = await call("forget_everything", {}).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(McpError);
    expect((e as McpError).code).toBe(ErrorCode.InvalidParams);
    // The SDK prefixes "MCP error <code>: " when the server throws and again when the client rebuilds the error.
    expect((e as McpError).message).toBe(
      "MCP error -32602: MCP error -32602: unknown tool 'forget_everything'; call tools/list",
    );
  });

  test("an unexpected failure is a generic INTERNAL_ERROR, with the details only in the log", async () => {
    const lines: string[] = [];
    const boom = {
      get: () => {
        throw new Error("disk on fire");
      },
    };
    m = await inMemoryMcp((app) => ({
      services: async () => ({ ...app.services, shared: boom as never }),
      logger: createLogger("error", (l) => lines.push(l)),
    }));
    const body = errorOf(await call("get_memory", { user_id: "u", memory_id: "x" })) as { error: string; code: string };
    expect(body.code).toBe("INTERNAL_ERROR");
    const requestId = /^internal error \(request id ([0-9a-f-]{36})\)$/.exec(body.error)?.[1];
    expect(requestId).toBeDefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `ERROR unhandled error in MCP tool request_id="${requestId}" tool="get_memory" error="disk on fire\\nError: disk on fire`,
    );
  });
});
