// Sessions belong to one user (another user's id behaves like a missing one), lists filter by
// state and page by limit, bad input answers the error envelope with its field, and a user's
// erasure removes their sessions.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { MIN, end, start } from "./support";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

describe("isolation between users", () => {
  test("another user's session id behaves exactly like a missing id on get, touch and end", async () => {
    const s = await start(t);
    const missing = await t.get("/sessions/does-not-exist?user_id=mallory");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, code: "NOT_FOUND", error: "session 'does-not-exist' not found" });
    const expected = { success: false, code: "NOT_FOUND", error: `session '${s.id}' not found` };
    for (const res of [
      await t.get(`/sessions/${s.id}?user_id=mallory`),
      await t.post(`/sessions/${s.id}/touch`, { user_id: "mallory" }),
      await t.post(`/sessions/${s.id}/end`, { user_id: "mallory" }),
    ])
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: expected });
    expect((await t.get(`/sessions/${s.id}?user_id=alice`)).body.session.state).toBe("active");
  });

  test("a list shows only the caller's sessions", async () => {
    const mine = await start(t);
    await start(t, { user_id: "mallory" });
    const list = await t.get("/sessions?user_id=alice");
    expect(list.body).toEqual({ results: [mine], total: 1, has_more: false });
  });

  test("deleteUser (cascade erasure) removes every session of that user and no one else's (nor the same user id's in another organization)", async () => {
    const a = await start(t);
    await end(t, (await start(t)).id);
    const b = await start(t, { user_id: "bob" });
    expect(await t.services.sessions.deleteUser({ org: "acme", userId: "alice" })).toBe(0);
    expect(await t.services.sessions.deleteUser({ org: "default", userId: "alice" })).toBe(2);
    expect((await t.get(`/sessions/${a.id}?user_id=alice`)).status).toBe(404);
    expect((await t.get(`/sessions/${b.id}?user_id=bob`)).status).toBe(200);
  });
});

describe("GET /sessions", () => {
  test("lists newest first, filters by state and agent_id, and pages by limit", async () => {
    const first = await start(t, { agent_id: "cursor" });
    t.clock.advance(MIN);
    const second = await start(t);
    t.clock.advance(MIN);
    const third = await start(t);
    await end(t, second.id);
    const ids = async (q: string) => (await t.get(`/sessions?user_id=alice${q}`)).body.results.map((s: any) => s.id);
    expect(await ids("")).toEqual([third.id, second.id, first.id]);
    expect(await ids("&state=ended")).toEqual([second.id]);
    expect(await ids("&state=active")).toEqual([third.id, first.id]);
    expect(await ids("&state=archived")).toEqual([]);
    expect(await ids("&agent_id=cursor")).toEqual([first.id]);
    const page = await t.get("/sessions?user_id=alice&limit=2");
    expect({
      ids: page.body.results.map((s: any) => s.id),
      total: page.body.total,
      has_more: page.body.has_more,
    }).toEqual({
      ids: [third.id, second.id],
      total: 3,
      has_more: true,
    });
  });

  test("the /v1 prefix answers the same", async () => {
    const s = await start(t);
    expect((await t.get(`/v1/sessions/${s.id}?user_id=alice`)).body.session.id).toBe(s.id);
  });
});

describe("bad input", () => {
  const cases: [string, () => Promise<{ status: number; body: any }>, string][] = [
    ["create without user_id", () => t.post("/sessions", {}), "user_id"],
    ["create with an empty user_id", () => t.post("/sessions", { user_id: "" }), "user_id"],
    ["create with a non-string agent_id", () => t.post("/sessions", { user_id: "u", agent_id: 5 }), "agent_id"],
    ["create with an over-long device", () => t.post("/sessions", { user_id: "u", device: "x".repeat(65) }), "device"],
    ["create with array metadata", () => t.post("/sessions", { user_id: "u", metadata: [1] }), "metadata"],
    [
      "create with metadata over 16 KiB",
      () => t.post("/sessions", { user_id: "u", metadata: { x: "y".repeat(17_000) } }),
      "metadata",
    ],
    ["list without user_id", () => t.get("/sessions"), "user_id"],
    ["list with an unknown state", () => t.get("/sessions?user_id=u&state=sleeping"), "state"],
    ["list with limit 0", () => t.get("/sessions?user_id=u&limit=0"), "limit"],
    ["list with limit 1001", () => t.get("/sessions?user_id=u&limit=1001"), "limit"],
    ["list with a mistyped parameter", () => t.get("/sessions?user_id=u&limti=5"), "limti"],
    ["get without user_id", () => t.get("/sessions/abc"), "user_id"],
    ["touch without user_id", () => t.post("/sessions/abc/touch", {}), "user_id"],
    ["end with a numeric user_id", () => t.post("/sessions/abc/end", { user_id: 7 }), "user_id"],
    ["expire-idle with an empty user_id", () => t.post("/sessions/expire-idle", { user_id: "" }), "user_id"],
    ["cleanup with a non-string agent_id", () => t.post("/sessions/cleanup", { agent_id: [] }), "agent_id"],
  ];
  for (const [name, run, field] of cases)
    test(`${name} → 400 VALIDATION_ERROR naming ${field}`, async () => {
      const res = await run();
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, code: "VALIDATION_ERROR", field, error: expect.any(String) });
    });

  test("the sweeps take no body at all: expire-idle and cleanup without one sweep every session", async () => {
    expect((await t.request("POST", "/sessions/expire-idle")).body).toEqual({ success: true, idled: 0, ended: 0 });
    expect((await t.request("POST", "/sessions/cleanup")).body).toEqual({ success: true, archived: 0, deleted: 0 });
  });

  test("a body that is not JSON → 400 INVALID_JSON; one without a JSON content type → 415", async () => {
    expect((await t.post("/sessions", "{nope")).body.code).toBe("INVALID_JSON");
    const res = await t.post("/sessions", "user_id=u", { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(415);
  });

  test("a wrong method on a known path → 405", async () => {
    expect((await t.request("DELETE", "/sessions")).status).toBe(405);
  });
});
