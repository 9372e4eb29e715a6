// The request audit log of SPEC §8: every request authenticated by a key is recorded (reads included,
// whatever the compliance policy says), with its principal, route, target user, status and duration;
// GET /audit reads it, admin only, filtered and paged by cursor; bad filters get the 400 envelope.
import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { HOUR_MS } from "~/governance/durations";
import { orgPolicy, setPolicy } from "../governance/app-support";

const SHARED = { authorization: "Bearer shared" };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

let t: TestApp;
afterEach(() => t?.close());

async function withKeys() {
  t = await buildTestApp({ options: { auth: { enabled: true, apiKey: "shared" } } });
  // Auditing calls by policy is off: requests with a key are recorded anyway (SPEC §8).
  const off = await t.post("/governance/policies", orgPolicy("GDPR", ["compliance.auditLogging", false]), SHARED);
  expect(off.status).toBe(200);
  const admin = await t.services.keys.create("default", { role: "admin" });
  const member = await t.services.keys.create("default", { role: "member", user_id: "ana" });
  return { admin, member };
}

type Entry = Record<string, unknown>;
const page = async (query: string, key: string) => {
  const r = await t.get(`/audit${query}`, bearer(key));
  expect(r.status).toBe(200);
  return r.body as { results: Entry[]; has_more: boolean; next_cursor: string | null };
};

describe("GET /audit", () => {
  test("records a member's reads and writes with its key id, route, the user it acted on, status and duration", async () => {
    const { admin, member } = await withKeys();
    const T0 = t.clock.now();
    await t.post("/add_memories", { memory: "Ana likes tea" }, bearer(member.key));
    t.clock.advance(HOUR_MS);
    const added = await t.get("/list_memories", bearer(member.key));
    const id = added.body.results[0].id;
    await t.get(`/memories/${id}/versions`, bearer(member.key));
    await t.get("/get_memory?memory_id=nope", bearer(member.key));
    const { results, has_more, next_cursor } = await page(`?principal=${member.id}`, admin.key);
    expect(results.map((e): Entry => ({ ...e, duration_ms: typeof e.duration_ms }))).toEqual([
      {
        at: new Date(T0).toISOString(),
        organization_id: "default",
        principal: member.id,
        method: "POST",
        route: "/add_memories",
        path: "/add_memories",
        user_id: "ana",
        memory_space_id: null,
        status: 200,
        duration_ms: "number",
      },
      ...[
        ["GET", "/list_memories", "/list_memories", 200],
        ["GET", "/memories/:id/versions", `/memories/${id}/versions`, 200],
        ["GET", "/get_memory", "/get_memory", 404],
      ].map(([method, route, path, status]) => ({
        at: new Date(T0 + HOUR_MS).toISOString(),
        organization_id: "default",
        principal: member.id,
        method,
        route,
        path,
        user_id: "ana",
        memory_space_id: null,
        status,
        duration_ms: "number",
      })),
    ]);
    expect(results.every((e) => (e.duration_ms as number) >= 0)).toBe(true);
    expect({ has_more, next_cursor }).toEqual({ has_more: false, next_cursor: null });
  });

  test("filters by time and target user, and pages on with next_cursor until the last page", async () => {
    const { admin, member } = await withKeys();
    for (let i = 0; i < 5; i++) {
      await t.get("/list_memories", bearer(member.key));
      t.clock.advance(HOUR_MS);
    }
    await t.get("/list_memories?user_id=bo", bearer(admin.key));
    const T0 = Date.UTC(2026, 5, 1);
    const window = `?user_id=ana&from=${new Date(T0 + HOUR_MS).toISOString()}&to=${T0 + 3 * HOUR_MS}&limit=2`;
    const first = await page(window, admin.key);
    expect(first.results.map((e) => e.at)).toEqual([
      new Date(T0 + HOUR_MS).toISOString(),
      new Date(T0 + 2 * HOUR_MS).toISOString(),
    ]);
    expect(first.has_more).toBe(true);
    const second = await page(`${window}&cursor=${first.next_cursor}`, admin.key);
    expect(second.results.map((e) => e.at)).toEqual([new Date(T0 + 3 * HOUR_MS).toISOString()]);
    expect({ has_more: second.has_more, next_cursor: second.next_cursor }).toEqual({
      has_more: false,
      next_cursor: null,
    });
    const bo = await page("?user_id=bo", admin.key);
    expect(bo.results.map((e) => [e.principal, e.user_id])).toEqual([[admin.id, "bo"]]);
  });

  test("an MCP call with a bound key is recorded under the key's user", async () => {
    const { admin, member } = await withKeys();
    const mcp = await t.post(
      "/mcp",
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { ...bearer(member.key), accept: "application/json, text/event-stream" },
    );
    expect(mcp.status).toBe(200);
    const { results } = await page(`?principal=${member.id}`, admin.key);
    expect(results.map((e) => [e.method, e.route, e.user_id, e.status])).toEqual([["POST", "/mcp", "ana", 200]]);
  });

  test("is for admins: a member key gets 403, no key 401", async () => {
    const { member } = await withKeys();
    expect((await t.get("/audit", bearer(member.key))).body).toEqual({
      success: false,
      error: "this operation needs an admin key of the organization",
      code: "FORBIDDEN",
    });
    expect((await t.get("/audit")).status).toBe(401);
  });

  test("refuses malformed cursors, dates and limits with the 400 envelope", async () => {
    const { admin } = await withKeys();
    for (const [query, field] of [
      ["?cursor=nonsense", "cursor"],
      [`?cursor=${Buffer.from("a-1").toString("base64url")}`, "cursor"],
      ["?from=yesterday", "from"],
      ["?to=2026-02-30", "to"],
      ["?limit=0", "limit"],
      ["?limit=abc", "limit"],
      ["?user_id=", "user_id"],
      ["?colour=red", "colour"],
    ]) {
      const r = await t.get(`/audit${query}`, bearer(admin.key));
      expect({ query, status: r.status, code: r.body.code, field: r.body.field }).toEqual({
        query,
        status: 400,
        code: "VALIDATION_ERROR",
        field,
      });
    }
  });
});

describe("with auth off", () => {
  test("the local operator's calls are recorded only when the policy audits calls, as before", async () => {
    t = await buildTestApp();
    await t.get("/list_memories?user_id=ana");
    const on = await t.get("/audit");
    expect(on.body.results.map((e: Entry) => [e.principal, e.route, e.user_id])).toEqual([
      ["local", "/list_memories", "ana"],
    ]);
    await setPolicy(t, orgPolicy("GDPR", ["compliance.auditLogging", false]));
    await t.get("/list_memories?user_id=ana");
    // The policy call itself was answered after logging was off; the later read too.
    expect((await t.get("/audit")).body.results.map((e: Entry) => e.route)).toEqual(["/list_memories", "/audit"]);
  });
});
