// Two organizations on one server (SPEC §8, issue 18 item 3): organization B — its admin key, its member
// key for "alice" and an OIDC login of its "alice" — attacks organization A's data by id, search, list
// cursor, graph, MCP (the official SDK client over HTTP), audit, governance reports, sessions, layers,
// spaces, key revocation and caches. Another organization's ids are 404, its data never answers.
// A real server on a real port, on the store under test (ENGRAM_TEST_STORE=postgres for PostgreSQL).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bodyOf, errorOf } from "../mcp/support";
import { getTemplate } from "~/governance/templates";
import { twoOrgs, type TwoOrgs } from "./support";

let o: TwoOrgs;
beforeAll(async () => {
  o = await twoOrgs();
}, 120_000);
afterAll(() => o?.close());

const notFound = (what: string, id: string) => ({
  success: false,
  error: `${what} '${id}' not found`,
  code: "NOT_FOUND",
});
/** B's three callers, each acting for its own "alice" (the admin names her). */
const attackers = () => [
  { name: "B's admin key", who: o.b.admin, user: "?user_id=alice", body: { user_id: "alice" } },
  { name: "B's member key", who: o.b.alice, user: "", body: {} },
  { name: "B's OIDC token", who: o.b.sso, user: "", body: {} },
];
const q = (user: string) => (user ? `${user}&` : "?");

describe("two organizations on one server", () => {
  test("B's callers get 404 for A's memory by id: get, versions, update, supersede, delete", async () => {
    const id = o.ids.memory;
    for (const { who, user, body } of attackers()) {
      expect(await who.get(`/get_memory${q(user)}memory_id=${id}`)).toEqual({
        status: 404,
        body: notFound("memory", id),
      });
      expect(await who.get(`/memories/${id}/versions${user}`)).toEqual({ status: 404, body: notFound("memory", id) });
      expect(await who.post("/update_memory", { ...body, memory_id: id, memory: "B was here" })).toEqual({
        status: 404,
        body: notFound("memory", id),
      });
      expect(await who.post(`/memories/${id}/supersede`, { ...body, memory: "B was here" })).toEqual({
        status: 404,
        body: notFound("memory", id),
      });
      expect(await who.call("DELETE", `/delete_memory${q(user)}memory_id=${id}`)).toEqual({
        status: 404,
        body: notFound("memory", id),
      });
    }
    const mine = await o.a.alice.get(`/get_memory?memory_id=${id}`);
    expect([mine.status, mine.body.memory, mine.body.version]).toEqual([200, "Alice keeps bees on the roof", 1]);
  });

  test("a search A's alice warmed the cache with finds nothing for B's alices, by key, by token and by admin", async () => {
    const query = { query: "bees on the roof" };
    const ours = await o.a.alice.post("/search_memory", query);
    expect(ours.body.results.map((r: { id: string }) => r.id)).toContain(o.ids.memory);
    expect((await o.a.alice.post("/search_memory", query)).body.results[0].id).toBe(ours.body.results[0].id);
    for (const { who, body } of attackers()) {
      const theirs = await who.post("/search_memory", { ...body, ...query });
      expect([theirs.status, theirs.body.results]).toEqual([200, []]);
      const shared = await who.post("/search_memory", { ...body, query: "hive inspection", include_shared: true });
      expect([shared.status, shared.body.results]).toEqual([200, []]);
    }
  });

  test("B's listing with A's cursor is B's own (empty) page, and B's totals count nothing of A's", async () => {
    const first = await o.a.alice.get("/list_memories?limit=1");
    expect([first.body.results.length, first.body.total, typeof first.body.next_cursor]).toEqual([1, 2, "string"]);
    const cursor = encodeURIComponent(first.body.next_cursor);
    for (const { who, user } of attackers())
      expect(await who.get(`/list_memories${q(user)}limit=1&cursor=${cursor}`)).toEqual({
        status: 200,
        body: { results: [], total: 0, has_more: false, next_cursor: null },
      });
  });

  test("B's graph has none of A's entities: find by name is empty, a walk from A's entity is 404", async () => {
    for (const { who, user, body } of attackers()) {
      expect(await who.get(`/graph/entities${q(user)}q=bob`)).toEqual({
        status: 200,
        body: { success: true, results: [] },
      });
      const walk = await who.post("/graph/traverse", { ...body, start: { type: "person", id: "bob" }, max_depth: 2 });
      expect(walk).toEqual({ status: 404, body: { ...notFound("entity", "person/bob"), field: "start" } });
    }
    const ours = await o.a.alice.get("/graph/entities?q=bob");
    expect(ours.body.results.map((e: { id: string }) => e.id)).toEqual(["bob"]);
  });

  test("over MCP (SDK client, HTTP) B's alice finds, reads, changes and deletes none of A's memories", async () => {
    for (const who of [o.b.alice, o.b.sso]) {
      const c = await who.mcp();
      const call = (name: string, args: Record<string, unknown>) => c.callTool({ name, arguments: args });
      const id = o.ids.memory;
      const missing = { success: false, error: `memory '${id}' not found`, code: "NOT_FOUND" };
      expect(errorOf(await call("get_memory", { memory_id: id }))).toMatchObject(missing);
      expect(errorOf(await call("update_memory", { memory_id: id, memory: "B" }))).toMatchObject(missing);
      expect(errorOf(await call("delete_memory", { memory_id: id }))).toMatchObject(missing);
      expect(errorOf(await call("supersede_memory", { memory_id: id, memory: "B" }))).toMatchObject(missing);
      expect(bodyOf(await call("search_memory", { query: "bees on the roof", include_shared: true })).results).toEqual(
        [],
      );
      expect(bodyOf(await call("list_memories", {}))).toMatchObject({ results: [], total: 0 });
      expect(bodyOf(await call("graph_search", { q: "bob" })).results).toEqual([]);
      expect(bodyOf(await call("list_spaces", {}))).toEqual({ success: true, spaces: [] });
    }
    expect((await o.a.alice.get(`/get_memory?memory_id=${o.ids.memory}`)).status).toBe(200);
  });

  test("B's sessions and conversations: A's ids are 404 for reading, touching, ending and appending", async () => {
    const { session, conversation } = o.ids;
    for (const { who, user, body } of attackers()) {
      expect(await who.get(`/sessions/${session}${user}`)).toEqual({ status: 404, body: notFound("session", session) });
      expect(await who.post(`/sessions/${session}/touch`, body)).toEqual({
        status: 404,
        body: notFound("session", session),
      });
      expect(await who.post(`/sessions/${session}/end`, body)).toEqual({
        status: 404,
        body: notFound("session", session),
      });
      expect((await who.get(`/sessions${user}`)).body.results).toEqual([]);
      expect(await who.get(`/conversations/${conversation}${user}`)).toEqual({
        status: 404,
        body: notFound("conversation", conversation),
      });
      expect(
        await who.post(`/conversations/${conversation}/messages`, {
          ...body,
          messages: [{ role: "user", content: "B" }],
        }),
      ).toEqual({ status: 404, body: notFound("conversation", conversation) });
      expect((await who.get(`/conversations${user}`)).body).toMatchObject({ results: [], total: 0 });
    }
    expect((await o.a.alice.get(`/sessions/${session}`)).body.session.state).toBe("active");
  });

  test("B's admin gets 404 for A's immutable record and mutable key, and writing the same keys makes B's own", async () => {
    const b = o.b.admin;
    expect(await b.get("/immutable/kb/hives")).toEqual({ status: 404, body: notFound("record", "kb/hives") });
    expect(await b.get("/immutable/kb/hives/versions")).toEqual({ status: 404, body: notFound("record", "kb/hives") });
    expect(await b.get("/mutable/prefs/theme")).toEqual({ status: 404, body: notFound("key", "prefs/theme") });
    expect(await b.call("DELETE", "/mutable/prefs/theme")).toEqual({
      status: 404,
      body: notFound("key", "prefs/theme"),
    });
    expect((await b.call("PUT", "/immutable/kb/hives", { data: "B's" })).body.version).toBe(1);
    expect((await b.call("PUT", "/mutable/prefs/theme", { value: "B's" })).body.value).toBe("B's");
    expect((await o.a.admin.get("/immutable/kb/hives")).body.data).toEqual({ title: "Hive care" });
    expect((await o.a.admin.get("/mutable/prefs/theme")).body.value).toBe("amber");
  });

  test("B's admin gets 404 for A's space 'team', and creating its own 'team' leaves A's members and memories", async () => {
    const b = o.b.admin;
    expect(await b.get("/spaces/team")).toEqual({ status: 404, body: notFound("space", "team") });
    expect(await b.call("PUT", "/spaces/team/members", { members: [{ user_id: "alice", role: "writer" }] })).toEqual({
      status: 404,
      body: notFound("space", "team"),
    });
    expect(await b.call("DELETE", "/spaces/team")).toEqual({ status: 404, body: notFound("space", "team") });
    expect((await b.get("/spaces")).body).toEqual({ success: true, spaces: [] });
    const created = await b.post("/spaces", {
      space_id: "team",
      name: "B team",
      members: [{ user_id: "alice", role: "writer" }],
    });
    expect(created.status).toBe(200);
    // Now B's alice writes to a "team" of her own: A's memory's id is still not hers to promote.
    const id = o.ids.memory;
    for (const who of [b, o.b.alice, o.b.sso])
      expect(
        await who.post(`/memories/${id}/promote`, { ...(who === b ? { user_id: "alice" } : {}), space_id: "team" }),
      ).toEqual({
        status: 404,
        body: notFound("memory", id),
      });
    const seen = await o.b.alice.post("/search_memory", { query: "hive inspection", spaces: ["team"] });
    expect([seen.status, seen.body.results]).toEqual([200, []]);
    const ours = await o.a.admin.get("/spaces/team");
    expect([ours.body.name, ours.body.members]).toEqual(["Team", [{ user_id: "alice", role: "writer" }]]);
    const found = await o.a.alice.post("/search_memory", { query: "hive inspection", spaces: ["team"] });
    expect(found.body.results.map((r: { id: string }) => r.id)).toContain(o.ids.spaceMemory);
  });

  test("B's admin cannot revoke or list A's keys: A's key id is 404 and A's key still works", async () => {
    expect(await o.b.admin.call("DELETE", `/admin/keys/${o.a.alice.id}`)).toEqual({
      status: 404,
      body: notFound("key", o.a.alice.id),
    });
    const listed = (await o.b.admin.get("/admin/keys")).body.keys.map((k: { id: string; org: string }) => [
      k.id,
      k.org,
    ]);
    expect(listed.sort()).toEqual(
      [
        [o.b.admin.id, "acme"],
        [o.b.alice.id, "acme"],
      ].sort(),
    );
    expect((await o.a.alice.get("/list_memories")).status).toBe(200);
  });

  test("B's audit logs hold only B's requests: none of A's principals, users' calls or paths", async () => {
    await o.b.alice.get("/list_memories");
    await o.a.admin.post("/governance/enforce", { scope: { organizationId: "default" } });
    const audit = await o.b.admin.get("/audit?limit=500");
    expect(audit.status).toBe(200);
    const principals = new Set(audit.body.results.map((e: { principal: string }) => e.principal));
    expect(principals.has(o.b.alice.id)).toBe(true);
    for (const mine of [o.a.admin.id, o.a.alice.id]) expect(principals.has(mine)).toBe(false);
    const gov = await o.b.admin.get("/governance/audit?from=0");
    expect(gov.status).toBe(200);
    expect(gov.body.entries.filter((e: { path: string }) => e.path === "/governance/enforce")).toEqual([]);
    const theirs = (await o.a.admin.get("/audit?limit=500")).body.results.map(
      (e: { principal: string }) => e.principal,
    );
    expect(theirs).not.toContain(o.b.alice.id);
  });

  test("B's governance reports and stats count none of A's memories, conversations or deletions", async () => {
    expect((await o.a.admin.post("/governance/enforce", { scope: { organizationId: "default" } })).status).toBe(200);
    const period = { start: "2000-01-01T00:00:00Z", end: "2100-01-01T00:00:00Z" };
    const report = async (who: typeof o.a.admin, org: string) => {
      const r = await who.post("/governance/compliance-report", { organizationId: org, period });
      return [r.status, r.body.vector.memories, r.body.conversations.total];
    };
    expect(await report(o.b.admin, "acme")).toEqual([200, 0, 0]);
    expect(await report(o.a.admin, "default")).toEqual([200, 3, 1]);
    const deleted = async (who: typeof o.a.admin) => (await who.get("/governance/stats?period=30d")).body.mutable;
    expect(await deleted(o.b.admin)).toEqual({ keysDeleted: 0 });
    expect(await deleted(o.a.admin)).toEqual({ keysDeleted: 1 });
  });

  test("B's admin naming A's organization in governance gets 404, and A's policy stays as it was", async () => {
    const b = o.b.admin;
    const before = await o.a.admin.get("/governance/policies?organizationId=default");
    expect(before.status).toBe(200);
    const other = { success: false, error: "organization 'default' not found", code: "NOT_FOUND" };
    const period = { start: "2000-01-01T00:00:00Z", end: "2100-01-01T00:00:00Z" };
    for (const [method, path, body] of [
      ["POST", "/governance/policies", { ...getTemplate("SOC2"), organizationId: "default" }],
      ["GET", "/governance/policies?organizationId=default", undefined],
      ["DELETE", "/governance/policies?organizationId=default", undefined],
      ["POST", "/governance/enforce", { scope: { organizationId: "default" } }],
      ["POST", "/governance/simulate", { organizationId: "default", vector: { retention: { defaultVersions: 1 } } }],
      ["POST", "/governance/compliance-report", { organizationId: "default", period }],
      ["GET", "/governance/audit?organizationId=default", undefined],
    ] as const)
      expect([method, path, await b.call(method, path, body)]).toEqual([method, path, { status: 404, body: other }]);
    expect(await o.a.admin.get("/governance/policies?organizationId=default")).toEqual(before);
  });

  test("server statistics stay with A (the home organization): B's admin gets 403 on /metrics", async () => {
    expect(await o.b.admin.get("/metrics")).toEqual({
      status: 403,
      body: {
        success: false,
        error: "server statistics need an admin key of the server's own organization",
        code: "FORBIDDEN",
      },
    });
    expect((await o.a.admin.get("/metrics")).status).toBe(200);
  });

  test("B's erasure of its alice (cascade) leaves A's alice's memories, sessions and records", async () => {
    const erased = await o.b.admin.post("/delete_all_memories", { user_id: "alice", cascade: true });
    expect(erased.status).toBe(200);
    expect((await o.a.alice.get("/list_memories")).body.total).toBe(2);
    expect((await o.a.alice.get(`/sessions/${o.ids.session}`)).status).toBe(200);
    expect((await o.a.admin.get("/immutable/kb/hives")).status).toBe(200);
    expect((await o.a.admin.get("/mutable/prefs/theme")).status).toBe(200);
  });

  test("what B adds is B's: A's alice does not find it by search, list or id", async () => {
    const added = await o.b.sso.post("/add_memories", { memory: "Alice of acme keeps wasps in the shed" });
    expect(added.status).toBe(200);
    const id = added.body.memory_ids[0];
    const found = await o.a.alice.post("/search_memory", { query: "wasps in the shed" });
    expect(found.body.results.map((r: { id: string }) => r.id)).not.toContain(id);
    expect((await o.a.alice.get("/list_memories")).body.total).toBe(2);
    expect((await o.a.admin.get(`/get_memory?user_id=alice&memory_id=${id}`)).status).toBe(404);
    expect((await o.b.alice.get(`/get_memory?memory_id=${id}`)).body.memory).toBe(
      "Alice of acme keeps wasps in the shed",
    );
  });
});
