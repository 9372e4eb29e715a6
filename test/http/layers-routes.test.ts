// The layer routes (SPEC §5.1): conversations, immutable records, mutable keys and memory
// versions — success shapes, bad input (status, code, field), 404s and user isolation.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { HOUR_MS } from "~/governance/durations";
import { rowsOf } from "../support/store";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const bad = (field: string) => ({ success: false, error: expect.any(String), code: "VALIDATION_ERROR", field });
const notFound = (error: string) => ({ success: false, error, code: "NOT_FOUND" });
const msg = (content: string) => ({ role: "user", content });

describe("conversations", () => {
  test("create, append and read back, newest first in the listing", async () => {
    const a = (await t.post("/conversations", { user_id: "u", agent_id: "bot", messages: [msg("hi")] })).body;
    expect(a).toMatchObject({
      success: true,
      user_id: "u",
      agent_id: "bot",
      message_count: 1,
      archived_at: null,
      messages: [{ role: "user", content: "hi", timestamp: t.clock.now() }],
    });
    t.clock.advance(HOUR_MS);
    const appended = await t.post(`/conversations/${a.id}/messages`, {
      user_id: "u",
      messages: [msg("again"), { role: "assistant", content: "yes" }],
    });
    expect(appended.body.messages.map((m: { content: string }) => m.content)).toEqual(["hi", "again", "yes"]);
    expect(appended.body.last_message_at).toBe(new Date(t.clock.now()).toISOString());
    const b = (await t.post("/conversations", { user_id: "u" })).body;
    const list = (await t.get("/conversations?user_id=u")).body;
    expect([list.results.map((c: { id: string }) => c.id), list.total, list.has_more]).toEqual([
      [b.id, a.id],
      2,
      false,
    ]);
  });

  test.each([
    [{ messages: [msg("x")] }, "user_id"],
    [{ user_id: "u", messages: [] }, "messages"],
    [{ user_id: "u", messages: [{ content: "x" }] }, "messages[0].role"],
    [{ user_id: "u", agent_id: "" }, "agent_id"],
  ])("POST /conversations with %j is 400 naming %s", async (body, field) => {
    const r = await t.post("/conversations", body);
    expect([r.status, r.body]).toEqual([400, bad(field)]);
  });

  test("bad reads and listings name their parameter", async () => {
    expect((await t.get("/conversations/x")).body).toEqual(bad("user_id"));
    expect((await t.get("/conversations?user_id=u&limit=0")).body).toEqual(bad("limit"));
    expect((await t.get("/conversations?user_id=u&cursor=zzz")).body).toEqual(bad("cursor"));
    expect((await t.post("/conversations/x/messages", { user_id: "u" })).body).toEqual(bad("messages"));
  });

  test("another user's conversation behaves exactly like a missing one", async () => {
    const id = (await t.post("/conversations", { user_id: "alice", messages: [msg("secret")] })).body.id;
    const other = await t.get(`/conversations/${id}?user_id=mallory`);
    expect([other.status, other.body]).toEqual([404, notFound(`conversation '${id}' not found`)]);
    const append = await t.post(`/conversations/${id}/messages`, { user_id: "mallory", messages: [msg("pwned")] });
    expect(append.status).toBe(404);
    expect((await t.get("/conversations?user_id=mallory")).body.total).toBe(0);
    expect((await t.get(`/conversations/${id}?user_id=alice`)).body.message_count).toBe(1);
  });
});

describe("immutable records", () => {
  test("each write is a new version; reads of the current, a past version and the history", async () => {
    expect((await t.request("PUT", "/immutable/kb-article/intro", { data: { v: 1 } })).body).toEqual({
      success: true,
      type: "kb-article",
      id: "intro",
      version: 1,
      created_at: new Date(t.clock.now()).toISOString(),
    });
    t.clock.advance(HOUR_MS);
    expect(
      (await t.request("PUT", "/immutable/kb-article/intro", { data: { v: 2 }, user_id: "u", metadata: { by: "x" } }))
        .body.version,
    ).toBe(2);
    expect((await t.get("/immutable/kb-article/intro")).body).toMatchObject({
      version: 2,
      current_version: 2,
      data: { v: 2 },
      metadata: { by: "x" },
      user_id: "u",
    });
    expect((await t.get("/immutable/kb-article/intro?version=1")).body).toMatchObject({
      version: 1,
      data: { v: 1 },
      metadata: {},
    });
    const history = (await t.get("/immutable/kb-article/intro/versions")).body;
    expect(history.versions.map((v: { version: number; data: unknown }) => [v.version, v.data])).toEqual([
      [2, { v: 2 }],
      [1, { v: 1 }],
    ]);
  });

  test("bad input and missing records", async () => {
    expect((await t.request("PUT", "/immutable/kb/1", {})).body).toEqual(bad("data"));
    expect((await t.request("PUT", "/immutable/kb/1", { data: 1, user_id: "" })).body).toEqual(bad("user_id"));
    expect((await t.request("PUT", "/immutable/kb/1", { data: 1, metadata: [1] })).body).toEqual(bad("metadata"));
    expect((await t.request("PUT", "/immutable/a%2Fb/1", { data: 1 })).body).toEqual(bad("type"));
    expect((await t.get("/immutable/kb/1")).body).toEqual(notFound("record 'kb/1' not found"));
    expect((await t.get("/immutable/kb/1/versions")).status).toBe(404);
    await t.request("PUT", "/immutable/kb/1", { data: 1 });
    expect((await t.get("/immutable/kb/1?version=0")).body).toEqual(bad("version"));
    expect((await t.get("/immutable/kb/1?version=abc")).body).toEqual(bad("version"));
    expect((await t.get("/immutable/kb/1?version=2")).body).toEqual(notFound("version 'kb/1@2' not found"));
  });
});

describe("mutable keys", () => {
  test("set, read (refreshing accessed_at), overwrite and delete", async () => {
    const set = (await t.request("PUT", "/mutable/prefs/theme", { value: { dark: true }, ttl: "1h" })).body;
    expect(set).toMatchObject({
      success: true,
      namespace: "prefs",
      key: "theme",
      value: { dark: true },
      expires_at: new Date(t.clock.now() + HOUR_MS).toISOString(),
    });
    t.clock.advance(HOUR_MS / 2);
    expect((await t.get("/mutable/prefs/theme")).body.accessed_at).toBe(new Date(t.clock.now()).toISOString());
    expect((await t.request("PUT", "/mutable/prefs/theme", { value: 2 })).body).toMatchObject({
      value: 2,
      expires_at: null,
    });
    expect((await t.request("DELETE", "/mutable/prefs/theme")).body).toEqual({ success: true, deleted_count: 1 });
    expect((await t.get("/mutable/prefs/theme")).body).toEqual(notFound("key 'prefs/theme' not found"));
  });

  test("an expired key reads and deletes as missing", async () => {
    await t.request("PUT", "/mutable/prefs/theme", { value: 1, expiresAt: t.clock.now() + 1000 });
    t.clock.advance(1000);
    expect((await t.get("/mutable/prefs/theme")).status).toBe(404);
    expect((await t.request("DELETE", "/mutable/prefs/theme")).status).toBe(404);
  });

  test("a PUT whose expiresAt is already past is stored and answered, reads as missing, and enforcement removes it", async () => {
    const past = t.clock.now() - 1000;
    const put = await t.request("PUT", "/mutable/prefs/old", { value: "v", expiresAt: past });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      success: true,
      namespace: "prefs",
      key: "old",
      value: "v",
      expires_at: new Date(past).toISOString(),
    });
    const rows = async () =>
      (await rowsOf(t, "SELECT count(*) AS n FROM mutable_entries WHERE namespace = 'prefs' AND key = 'old'"))[0];
    expect(await rows()).toEqual({ n: 1 });
    expect((await t.get("/mutable/prefs/old")).status).toBe(404);
    const run = await t.post("/governance/enforce", { scope: { organizationId: "default" }, layers: ["mutable"] });
    expect(run.body.recordsPurged).toBe(1);
    expect(await rows()).toEqual({ n: 0 });
  });

  test.each([
    [{ ttl: "1d" }, "value"],
    [{ value: 1, ttl: "7 days" }, "ttl"],
    [{ value: 1, ttl: "0d" }, "ttl"],
    [{ value: 1, ttl: 5 }, "ttl"],
    [{ value: 1, ttl: "1d", expiresAt: 5 }, "ttl"],
    [{ value: 1, expiresAt: -1 }, "expiresAt"],
    [{ value: 1, user_id: "" }, "user_id"],
  ])("PUT /mutable with %j is 400 naming %s", async (body, field) => {
    const r = await t.request("PUT", "/mutable/ns/k", body);
    expect([r.status, r.body]).toEqual([400, bad(field)]);
  });

  test("a wrong method is 405", async () => {
    expect((await t.post("/mutable/ns/k", { value: 1 })).status).toBe(405);
  });
});

describe("memory versions", () => {
  test("list newest first, need user_id, and hide other users' memories", async () => {
    const id = (await t.post("/add_memories", { user_id: "u", memory: "one" })).body.memory_ids[0];
    t.clock.advance(HOUR_MS);
    await t.post("/update_memory", { user_id: "u", memory_id: id, memory: "two" });
    expect((await t.get(`/memories/${id}/versions?user_id=u`)).body).toEqual({
      success: true,
      versions: [
        { version: 2, memory: "two", created_at: new Date(t.clock.now()).toISOString() },
        { version: 1, memory: "one", created_at: new Date(t.clock.now() - HOUR_MS).toISOString() },
      ],
    });
    expect((await t.get(`/memories/${id}/versions`)).body).toEqual(bad("user_id"));
    expect((await t.get(`/memories/${id}/versions?user_id=mallory`)).body).toEqual(
      notFound(`memory '${id}' not found`),
    );
  });
});
