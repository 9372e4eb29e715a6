// The OpenMemory drop-in (SPEC §7) on a real port: the official SDK's SSEClientTransport at
// OpenMemory's /mcp/<client_name>/sse/<user_id> URL, OpenMemory's tool arguments, its second
// messages path, its Streamable HTTP URL, auth, bad requests, and a stop that ends open streams.
import { afterEach, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ServerOptions } from "~/config/load-config";
import type { RunningServer } from "~/main";
import { bodyOf, connect, textOf, serveOnPort } from "./support";

let server: RunningServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.stop();
  server = undefined;
});

const start = async (options: ServerOptions = {}) => (server = await serveOnPort(options));
async function sseClient(path: string, headers: Record<string, string> = {}) {
  const c = await connect(new SSEClientTransport(new URL(`${server!.url}${path}`), { requestInit: { headers } }));
  clients.push(c);
  return c;
}
const listed = async (user: string): Promise<any> =>
  (await fetch(`${server!.url}/list_memories?user_id=${user}`)).json();

describe("OpenMemory's SSE URL through the SDK's SSEClientTransport", () => {
  test("an OpenMemory client's calls work with only the host changed: add {text}, search {query}, list {}, delete_all {}", async () => {
    await start();
    const c = await sseClient("/mcp/claude/sse/alice");
    const added = await c.callTool({ name: "add_memories", arguments: { text: "I am allergic to penicillin" } });
    expect(added.isError).toBeUndefined();
    const [id] = bodyOf(added).memory_ids as string[];
    await c.callTool({ name: "add_memories", arguments: { text: "I take the 8:10 train", infer: false } });
    const found = await c.callTool({ name: "search_memory", arguments: { query: "penicillin allergy" } });
    expect((bodyOf(found).results as { id: string }[]).map((r) => r.id)).toEqual([id!]);
    const list = await c.callTool({ name: "list_memories", arguments: {} });
    expect(bodyOf(list).total).toBe(2);
    // The URL's user owns the memories; the client name is the agent they are filed under.
    const http = await listed("alice");
    expect(http.results.map((r: { agent_id: string }) => r.agent_id)).toEqual(["claude", "claude"]);
    const gone = await c.callTool({ name: "delete_all_memories", arguments: {} });
    expect(textOf(gone)).toBe("Deleted 2 memories.");
    expect((await listed("alice")).total).toBe(0);
  });

  test("searches cover what other clients of the same user stored, and tools/list names the client as the default agent", async () => {
    await start();
    await fetch(`${server!.url}/add_memories`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: "alice", memory: "Alice's sister is Maria", agent_id: "cursor" }),
    });
    const c = await sseClient("/mcp/openmemory/sse/alice");
    const found = await c.callTool({ name: "search_memory", arguments: { query: "sister" } });
    expect((bodyOf(found).results as { memory: string }[]).map((r) => r.memory)).toEqual(["Alice's sister is Maria"]);
    const add = (await c.listTools()).tools.find((t) => t.name === "add_memories")!;
    expect(add.description).toContain("Without agent_id the memory is filed under agent 'openmemory'");
    expect(add.inputSchema.required).toBeUndefined();
    expect((add.inputSchema.properties!.agent_id as { description: string }).description).toContain(
      "Default 'openmemory'",
    );
  });

  test("with auth on, the stream needs the key, and a client that sends it works", async () => {
    await start({ auth: { enabled: true, apiKey: "k" } });
    const refused = await sseClient("/mcp/claude/sse/alice").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SseError);
    expect((refused as SseError).code).toBe(401);
    const c = await sseClient("/mcp/claude/sse/alice", { Authorization: "Bearer k" });
    const r = await c.callTool({ name: "add_memories", arguments: { text: "authorized" } });
    expect(r.isError).toBeUndefined();
  });

  test("stop() ends the open streams instead of waiting for them", async () => {
    await start();
    const c = await sseClient("/mcp/claude/sse/alice");
    expect((await c.callTool({ name: "list_memories", arguments: {} })).isError).toBeUndefined();
    // Without ending the streams, this drain would wait for the open stream far beyond the test's timeout.
    await server!.stop({ drainMs: 3_600_000 });
    server = undefined;
  });
});

/** Opens the SSE stream by hand and returns the announced endpoint and a reader of the next events. */
async function rawStream(path: string) {
  const res = await fetch(`${server!.url}${path}`, { headers: { accept: "text/event-stream" } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/event-stream");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const next = async (): Promise<{ event: string; data: string }> => {
    for (;;) {
      const end = buffered.indexOf("\n\n");
      if (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (block.startsWith(":")) continue;
        const field = (name: string) =>
          /^(\w+): (.*)$/gm.exec(block) && block.match(new RegExp(`^${name}: (.*)$`, "m"))?.[1];
        return { event: field("event") ?? "message", data: field("data") ?? "" };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("stream ended");
      buffered += value;
    }
  };
  const endpoint = await next();
  return { endpoint, next, close: () => reader.cancel() };
}
const post = (path: string, body: unknown) =>
  fetch(`${server!.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("the legacy transport on the wire", () => {
  test("announces /mcp/messages/?session_id= first, and answers a POST there or on OpenMemory's second path on the stream", async () => {
    await start();
    const s = await rawStream("/mcp/claude/sse/alice");
    expect(s.endpoint.event).toBe("endpoint");
    const id = /^\/mcp\/messages\/\?session_id=([0-9a-f-]{36})$/.exec(s.endpoint.data)?.[1];
    expect(id).toBeDefined();
    const accepted = await post(`/mcp/claude/sse/alice/messages/?session_id=${id}`, INITIALIZE);
    expect(accepted.status).toBe(202);
    expect(await accepted.text()).toBe("Accepted");
    const answer = await s.next();
    expect(answer.event).toBe("message");
    expect(JSON.parse(answer.data)).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: { serverInfo: { name: "engram" } },
    });
    const again = await post(`/mcp/messages/?session_id=${id}`, { ...INITIALIZE, id: 2 });
    expect(again.status).toBe(202);
    expect(JSON.parse((await s.next()).data).id).toBe(2);
    await s.close();
  });

  test("a POST without a session, to an unknown one, or that is not JSON-RPC gets the error envelope", async () => {
    await start();
    const s = await rawStream("/mcp/claude/sse/alice");
    const missing = await post("/mcp/messages/", INITIALIZE);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      success: false,
      error: "session_id is required: POST to the URL the SSE stream announced",
      code: "VALIDATION_ERROR",
      field: "session_id",
    });
    const unknown = await post("/mcp/messages/?session_id=nope", INITIALIZE);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      success: false,
      error: "MCP session 'nope' not found; open the SSE stream again",
      code: "NOT_FOUND",
    });
    const notRpc = await post(`${s.endpoint.data}`, { hello: "world" });
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toEqual({
      success: false,
      error: "the body is not a JSON-RPC message",
      code: "VALIDATION_ERROR",
      field: "body",
    });
    const long = await fetch(`${server!.url}/mcp/claude/sse/${"u".repeat(257)}`);
    expect(long.status).toBe(400);
    expect(((await long.json()) as { field: string }).field).toBe("user_id");
    await s.close();
  });
});

test("OpenMemory's URLs refuse a rebinding Host or Origin with 403, like every route (SPEC §7)", async () => {
  await start();
  const host = { host: "evil.example.com" };
  const origin = { origin: "http://evil.example.com" };
  for (const [method, path, headers] of [
    ["GET", "/mcp/claude/sse/alice", host],
    ["GET", "/mcp/claude/sse/alice", origin],
    ["POST", "/mcp/messages/?session_id=x", host],
    ["POST", "/mcp/claude/sse/alice/messages/?session_id=x", origin],
    ["POST", "/mcp/claude/http/alice", host],
  ] as const) {
    const r = await fetch(`${server!.url}${path}`, {
      method,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      ...(method === "POST" ? { body: JSON.stringify(INITIALIZE) } : {}),
    });
    expect([path, r.status, ((await r.json()) as { code: string }).code]).toEqual([path, 403, "FORBIDDEN"]);
  }
});

describe("OpenMemory's Streamable HTTP URL", () => {
  test("/mcp/<client_name>/http/<user_id> takes the same calls with the URL's user and client", async () => {
    await start();
    const c = await connect(new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp/cursor/http/bob`)));
    clients.push(c);
    const r = await c.callTool({ name: "add_memories", arguments: { text: "Bob codes in Go" } });
    expect(r.isError).toBeUndefined();
    const http = await listed("bob");
    expect(http.results.map((m: { memory: string; agent_id: string }) => [m.memory, m.agent_id])).toEqual([
      ["Bob codes in Go", "cursor"],
    ]);
    expect((await listed("alice")).total).toBe(0);
  });
});
