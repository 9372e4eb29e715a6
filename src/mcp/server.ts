// createMcpServer(context): the SDK's low-level Server answering tools/list and tools/call from
// the tool table. The low-level Server takes plain JSON Schemas (McpServer.registerTool wants zod),
// so the TypeBox schemas of the HTTP API go out unchanged.
import type { TObject } from "@sinclair/typebox";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Services } from "~/services";
import type { Logger } from "~/shared/logger";
import { checkInput } from "~/shared/validate";
import { operator, type Principal } from "~/shared/principal";
import { userScope } from "~/identity/access";
import { VERSION } from "~/version";
import { DEFAULT_AGENT } from "~/memory/memory.schema";
import { findTool, TOOLS, type ToolDef } from "./tools";
import { toolError } from "./errors";

export interface McpContext {
  /** Resolves once the services are ready (stdio builds them only after the handshake). */
  services(): Promise<Services>;
  /**
   * Who the connection is (SPEC §8): the request's key or token over HTTP. Absent: the trusted local
   * operator (stdio, auth off), an admin of the store's organization.
   */
  principal?: Principal;
  /**
   * user_id for calls that omit it: the OpenMemory URL's user, X-User-Id over HTTP (admin keys only), else
   * --user-id / ENGRAM_USER_ID. A key bound to a user always acts as that user.
   */
  defaultUserId?: string;
  /** agent_id for writes that omit it (tools marked `agentDefault`): the OpenMemory URL's client name. */
  defaultAgentId?: string;
  logger: Logger;
}

const INSTRUCTIONS =
  "Engram is the user's long-term memory, shared by all their AI tools. Search it (search_memory) before answering " +
  "anything that may depend on earlier conversations; store durable facts and preferences with add_memories.";

export function createMcpServer(ctx: McpContext): Server {
  const server = new Server(
    { name: "engram", title: "Engram", version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const userOptional = ctx.defaultUserId !== undefined || ctx.principal?.userId !== undefined;
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => describeTool(t, userOptional, ctx.defaultAgentId)),
  }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callTool(ctx, req.params.name, req.params.arguments ?? {}));
  return server;
}

/** A TypeBox schema as plain JSON Schema (TypeBox's symbol keys dropped), with some more names required. */
export function jsonSchema(schema: TObject, require: readonly string[] = []): Tool["inputSchema"] {
  const out = JSON.parse(JSON.stringify(schema)) as Tool["inputSchema"];
  const extra = require.filter((name) => name in (out.properties ?? {}) && !(out.required ?? []).includes(name));
  const required = [...(out.required ?? []), ...extra];
  if (required.length) out.required = required;
  else delete out.required;
  return out;
}

/**
 * user_id stays required in the advertised schema unless the server has a user to fall back on; a
 * connection with an agent of its own names that agent, not 'mcp-agent', as the default of writes.
 */
export function describeTool(t: ToolDef, userOptional: boolean, defaultAgent?: string): Tool {
  const inputSchema = jsonSchema(t.input, userOptional ? [] : ["user_id"]);
  const agentArg = inputSchema.properties?.agent_id as { description?: string } | undefined;
  const ownAgent = (text: string) =>
    t.agentDefault && defaultAgent !== undefined ? text.replaceAll(`'${DEFAULT_AGENT}'`, `'${defaultAgent}'`) : text;
  if (agentArg?.description) agentArg.description = ownAgent(agentArg.description);
  return {
    name: t.name,
    title: t.title,
    description: ownAgent(t.description),
    inputSchema,
    outputSchema: jsonSchema(t.output),
    annotations: t.annotations,
  };
}

/** Fills user_id (every tool) and agent_id (writes) from the connection when the call leaves them out. */
function withDefaults(t: ToolDef, args: Record<string, unknown>, ctx: McpContext): Record<string, unknown> {
  const out = { ...args };
  if (out.user_id === undefined && ctx.principal?.userId === undefined && ctx.defaultUserId !== undefined)
    out.user_id = ctx.defaultUserId;
  if (t.agentDefault && out.agent_id === undefined && ctx.defaultAgentId !== undefined)
    out.agent_id = ctx.defaultAgentId;
  return out;
}

async function callTool(ctx: McpContext, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const t = findTool(name);
  // An unknown tool is a protocol error (the client's tool list is stale), not a tool failure.
  if (!t) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${name}'; call tools/list`);
  const t0 = performance.now();
  const withUser = withDefaults(t, args, ctx);
  let ok = false;
  try {
    // Arguments are checked before waiting for the services, so a bad call fails fast even while the model loads.
    const input = checkInput(t.input, withUser);
    const services = await ctx.services();
    const scope = userScope(ctx.principal ?? operator(services.config.orgId), t.access.write, input);
    const out = await t.run(services, scope, input);
    ok = true;
    return {
      content: [{ type: "text", text: t.render(out, input) }],
      structuredContent: out as Record<string, unknown>,
    };
  } catch (e) {
    return toolError(e, ctx.logger, name);
  } finally {
    if (ctx.logger.enabled("debug"))
      ctx.logger.debug("mcp tool", {
        tool: name,
        user: typeof withUser.user_id === "string" ? withUser.user_id : undefined,
        ok,
        ms: Number((performance.now() - t0).toFixed(2)),
      });
  }
}
