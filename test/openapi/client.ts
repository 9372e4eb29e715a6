// A small HTTP client typed only by engram-api.d.ts (openapi-typescript's output for docs/openapi.json),
// and a tour that calls every route once. test/openapi/client.test.ts runs the tour against a real
// server and also compiles this file alone with strict tsc, as a consumer of the generated types would.
import type { paths } from "./engram-api";

type Method = "get" | "post" | "put" | "delete";
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends undefined ? never : P }[keyof paths];
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Params<O> = O extends { parameters: infer X } ? Omit<X, "header" | "cookie"> : never;
type Body<O> = O extends { requestBody: { content: { "application/json": infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { "application/json": infer B } } }
    ? { body?: B }
    : {};
type Init<O> = Params<O> & Body<O>;
type Ok<O> = O extends { responses: { 200: { content: { "application/json": infer R } } } } ? R : never;

export interface Exchange {
  method: string;
  /** The route as the document names it, e.g. /memories/{id}/versions. */
  route: string;
  status: number;
  body: unknown;
}

export function createClient(baseUrl: string, apiKey?: string) {
  const exchanges: Exchange[] = [];
  async function send(method: Method, route: string, init: { path?: object; query?: object; body?: unknown }) {
    const path = route.replace(/\{(\w+)\}/g, (_, k: string) =>
      encodeURIComponent(String((init.path as Record<string, unknown>)[k])),
    );
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${baseUrl}${path}${query.size ? `?${query}` : ""}`, {
      method: method.toUpperCase(),
      headers,
      body: init.body === undefined ? null : JSON.stringify(init.body),
    });
    const body: unknown = await res.json();
    exchanges.push({ method: method.toUpperCase(), route, status: res.status, body });
    if (res.status !== 200)
      throw new Error(`${method.toUpperCase()} ${route} answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  }
  const verb =
    <M extends Method>(m: M) =>
    <P extends PathsWith<M>>(route: P, init: Init<Op<P, M>>): Promise<Ok<Op<P, M>>> =>
      send(m, route, init) as Promise<Ok<Op<P, M>>>;
  return { get: verb("get"), post: verb("post"), put: verb("put"), delete: verb("delete"), exchanges };
}

/** Calls every route once, in an order where each finds what it needs; returns what was exchanged. */
export async function callEveryRoute(baseUrl: string, apiKey?: string): Promise<Exchange[]> {
  const c = createClient(baseUrl, apiKey);
  const user = "alice";
  await c.get("/health", {});
  await c.get("/ready", {});
  const added = await c.post("/add_memories", { body: { user_id: user, memory: "Alice prefers dark mode" } });
  const id = added.memory_ids[0] ?? "";
  await c.post("/search_memory", { body: { user_id: user, query: "dark mode", limit: 5 } });
  await c.post("/add_memories", {
    body: { user_id: user, session_id: "s1", messages: [{ role: "user", content: "Bob likes sailing" }] },
  });
  const page = await c.get("/list_memories", { query: { user_id: user, limit: 1 } });
  await c.get("/list_memories", { query: { user_id: user, limit: 1, cursor: page.next_cursor ?? "" } });
  await c.get("/get_memory", { query: { memory_id: id, user_id: user } });
  await c.post("/update_memory", { body: { memory_id: id, user_id: user, memory: "Alice prefers light mode" } });
  const next = await c.post("/memories/{id}/supersede", {
    path: { id },
    body: { user_id: user, memory: "Alice prefers the system theme" },
  });
  await c.get("/memories/{id}/versions", { path: { id: next.id }, query: { user_id: user } });
  await c.get("/list_memories", { query: { user_id: user, include_superseded: true } });
  await c.post("/search_memory", { body: { user_id: user, query: "theme", include_superseded: true } });
  await c.delete("/delete_memory", { query: { memory_id: next.id, user_id: user } });
  await c.delete("/delete_memory", { query: { memory_id: id, user_id: user } });

  const conv = await c.post("/conversations", { body: { user_id: user, messages: [{ role: "user", content: "hi" }] } });
  await c.post("/conversations/{id}/messages", {
    path: { id: conv.id },
    body: { user_id: user, messages: [{ role: "assistant", content: "hello" }] },
  });
  await c.get("/conversations/{id}", { path: { id: conv.id }, query: { user_id: user } });
  await c.get("/conversations", { query: { user_id: user } });

  const record = { type: "kb-article", id: "passport" };
  await c.put("/immutable/{type}/{id}", { path: record, body: { data: { title: "Passports" } } });
  await c.get("/immutable/{type}/{id}", { path: record, query: { version: 1 } });
  await c.get("/immutable/{type}/{id}/versions", { path: record });
  const key = { namespace: "prefs", key: "theme" };
  await c.put("/mutable/{namespace}/{key}", { path: key, body: { value: "dark", ttl: "30d" } });
  await c.get("/mutable/{namespace}/{key}", { path: key });
  await c.delete("/mutable/{namespace}/{key}", { path: key });

  const ann = { type: "person", id: "ann" };
  await c.post("/graph/entities", {
    body: {
      user_id: user,
      entities: [
        { ...ann, name: "Ann" },
        { type: "place", id: "oslo" },
      ],
    },
  });
  await c.post("/graph/relationships", {
    body: { user_id: user, relationships: [{ from: ann, type: "LIVES_IN", to: { type: "place", id: "oslo" } }] },
  });
  await c.get("/graph/entities", { query: { user_id: user, q: "ann" } });
  await c.post("/graph/traverse", { body: { user_id: user, start: ann, max_depth: 2 } });

  const session = await c.post("/sessions", { body: { user_id: user, device: "web" } });
  const sid = { id: session.session.id };
  await c.get("/sessions", { query: { user_id: user, state: "active" } });
  await c.get("/sessions/{id}", { path: sid, query: { user_id: user } });
  await c.post("/sessions/{id}/touch", { path: sid, body: { user_id: user } });
  await c.post("/sessions/{id}/end", { path: sid, body: { user_id: user } });
  await c.post("/sessions/expire-idle", {});
  await c.post("/sessions/cleanup", { body: { user_id: user } });

  const gdpr = await c.get("/governance/templates/{name}", { path: { name: "GDPR" } });
  await c.post("/governance/policies", { body: { ...gdpr, organizationId: "acme" } });
  await c.get("/governance/policies", { query: { organizationId: "acme" } });
  await c.put("/governance/overrides/{memorySpaceId}", {
    path: { memorySpaceId: "travel-bot" },
    body: { organizationId: "acme", vector: { retention: { defaultVersions: 3 } } },
  });
  await c.post("/governance/simulate", {
    body: { organizationId: "acme", vector: { retention: { defaultVersions: 1 } } },
  });
  await c.post("/governance/enforce", { body: { scope: { organizationId: "acme" } } });
  await c.post("/governance/compliance-report", {
    body: { organizationId: "acme", period: { start: "2026-01-01T00:00:00Z", end: "2027-01-01T00:00:00Z" } },
  });
  await c.get("/governance/stats", { query: { period: "30d" } });
  await c.get("/governance/audit", { query: { from: 0, limit: 100 } });
  await c.delete("/governance/policies", { query: { memorySpaceId: "travel-bot" } });
  await c.get("/metrics", {});

  const created = await c.post("/admin/keys", {
    body: { role: "member", user_id: user, agent_id: "cursor", name: "Alice's Cursor", expires: "90d" },
  });
  await c.get("/admin/keys", {});
  await c.delete("/admin/keys/{id}", { path: { id: created.id } });
  await c.get("/audit", { query: { user_id: user, limit: 10 } });

  const team = { id: "platform" };
  await c.post("/spaces", {
    body: { space_id: team.id, name: "Platform team", members: [{ user_id: user, role: "reader" }] },
  });
  await c.put("/spaces/{id}/members", { path: team, body: { members: [{ user_id: user, role: "writer" }] } });
  await c.get("/spaces", {});
  await c.get("/spaces/{id}", { path: team });
  const own = await c.post("/add_memories", { body: { user_id: user, memory: "The deploy window is Tuesday" } });
  await c.post("/add_memories", {
    body: { user_id: user, space_id: team.id, memory: "Staging runs on port 8443" },
  });
  const promoted = await c.post("/memories/{id}/promote", {
    path: { id: own.memory_ids[0] ?? "" },
    body: { user_id: user, space_id: team.id },
  });
  await c.get("/get_memory", { query: { memory_id: promoted.id, user_id: user, space_id: team.id } });
  await c.post("/search_memory", { body: { user_id: user, query: "staging port", include_shared: true } });
  await c.get("/list_memories", { query: { user_id: user, spaces: [team.id], limit: 1 } });
  await c.delete("/spaces/{id}", { path: team });
  await c.post("/delete_all_memories", { body: { user_id: user, cascade: true } });
  return c.exchanges;
}
