// MCP test helpers: a real SDK Client over an in-memory link to createMcpServer, readers for tool
// results, and the configuration snippets of docs/MCP.md (so the tests run what the docs say).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createMcpServer, type McpContext } from "~/mcp/server";
import { loadConfig, type ServerOptions } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { buildTestApp, type TestApp } from "../support/app";
import { ROOT } from "../support/server-process";

export const TOOL_NAMES = [
  "add_memories",
  "search_memory",
  "list_memories",
  "delete_all_memories",
  "get_memory",
  "update_memory",
  "supersede_memory",
  "promote_memory",
  "list_spaces",
  "delete_memory",
  "graph_search",
  "graph_traverse",
];

/** A real server on a free loopback port (in-memory store, keyword search): for transport tests. */
export async function serveOnPort(options: ServerOptions = {}): Promise<RunningServer> {
  const config = loadConfig({
    options: { storeUrl: "sqlite::memory:", port: 0, ...options },
    env: { HOME: process.env.HOME },
  });
  return startServer(config, { logger: silentLogger(), embedder: null });
}

export async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: "engram-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

export interface InMemoryMcp {
  client: Client;
  /** The same services behind the HTTP app, to compare tool results with HTTP bodies. */
  app: TestApp;
  close(): Promise<void>;
}

/** `ctx` overrides the server's context; as a function it can wrap the app's services. */
export async function inMemoryMcp(
  ctx: Partial<McpContext> | ((app: TestApp) => Partial<McpContext>) = {},
): Promise<InMemoryMcp> {
  const app = await buildTestApp();
  const overrides = typeof ctx === "function" ? ctx(app) : ctx;
  const server = createMcpServer({ services: async () => app.services, logger: app.services.logger, ...overrides });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = await connect(clientSide);
  return { client, app, close: async () => (await client.close(), await server.close(), await app.close()) };
}

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

/** The structuredContent of a result: the HTTP body of the endpoint. */
export const bodyOf = (r: ToolResult): any => r.structuredContent;

/** The text of a result's single text item. */
export function textOf(r: ToolResult): string {
  const content = r.content as { type: string; text?: string }[];
  if (content.length !== 1 || content[0]!.type !== "text")
    throw new Error(`expected one text item, got ${JSON.stringify(content)}`);
  return content[0]!.text!;
}

/** The error envelope of an isError result. */
export function errorOf(r: ToolResult): unknown {
  if (r.isError !== true) throw new Error(`expected an error result, got ${JSON.stringify(r)}`);
  return JSON.parse(textOf(r));
}

export interface McpServerEntry {
  command?: string;
  args?: string[];
  type?: string;
  url?: string;
  headers?: Record<string, string>;
}

/** The `mcpServers.engram` entries of the JSON blocks in docs/MCP.md, in order. */
export function docEntries(): McpServerEntry[] {
  const doc = readFileSync(join(ROOT, "docs", "MCP.md"), "utf8");
  return [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!).mcpServers.engram as McpServerEntry);
}

/** The one shell block of docs/MCP.md that starts with `prefix`. */
export function docCommand(prefix: string): string {
  const doc = readFileSync(join(ROOT, "docs", "MCP.md"), "utf8");
  const lines = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim()).filter((l) => l.startsWith(prefix));
  if (lines.length !== 1) throw new Error(`expected one '${prefix}' block in docs/MCP.md, found ${lines.length}`);
  return lines[0]!;
}
