// MCP with identity keys (SPEC §8, §7): over HTTP the key decides the user; X-User-Id works only
// for admin keys and cannot override a bound key; every tool applies the rule of its HTTP endpoint.
import { afterEach, describe, expect, test } from "bun:test";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { bodyOf, connect, errorOf } from "./support";

let server: RunningServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.stop();
  server = undefined;
});

async function start() {
  const config = loadConfig({
    options: { storeUrl: "sqlite::memory:", port: 0, auth: { enabled: true, apiKey: "shared" } },
    env: { HOME: process.env.HOME },
  });
  server = await startServer(config, { logger: silentLogger(), embedder: null });
  const keys = server.services.keys;
  return {
    admin: (await keys.create("default", { role: "admin" })).key,
    ana: (await keys.create("default", { role: "member", user_id: "ana" })).key,
    anaCursor: (await keys.create("default", { role: "member", user_id: "ana", agent_id: "cursor" })).key,
    reader: (await keys.create("default", { role: "reader", user_id: "ana" })).key,
  };
}

const client = async (key: string, more: Record<string, string> = {}, path = "/mcp") => {
  const headers = { authorization: `Bearer ${key}`, ...more };
  const c = await connect(
    new StreamableHTTPClientTransport(new URL(`${server!.url}${path}`), { requestInit: { headers } }),
  );
  clients.push(c);
  return c;
};
const listOf = async (user: string) =>
  (
    (await (
      await fetch(`${server!.url}/list_memories?user_id=${user}`, { headers: { authorization: "Bearer shared" } })
    ).json()) as { results: { memory: string; agent_id: string }[] }
  ).results.map((m) => `${m.agent_id}: ${m.memory}`);

describe("MCP with identity keys", () => {
  test("a member key's calls act as its user without user_id, and advertise user_id as optional", async () => {
    const k = await start();
    const c = await client(k.ana);
    const add = (await c.listTools()).tools.find((t) => t.name === "add_memories")!;
    expect(add.inputSchema.required).toBeUndefined();
    expect(bodyOf(await c.callTool({ name: "add_memories", arguments: { memory: "Ana likes tea" } })).success).toBe(
      true,
    );
    expect(await listOf("ana")).toEqual(["mcp-agent: Ana likes tea"]);
    const other = await c.callTool({ name: "search_memory", arguments: { user_id: "bob", query: "tea" } });
    expect(errorOf(other)).toEqual({ success: false, error: "this key acts only as user 'ana'", code: "FORBIDDEN" });
  });

  test("a key bound to an agent files its writes under that agent", async () => {
    const k = await start();
    const c = await client(k.anaCursor);
    await c.callTool({ name: "add_memories", arguments: { memory: "from cursor" } });
    const other = await c.callTool({ name: "add_memories", arguments: { memory: "x", agent_id: "claude" } });
    expect(errorOf(other)).toEqual({
      success: false,
      error: "this key acts only as agent 'cursor'",
      code: "FORBIDDEN",
    });
    expect(await listOf("ana")).toEqual(["cursor: from cursor"]);
  });

  test("a reader's writes are tool errors, its reads work", async () => {
    const k = await start();
    const c = await client(k.reader);
    const write = await c.callTool({ name: "add_memories", arguments: { memory: "x" } });
    expect(errorOf(write)).toEqual({ success: false, error: "this key is read-only (role reader)", code: "FORBIDDEN" });
    expect(bodyOf(await c.callTool({ name: "list_memories", arguments: {} }))).toMatchObject({ total: 0 });
  });

  test("X-User-Id chooses the user for an admin key, and cannot override a bound key", async () => {
    const k = await start();
    const admin = await client(k.admin, { "X-User-Id": "bob" });
    await admin.callTool({ name: "add_memories", arguments: { memory: "Bob's note" } });
    expect(await listOf("bob")).toEqual(["mcp-agent: Bob's note"]);
    const refused = await client(k.ana, { "X-User-Id": "bob" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(403);
    const same = await client(k.ana, { "X-User-Id": "ana" });
    expect(bodyOf(await same.callTool({ name: "list_memories", arguments: {} })).total).toBe(0);
  });

  test("OpenMemory's URL of another user is refused to a bound key", async () => {
    const k = await start();
    const refused = await client(k.ana, {}, "/mcp/cursor/http/bob").catch((e: unknown) => e);
    expect((refused as StreamableHTTPError).code).toBe(403);
    const mine = await client(k.ana, {}, "/mcp/cursor/http/ana");
    await mine.callTool({ name: "add_memories", arguments: { memory: "via the OpenMemory URL" } });
    expect(await listOf("ana")).toEqual(["cursor: via the OpenMemory URL"]);
  });
});
