// `engram mcp` as a real process: through the SDK's stdio client (with the Claude Desktop entries
// of docs/MCP.md), and raw, to check that stdout carries nothing but protocol and that it exits cleanly.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ROOT, tempDir } from "../support/server-process";
import { connect, docEntries, errorOf, textOf, TOOL_NAMES } from "./support";
import { createEngram } from "~/index";

const CLI = join(ROOT, "src/cli/index.ts");
const ENV = {
  PATH: process.env.PATH!,
  HOME: process.env.HOME!,
  XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(process.env.HOME!, ".cache"),
};
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

const spawnClient = async (command: string, args: string[], env: Record<string, string> = {}) => {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...ENV, ...env },
    cwd: tempDir(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = await connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
};
const store = () => `--store-url=sqlite://${tempDir()}/mcp.db`;
/** A docs entry run as written, pointed at a fresh store and without the embedding model. */
const fromDocs = (pick: (e: { command?: string }) => boolean, env?: Record<string, string>) => {
  const entry = docEntries().find(pick)!;
  const args = entry.args!.map((a) => a.replace("/path/to/engram", ROOT));
  return spawnClient(entry.command!, [...args, store(), "--embedding-model=none"], env);
};
const memories = async (c: Client, args: Record<string, unknown> = {}) =>
  (
    (await c.callTool({ name: "list_memories", arguments: args })).structuredContent as {
      results: { memory: string }[];
    }
  ).results.map((r) => r.memory);

describe("engram mcp through the SDK stdio client", () => {
  test("the from-source Claude Desktop entry of docs/MCP.md works, with --user-id as the default user", async () => {
    const { client } = await fromDocs((e) => e.command === "bun");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const added = await client.callTool({ name: "add_memories", arguments: { memory: "I keep my notes in Obsidian" } });
    expect(textOf(added)).toStartWith("Stored 1 memory (id: ");
    expect(await memories(client)).toEqual(["I keep my notes in Obsidian"]);
    expect(await memories(client, { user_id: "me" })).toEqual(["I keep my notes in Obsidian"]);
    expect(await memories(client, { user_id: "someone-else" })).toEqual([]);
  });

  test("the installed-binary entry of docs/MCP.md works with `engram` on the PATH", async () => {
    const bin = tempDir();
    writeFileSync(join(bin, "engram"), `#!/bin/sh\nexec bun "${CLI}" "$@"\n`);
    chmodSync(join(bin, "engram"), 0o755);
    const { client } = await fromDocs((e) => e.command === "engram", { PATH: `${bin}:${ENV.PATH}` });
    await client.callTool({ name: "add_memories", arguments: { memory: "installed" } });
    expect(await memories(client)).toEqual(["installed"]);
  });

  test("without a default user, user_id is required and a call without it is a VALIDATION_ERROR on user_id", async () => {
    const { client } = await spawnClient("bun", [CLI, "mcp", store(), "--embedding-model=none"]);
    expect((await client.listTools()).tools.find((t) => t.name === "add_memories")!.inputSchema.required).toEqual([
      "user_id",
    ]);
    const r = await client.callTool({ name: "add_memories", arguments: { memory: "whose?" } });
    expect(errorOf(r)).toEqual({
      success: false,
      error: "user_id is required",
      code: "VALIDATION_ERROR",
      field: "user_id",
    });
    const bad = await client.callTool({ name: "search_memory", arguments: { user_id: "u", query: "" } });
    expect(errorOf(bad)).toEqual({
      success: false,
      error: "query: must not be empty",
      code: "VALIDATION_ERROR",
      field: "query",
    });
  });

  test("answers the handshake before opening the store, and tool calls report a store that cannot open", async () => {
    const { client, stderr } = await spawnClient("bun", [
      CLI,
      "mcp",
      "--store-url=/dev/null/engram.db",
      "--embedding-model=none",
      "--user-id=me",
    ]);
    expect(client.getServerVersion()).toEqual({ name: "engram", title: "Engram", version: "0.1.0" });
    expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    const r = errorOf(await client.callTool({ name: "list_memories", arguments: {} })) as {
      error: string;
      code: string;
    };
    expect(r.code).toBe("UNAVAILABLE");
    expect(r.error).toStartWith("engram could not start: ");
    expect(r.error).toContain("/dev/null");
    expect(stderr()).toContain("ERROR engram could not start error=");
  });
});

describe("engram mcp as a raw process", () => {
  const rpc = (id: number | null, method: string, params: unknown = {}) =>
    JSON.stringify(id === null ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", id, method, params }) + "\n";
  const INIT = rpc(1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  });

  /** `engram mcp` with these arguments, its three standard streams piped. */
  const spawnMcp = (args: string[], env: Record<string, string> = ENV) =>
    Bun.spawn(["bun", CLI, "mcp", ...args], { env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });

  /** Reads stdout until `count` lines have arrived. */
  async function readLines(
    reader: { read(): Promise<{ value?: Uint8Array; done: boolean }> },
    count: number,
  ): Promise<string[]> {
    let buf = "";
    while (buf.split("\n").length <= count) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += new TextDecoder().decode(value);
    }
    return buf.split("\n").filter(Boolean);
  }

  test("writes only JSON-RPC lines to stdout, logs to stderr, takes ENGRAM_USER_ID and exits 0 when stdin closes", async () => {
    const proc = spawnMcp([store(), "--embedding-model=none", "--log-level=debug"], {
      ...ENV,
      ENGRAM_USER_ID: "env-user",
    });
    proc.stdin.write(
      INIT +
        rpc(null, "notifications/initialized") +
        rpc(2, "tools/call", { name: "add_memories", arguments: { memory: "raw" } }),
    );
    proc.stdin.flush();
    const lines = await readLines(proc.stdout.getReader(), 2);
    proc.stdin.end();
    expect(await proc.exited).toBe(0);
    const messages = lines.map((l) => JSON.parse(l));
    expect(messages.map((m) => [m.jsonrpc, m.id])).toEqual([
      ["2.0", 1],
      ["2.0", 2],
    ]);
    expect(messages[1].result.structuredContent.success).toBe(true);
    expect(await new Response(proc.stderr).text()).toMatch(
      /DEBUG mcp tool tool="add_memories" user="env-user" ok=true ms=[\d.]+\n/,
    );
  });

  test("finishes a call sent just before stdin closes: answered, stored, then exit 0", async () => {
    const db = `${tempDir()}/eof.db`;
    const proc = spawnMcp([`--store-url=sqlite://${db}`, "--embedding-model=none"]);
    proc.stdin.write(
      INIT +
        rpc(null, "notifications/initialized") +
        rpc(2, "tools/call", { name: "add_memories", arguments: { user_id: "u", memory: "sent before EOF" } }),
    );
    proc.stdin.end();
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const replies = out
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(replies.map((m) => m.id)).toEqual([1, 2]);
    expect(replies[1].result.structuredContent.success).toBe(true);
    const engram = await createEngram({ storeUrl: `sqlite://${db}`, embedding: { provider: "none" } });
    try {
      expect((await engram.listMemories({ user_id: "u" })).results.map((r) => r.memory)).toEqual(["sent before EOF"]);
    } finally {
      await engram.close();
    }
  });

  test("exits 0 on SIGTERM", async () => {
    const proc = spawnMcp([store(), "--embedding-model=none"]);
    proc.stdin.write(INIT);
    proc.stdin.flush();
    expect(JSON.parse((await readLines(proc.stdout.getReader(), 1))[0]!).result.serverInfo.name).toBe("engram");
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  });
});
