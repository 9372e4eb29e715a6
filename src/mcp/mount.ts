// The /mcp endpoint: MCP Streamable HTTP in stateless mode, as a web-standard Request → Response
// handler that app.ts mounts behind the usual pipeline (bearer auth, body limit, CORS).
import type { Services } from "~/services";
import type { Principal } from "~/shared/principal";
import { forbidden } from "~/identity/access";

/**
 * The SDK is loaded on the first MCP request: importing it costs ~60 ms of every server start. The SSE
 * transport comes with it (it validates messages with the SDK's schema, and zod with that).
 */
let sdk: Promise<
  [
    typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    typeof import("./server"),
    typeof import("./sse-transport"),
  ]
> | null = null;
export const loadSdk = () =>
  (sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("./server"),
    import("./sse-transport"),
  ]));

/** Who a connection speaks for when its URL says so (OpenMemory's /mcp/<client>/http/<user>). */
export interface McpIdentity {
  userId: string;
  /** The agent new memories are filed under when a call names none. */
  agentId?: string;
}

/** `principal`: who sent the request (the pipeline's; absent = the local operator). */
export type McpHandler = (
  request: Request,
  parsedBody?: unknown,
  identity?: McpIdentity,
  principal?: Principal,
) => Promise<Response>;

/**
 * Stateless: a fresh Server and transport per request, as the SDK requires (a stateless transport
 * refuses a second request, since JSON-RPC ids of different clients would collide).
 * `parsedBody`: the pipeline has already read and parsed a JSON body, so the stream is spent.
 */
export function createMcpHandler(s: Services): McpHandler {
  const services = async () => s;
  return async (request, parsedBody, identity, principal) => {
    // No sessions means no server-initiated stream (GET) and nothing to end (DELETE); the SDK
    // client takes 405 on GET as "no stream offered" and on DELETE as "no session to end".
    if (request.method !== "POST") return methodNotAllowed();
    const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await loadSdk();
    const server = createMcpServer({
      services,
      principal,
      defaultUserId: connectionUser(principal, identity?.userId ?? headerUser(request)) ?? s.config.userId,
      defaultAgentId: identity?.agentId,
      logger: s.logger,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      // One JSON answer per POST: our tools send no progress, and the request is complete (and
      // timed by the metrics) when the response is.
      enableJsonResponse: true,
      maxRequestBodySize: s.config.maxBodyBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    } finally {
      await server.close();
    }
  };
}

/**
 * The user a connection names (OpenMemory URL, X-User-Id) as a default for calls: any user for an admin
 * key, for a key bound to a user only that user (SPEC §8: X-User-Id cannot override a bound key).
 */
export function connectionUser(principal: Principal | undefined, named: string | undefined): string | undefined {
  if (named === undefined || principal === undefined) return named;
  if (principal.userId !== undefined && named !== principal.userId)
    throw forbidden(`this key acts only as user '${principal.userId}'`);
  if (principal.role !== "admin" && principal.userId === undefined)
    throw forbidden("only an admin key may choose the user with X-User-Id");
  return named;
}

function headerUser(request: Request): string | undefined {
  return request.headers.get("x-user-id")?.trim() || undefined;
}

function methodNotAllowed(): Response {
  const body = {
    jsonrpc: "2.0",
    error: { code: -32000, message: "Method not allowed: this stateless MCP endpoint answers POST only" },
    id: null,
  };
  return new Response(JSON.stringify(body), {
    status: 405,
    headers: { "content-type": "application/json", allow: "POST" },
  });
}
