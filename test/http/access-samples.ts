// One valid request per route of the app (keyed "METHOD /path" as the route table names it, without
// /v1), built on the access matrix's fixture, with the variants that name another user or agent. A new
// route needs a sample here, or the matrix fails naming it.
import { getTemplate } from "~/governance/templates";

export interface Fixture {
  user: string;
  agent: string;
  org: string;
  memoryId: string;
  conversationId: string;
  sessionId: string;
  /** A key of the organization that no caller uses (revoked by the DELETE sample). */
  keyId: string;
  /** A shared space of the organization, the user a writer in it. */
  space: string;
}

export interface Request {
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Sample = (f: Fixture) => Request & { otherUser?: Request; otherAgent?: Request };

const MCP_HEADERS = { accept: "application/json, text/event-stream" };
const LIST_TOOLS = { jsonrpc: "2.0", id: 1, method: "tools/list" };
const PERIOD = { start: "2026-01-01T00:00:00Z", end: "2027-01-01T00:00:00Z" };

/** A request naming the user in its body, with the variant naming "bob" (and another agent, when it names one). */
function bodyOf(path: string, body: Record<string, unknown>): Request & { otherUser: Request; otherAgent?: Request } {
  return {
    path,
    body,
    otherUser: { path, body: { ...body, user_id: "bob" } },
    ...("agent_id" in body ? { otherAgent: { path, body: { ...body, agent_id: "other-agent" } } } : {}),
  };
}

function queryOf(path: string, query: Record<string, string>): Request & { otherUser: Request; otherAgent?: Request } {
  return {
    path,
    query,
    otherUser: { path, query: { ...query, user_id: "bob" } },
    ...("agent_id" in query ? { otherAgent: { path, query: { ...query, agent_id: "other-agent" } } } : {}),
  };
}

const record = "/kb-article/passport";
const key = "/prefs/theme";

export const SAMPLES: Record<string, Sample> = {
  "GET /health": () => ({ path: "/health" }),
  "GET /ready": () => ({ path: "/ready" }),
  "GET /metrics": () => ({ path: "/metrics" }),
  "GET /swagger": () => ({ path: "/swagger" }),
  "GET /swagger/json": () => ({ path: "/swagger/json" }),
  "GET /swagger/assets/:file": () => ({ path: "/swagger/assets/swagger-ui.css" }),

  "POST /add_memories": (f) =>
    bodyOf("/add_memories", { user_id: f.user, agent_id: f.agent, memory: "Alice likes tea" }),
  "POST /search_memory": (f) => bodyOf("/search_memory", { user_id: f.user, agent_id: f.agent, query: "dark mode" }),
  "GET /list_memories": (f) => queryOf("/list_memories", { user_id: f.user, agent_id: f.agent }),
  "POST /delete_all_memories": (f) => bodyOf("/delete_all_memories", { user_id: f.user }),
  "GET /get_memory": (f) => queryOf("/get_memory", { user_id: f.user, memory_id: f.memoryId }),
  "POST /update_memory": (f) =>
    bodyOf("/update_memory", { user_id: f.user, memory_id: f.memoryId, memory: "Alice prefers light mode" }),
  "DELETE /delete_memory": (f) => queryOf("/delete_memory", { user_id: f.user, memory_id: f.memoryId }),
  "GET /memories/:id/versions": (f) => queryOf(`/memories/${f.memoryId}/versions`, { user_id: f.user }),
  "POST /memories/:id/supersede": (f) =>
    bodyOf(`/memories/${f.memoryId}/supersede`, { user_id: f.user, memory: "Alice prefers green tea" }),

  "POST /conversations": (f) =>
    bodyOf("/conversations", { user_id: f.user, agent_id: f.agent, messages: [{ role: "user", content: "hello" }] }),
  "POST /conversations/:id/messages": (f) =>
    bodyOf(`/conversations/${f.conversationId}/messages`, {
      user_id: f.user,
      messages: [{ role: "assistant", content: "hi there" }],
    }),
  "GET /conversations/:id": (f) => queryOf(`/conversations/${f.conversationId}`, { user_id: f.user }),
  "GET /conversations": (f) => queryOf("/conversations", { user_id: f.user }),

  "PUT /immutable/:type/:id": () => ({ path: `/immutable${record}`, body: { data: { title: "Passports v2" } } }),
  "GET /immutable/:type/:id": () => ({ path: `/immutable${record}` }),
  "GET /immutable/:type/:id/versions": () => ({ path: `/immutable${record}/versions` }),
  "PUT /mutable/:namespace/:key": () => ({ path: `/mutable${key}`, body: { value: "light" } }),
  "GET /mutable/:namespace/:key": () => ({ path: `/mutable${key}` }),
  "DELETE /mutable/:namespace/:key": () => ({ path: `/mutable${key}` }),

  "POST /governance/policies": (f) => ({
    path: "/governance/policies",
    body: { ...getTemplate("SOC2"), organizationId: f.org },
  }),
  "GET /governance/policies": (f) => ({ path: "/governance/policies", query: { organizationId: f.org } }),
  "DELETE /governance/policies": (f) => ({ path: "/governance/policies", query: { organizationId: f.org } }),
  "PUT /governance/overrides/:memorySpaceId": (f) => ({
    path: `/governance/overrides/${f.agent}`,
    body: { vector: { retention: { defaultVersions: 3 } } },
  }),
  "GET /governance/templates/:name": () => ({ path: "/governance/templates/HIPAA" }),
  "POST /governance/enforce": (f) => ({ path: "/governance/enforce", body: { scope: { organizationId: f.org } } }),
  "POST /governance/simulate": (f) => ({
    path: "/governance/simulate",
    body: { organizationId: f.org, vector: { retention: { defaultVersions: 1 } } },
  }),
  "POST /governance/compliance-report": (f) => ({
    path: "/governance/compliance-report",
    body: { organizationId: f.org, period: PERIOD },
  }),
  "GET /governance/stats": () => ({ path: "/governance/stats", query: { period: "30d" } }),
  "GET /governance/audit": () => ({ path: "/governance/audit", query: { from: "0" } }),

  "POST /graph/entities": (f) =>
    bodyOf("/graph/entities", { user_id: f.user, entities: [{ type: "place", id: "oslo", name: "Oslo" }] }),
  "POST /graph/relationships": (f) =>
    bodyOf("/graph/relationships", {
      user_id: f.user,
      relationships: [{ from: { type: "person", id: "ann" }, type: "KNOWS", to: { type: "person", id: "ann" } }],
    }),
  "GET /graph/entities": (f) => queryOf("/graph/entities", { user_id: f.user, q: "ann" }),
  "POST /graph/traverse": (f) =>
    bodyOf("/graph/traverse", { user_id: f.user, start: { type: "person", id: "ann" }, max_depth: 1 }),

  "POST /sessions": (f) => bodyOf("/sessions", { user_id: f.user, agent_id: f.agent, device: "web" }),
  "POST /sessions/expire-idle": () => ({ path: "/sessions/expire-idle" }),
  "POST /sessions/cleanup": () => ({ path: "/sessions/cleanup" }),
  "GET /sessions": (f) => queryOf("/sessions", { user_id: f.user, agent_id: f.agent }),
  "GET /sessions/:id": (f) => queryOf(`/sessions/${f.sessionId}`, { user_id: f.user }),
  "POST /sessions/:id/touch": (f) => bodyOf(`/sessions/${f.sessionId}/touch`, { user_id: f.user }),
  "POST /sessions/:id/end": (f) => bodyOf(`/sessions/${f.sessionId}/end`, { user_id: f.user }),

  "POST /admin/keys": () => ({ path: "/admin/keys", body: { role: "member", user_id: "carol" } }),
  "GET /admin/keys": () => ({ path: "/admin/keys" }),
  "DELETE /admin/keys/:id": (f) => ({ path: `/admin/keys/${f.keyId}` }),
  "GET /audit": () => ({ path: "/audit", query: { limit: "5" } }),

  "POST /spaces": (f) => ({
    path: "/spaces",
    body: { space_id: "ops", name: "Ops", members: [{ user_id: f.user, role: "writer" }] },
  }),
  "GET /spaces": () => ({ path: "/spaces" }),
  "GET /spaces/:id": (f) => ({ path: `/spaces/${f.space}` }),
  "PUT /spaces/:id/members": (f) => ({
    path: `/spaces/${f.space}/members`,
    body: { members: [{ user_id: f.user, role: "reader" }] },
  }),
  "DELETE /spaces/:id": (f) => ({ path: `/spaces/${f.space}` }),
  "POST /memories/:id/promote": (f) =>
    bodyOf(`/memories/${f.memoryId}/promote`, { user_id: f.user, space_id: f.space }),

  // The MCP transports: any caller with a valid key; each tool call then applies its own rule.
  "ALL /mcp": () => ({ path: "/mcp", body: LIST_TOOLS, headers: MCP_HEADERS }),
  "GET /mcp/:client/sse/:user": (f) => ({
    path: `/mcp/cursor/sse/${f.user}`,
    otherUser: { path: "/mcp/cursor/sse/bob" },
  }),
  "POST /mcp/messages/": () => ({ path: "/mcp/messages/", query: { session_id: "no-such-session" }, body: LIST_TOOLS }),
  "POST /mcp/:client/sse/:user/messages/": (f) => ({
    path: `/mcp/cursor/sse/${f.user}/messages/`,
    query: { session_id: "no-such-session" },
    body: LIST_TOOLS,
  }),
  "ALL /mcp/:client/http/:user": (f) => ({
    path: `/mcp/cursor/http/${f.user}`,
    body: LIST_TOOLS,
    headers: MCP_HEADERS,
    otherUser: { path: "/mcp/cursor/http/bob", body: LIST_TOOLS, headers: MCP_HEADERS },
  }),
};
