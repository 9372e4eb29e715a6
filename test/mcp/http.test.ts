// /mcp on a real port through the SDK's Streamable HTTP client: auth, X-User-Id, --user-id,
// the stateless endpoint's answers to other methods, and the HTTP snippets of docs/MCP.md.
import { afterEach, describe, expect, test } from "bun:test";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ServerOptions } from "~/config/load-config";
import type { RunningServer } from "~/main";
import { bodyOf, connect, docCommand, docEntries, errorOf, textOf, TOOL_NAMES, serveOnPort } from "./support";

let server: RunningServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.stop();
  server = undefined;
});

const start = async (options: ServerOptions = {}) => (server = await serveOnPort(options));
const client = async (headers: Record<string, string> = {}, url = `${server!.url}/mcp`) => {
  const c = await connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(c);
  return c;
};
const listed = async (user: string): Promise<any> =>
  (await fetch(`${server!.url}/list_memories?user_id=${user}`, { headers: { authorization: "Bearer k" } })).json();
const ACCEPT = { accept: "application/json, text/event-stream" };

describe("/mcp over Streamable HTTP", () => {
  test("lists the tools and runs them through the SDK client", async () => {
    await start();
    const c = await client();
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const added = await c.callTool({
      name: "add_memories",
      arguments: { user_id: "alice", memory: "I take the 8:10 train" },
    });
    const [id] = bodyOf(added).memory_ids as string[];
    const found = await c.callTool({ name: "search_memory", arguments: { user_id: "alice", query: "train" } });
    expect((found.structuredContent as { results: { id: string }[] }).results.map((r) => r.id)).toEqual([id!]);
    const missing = await c.callTool({ name: "get_memory", arguments: { user_id: "alice", memory_id: "nope" } });
    expect(errorOf(missing)).toEqual({ success: false, error: "memory 'nope' not found", code: "NOT_FOUND" });
  });

  test("with auth on, a client without the key gets 401 and a client with it works", async () => {
    await start({ auth: { enabled: true, apiKey: "k" } });
    const refused = await client().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(401);
    const wrong = await client({ Authorization: "Bearer nope" }).catch((e: unknown) => e);
    expect((wrong as StreamableHTTPError).code).toBe(401);
    const c = await client({ Authorization: "Bearer k" });
    const r = await c.callTool({ name: "add_memories", arguments: { user_id: "alice", memory: "authorized" } });
    expect(r.isError).toBeUndefined();
    expect((await listed("alice")).total).toBe(1);
  });

  test("X-User-Id supplies the user for calls that omit user_id, and makes user_id optional", async () => {
    await start();
    const c = await client({ "X-User-Id": "carol" });
    const { tools } = await c.listTools();
    expect(tools.find((t) => t.name === "search_memory")!.inputSchema.required).toEqual(["query"]);
    await c.callTool({ name: "add_memories", arguments: { memory: "from carol's client" } });
    await c.callTool({ name: "add_memories", arguments: { memory: "for dave", user_id: "dave" } });
    expect((await listed("carol")).results.map((r: { memory: string }) => r.memory)).toEqual(["from carol's client"]);
    expect((await listed("dave")).results.map((r: { memory: string }) => r.memory)).toEqual(["for dave"]);
  });

  test("--user-id is the fallback when the client sends no X-User-Id, and the header wins over it", async () => {
    await start({ userId: "server-default" });
    await (await client()).callTool({ name: "add_memories", arguments: { memory: "default user" } });
    await (await client({ "X-User-Id": "erin" })).callTool({
      name: "add_memories",
      arguments: { memory: "header user" },
    });
    expect((await listed("server-default")).results.map((r: { memory: string }) => r.memory)).toEqual(["default user"]);
    expect((await listed("erin")).results.map((r: { memory: string }) => r.memory)).toEqual(["header user"]);
  });

  test("without any user, a call without user_id is a VALIDATION_ERROR on user_id", async () => {
    await start();
    const r = await (await client()).callTool({ name: "list_memories", arguments: {} });
    expect(errorOf(r)).toEqual({
      success: false,
      error: "user_id is required",
      code: "VALIDATION_ERROR",
      field: "user_id",
    });
  });
});

describe("/mcp is stateless", () => {
  test("GET and DELETE answer 405 with a JSON-RPC error", async () => {
    await start();
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${server!.url}/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: -32000, message: "Method not allowed: this stateless MCP endpoint answers POST only" },
        id: null,
      });
    }
  });

  test("answers a POST on its own, without a session id, and refuses a body that is not JSON", async () => {
    await start();
    const res = await fetch(`${server!.url}/mcp`, {
      method: "POST",
      headers: { ...ACCEPT, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body: any = await res.json();
    expect(body.id).toBe(7);
    expect(body.result.tools.map((t: { name: string }) => t.name)).toEqual(TOOL_NAMES);
    const text = await fetch(`${server!.url}/mcp`, {
      method: "POST",
      headers: { ...ACCEPT, "content-type": "text/plain" },
      body: "hello",
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Unsupported Media Type: Content-Type must be application/json" },
      id: null,
    });
  });
});

describe("docs/MCP.md, HTTP part", () => {
  test("the .mcp.json entry works as written against `engram serve --auth --api-key=…`", async () => {
    const entry = docEntries().find((e) => e.type === "http")!;
    expect(entry.url).toBe("http://127.0.0.1:3000/mcp");
    const key = /--api-key=(\S+)/.exec(docCommand("engram serve"))![1]!;
    await start({ auth: { enabled: true, apiKey: key } });
    const c = await client(entry.headers, entry.url!.replace("http://127.0.0.1:3000", server!.url));
    const r = await c.callTool({ name: "add_memories", arguments: { memory: "configured from the docs" } });
    expect(textOf(r)).toStartWith("Stored 1 memory");
    expect(
      (
        await fetch(`${server!.url}/list_memories?user_id=${entry.headers!["X-User-Id"]}`, {
          headers: { authorization: entry.headers!.Authorization! },
        }).then((x) => x.json() as Promise<any>)
      ).total,
    ).toBe(1);
  });

  test("the curl check answers the tool list", async () => {
    const curl = docCommand("curl");
    const key = /Bearer (\w+)/.exec(curl)![1]!;
    await start({ auth: { enabled: true, apiKey: key } });
    const headers = Object.fromEntries([...curl.matchAll(/-H "([^:]+): ([^"]+)"/g)].map((m) => [m[1]!, m[2]!]));
    const body = /-d '([^']+)'/.exec(curl)![1]!;
    const res = await fetch(curl.split(" ")[2]!.replace("http://127.0.0.1:3000", server!.url), {
      method: "POST",
      headers,
      body,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).result.tools.map((t: { name: string }) => t.name)).toEqual(TOOL_NAMES);
  });
});
