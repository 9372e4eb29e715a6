// OpenMemory's MCP URLs (SPEC §7 drop-in), so a client configured for OpenMemory only needs the
// host changed. GET /mcp/<client_name>/sse/<user_id> opens the legacy HTTP+SSE transport (the URL
// OpenMemory's install command wrote into client configs); its messages come back on
// POST /mcp/messages/?session_id= or /mcp/<client_name>/sse/<user_id>/messages/ (OpenMemory answered
// both). /mcp/<client_name>/http/<user_id> is its Streamable HTTP URL. The URL's user is the default
// user_id of every call; its client name is the agent new memories are filed under.
import type { Services } from "~/services";
import { AppError, validationError } from "~/shared/errors";
import type { Principal } from "~/shared/principal";
import { connectionUser, loadSdk, type McpHandler, type McpIdentity } from "./mount";
import type { SseTransport } from "./sse-transport";

/** Each open SSE session holds a stream and a Server; past this many, new ones are refused (503). */
export const MAX_SSE_SESSIONS = 1000;
/** Where the stream tells the client to POST, as OpenMemory's server did. */
export const MESSAGES_PATH = "/mcp/messages/";

export interface OpenMemoryMount {
  sse(request: Request, client: string, user: string, principal?: Principal): Promise<Response>;
  message(request: Request, body: unknown, principal?: Principal): Response;
  http(request: Request, body: unknown, client: string, user: string, principal?: Principal): Promise<Response>;
  /** Open SSE sessions now. */
  readonly sessions: number;
  /** Ends every open stream and refuses new ones (shutdown: streams would otherwise hold the drain). */
  close(): Promise<void>;
}

export function createOpenMemoryMount(s: Services, mcp: McpHandler): OpenMemoryMount {
  const open = new Map<string, { transport: SseTransport; principal?: Principal }>();
  let closed = false;
  return {
    get sessions() {
      return open.size;
    },
    async sse(request, client, user, principal) {
      const identity = pathIdentity(client, user);
      connectionUser(principal, identity.userId);
      if (closed) throw new AppError("UNAVAILABLE", "the server is shutting down");
      if (open.size >= MAX_SSE_SESSIONS)
        throw new AppError("UNAVAILABLE", `${MAX_SSE_SESSIONS} MCP SSE sessions are open; retry later or use /mcp`);
      const [, { createMcpServer }, { SseTransport }] = await loadSdk();
      // Random, not time-ordered: the session id is what lets a POST speak for this user.
      const id = crypto.randomUUID();
      const transport = new SseTransport(id, `${MESSAGES_PATH}?session_id=${id}`);
      // Set before connect(): the Server chains its own close handler after this one.
      transport.onclose = () => open.delete(id);
      open.set(id, { transport, principal });
      const server = createMcpServer({
        services: async () => s,
        principal,
        defaultUserId: identity.userId,
        defaultAgentId: identity.agentId,
        logger: s.logger,
      });
      await server.connect(transport);
      request.signal.addEventListener("abort", () => void transport.close());
      return new Response(transport.stream, {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" },
      });
    },
    message(request, body, principal) {
      const url = new URL(request.url);
      // session_id is what OpenMemory's (Python) server announced; the TypeScript SDK's servers say sessionId.
      const id = url.searchParams.get("session_id") ?? url.searchParams.get("sessionId");
      if (!id) throw validationError("session_id", "session_id is required: POST to the URL the SSE stream announced");
      const session = open.get(id);
      // A session speaks only for the principal that opened it: another key's POST finds no such session.
      if (!session || !samePrincipal(session.principal, principal))
        throw new AppError("NOT_FOUND", `MCP session '${id}' not found; open the SSE stream again`);
      if (!session.transport.receive(body)) throw validationError("body", "the body is not a JSON-RPC message");
      return new Response("Accepted", { status: 202 });
    },
    http: (request, body, client, user, principal) => mcp(request, body, pathIdentity(client, user), principal),
    async close() {
      closed = true;
      await Promise.all([...open.values()].map((o) => o.transport.close()));
    },
  };
}

const samePrincipal = (a?: Principal, b?: Principal) => a?.org === b?.org && a?.id === b?.id;

/** The URL's user and client name, within the limits user_id and agent_id have everywhere else. */
function pathIdentity(client: string, user: string): McpIdentity {
  if (!user.trim() || user.length > 256) throw validationError("user_id", "the URL's user_id must be 1–256 characters");
  if (!client.trim() || client.length > 256)
    throw validationError("client_name", "the URL's client name must be 1–256 characters");
  return { userId: user, agentId: client };
}
