// Shared spaces over MCP (SPEC §7, §8) with the official SDK client on a real port: the tools take the
// same space fields as HTTP, and the key's user decides membership exactly as there.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { bodyOf, connect, errorOf } from "../mcp/support";

let server: RunningServer;
const clients: Client[] = [];
let ana: Client;
let bo: Client;
let cy: Client;
beforeAll(async () => {
  const config = loadConfig({
    options: { storeUrl: "sqlite::memory:", port: 0, auth: { enabled: true, apiKey: "shared" } },
    env: { HOME: process.env.HOME },
  });
  server = await startServer(config, { logger: silentLogger(), embedder: null });
  const s = server.services;
  await s.spaces.create(
    "default",
    {
      space_id: "platform",
      name: "Platform",
      members: [
        { user_id: "ana", role: "writer" },
        { user_id: "bo", role: "reader" },
      ],
    },
    null,
  );
  const client = async (user: string) => {
    const key = (await s.keys.create("default", { role: "member", user_id: user })).key;
    const headers = { authorization: `Bearer ${key}` };
    const c = await connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
    );
    clients.push(c);
    return c;
  };
  [ana, bo, cy] = [await client("ana"), await client("bo"), await client("cy")];
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await server?.stop();
});

const call = (c: Client, name: string, args: Record<string, unknown>) => c.callTool({ name, arguments: args });

describe("shared spaces over MCP", () => {
  test("list_spaces lists the spaces the key's user belongs to, and a user of none gets an empty list", async () => {
    const listed = await call(bo, "list_spaces", {});
    expect(bodyOf(listed)).toEqual({
      success: true,
      spaces: [
        {
          space_id: "platform",
          name: "Platform",
          created_at: expect.any(String),
          members: [
            { user_id: "ana", role: "writer" },
            { user_id: "bo", role: "reader" },
          ],
        },
      ],
    });
    expect((listed.content as { text: string }[])[0]!.text).toContain("1. platform (Platform): 2 members");
    expect(bodyOf(await call(cy, "list_spaces", {}))).toEqual({ success: true, spaces: [] });
  });

  test("a writer's add_memories with space_id is found by a reader's search_memory with include_shared", async () => {
    const added = bodyOf(await call(ana, "add_memories", { space_id: "platform", memory: "Grafana lives at :3000" }));
    expect(added).toEqual({ success: true, memory_ids: [expect.any(String)], space_id: "platform" });
    const found = bodyOf(await call(bo, "search_memory", { query: "grafana", include_shared: true })) as {
      results: { memory: string; space_id: string | null }[];
    };
    expect(found.results.map((r) => [r.memory, r.space_id])).toEqual([["Grafana lives at :3000", "platform"]]);
  });

  test("a reader's write and a non-member's read are FORBIDDEN tool results", async () => {
    expect(errorOf(await call(bo, "add_memories", { space_id: "platform", memory: "x" }))).toEqual({
      success: false,
      error: "user 'bo' may read space 'platform' but not write to it",
      code: "FORBIDDEN",
    });
    expect(errorOf(await call(cy, "list_memories", { spaces: ["platform"] }))).toEqual({
      success: false,
      error: "user 'cy' is not a member of space 'platform'",
      code: "FORBIDDEN",
    });
    const mine = bodyOf(await call(cy, "search_memory", { query: "grafana", include_shared: true }));
    expect(mine).toEqual({ results: [] });
  });

  test("promote_memory copies the user's memory into the space, and get_memory reads it with space_id", async () => {
    const [own] = bodyOf(await call(ana, "add_memories", { memory: "Alerts go to #ops-alerts" }))
      .memory_ids as string[];
    const copy = bodyOf(await call(ana, "promote_memory", { memory_id: own, space_id: "platform" })) as {
      id: string;
      promoted_from: string;
    };
    expect(copy.promoted_from).toBe(own!);
    const got = bodyOf(await call(bo, "get_memory", { memory_id: copy.id, space_id: "platform" }));
    expect(got).toMatchObject({ memory: "Alerts go to #ops-alerts", space_id: "platform" });
  });
});
