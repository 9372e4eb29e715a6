import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const add = (body: Record<string, unknown>) => t.post("/add_memories", { user_id: "alice", ...body });
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("POST /add_memories", () => {
  test("stores one memory and answers its id", async () => {
    const r = await add({ memory: "I prefer dark roast coffee" });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.memory_ids).toHaveLength(1);
    expect(r.body.memory_ids[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("stores each non-empty message as its own memory with its role", async () => {
    const r = await add({
      messages: [
        { role: "user", content: "I moved to Lisbon" },
        { role: "assistant", content: "  " },
        { role: "assistant", content: "Noted, Lisbon it is" },
      ],
    });
    expect(r.body.memory_ids).toHaveLength(2);
    const first = await t.get(`/get_memory?memory_id=${r.body.memory_ids[0]}&user_id=alice`);
    expect(first.body.metadata).toEqual({ role: "user" });
    const second = await t.get(`/get_memory?memory_id=${r.body.memory_ids[1]}&user_id=alice`);
    expect(second.body.metadata).toEqual({ role: "assistant" });
  });

  test("rejects a body with both memory and messages", async () => {
    const r = await add({ memory: "x", messages: [{ role: "user", content: "y" }] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      success: false,
      error: "provide exactly one of memory (or text, its OpenMemory name) or messages",
      code: "VALIDATION_ERROR",
      field: "messages",
    });
  });

  test("rejects a body with neither memory nor messages", async () => {
    const r = await add({});
    expect(r.body).toEqual({
      success: false,
      error: "provide exactly one of memory (or text, its OpenMemory name) or messages",
      code: "VALIDATION_ERROR",
      field: "memory",
    });
  });

  test("takes OpenMemory's `text` for `memory`, and its `infer` switch, so its clients' calls work unchanged", async () => {
    const r = await add({ text: "I am allergic to penicillin", infer: false });
    expect(r.status).toBe(200);
    const got = await t.get(`/get_memory?memory_id=${r.body.memory_ids[0]}&user_id=alice`);
    expect(got.body.memory).toBe("I am allergic to penicillin");
    expect(got.body.metadata).toEqual({});
  });

  test("rejects text together with memory or messages, and a blank text, naming text", async () => {
    const envelope = (
      field: string,
      error = "provide exactly one of memory (or text, its OpenMemory name) or messages",
    ) => ({
      success: false,
      error,
      code: "VALIDATION_ERROR",
      field,
    });
    expect((await add({ memory: "x", text: "y" })).body).toEqual(envelope("text"));
    expect((await add({ text: "y", messages: [{ role: "user", content: "z" }] })).body).toEqual(envelope("messages"));
    const blank = await add({ text: "   " });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual(envelope("text", "text must not be blank"));
  });

  test("rejects a missing user_id naming the field", async () => {
    const r = await t.post("/add_memories", { memory: "x" });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      success: false,
      error: "user_id is required",
      code: "VALIDATION_ERROR",
      field: "user_id",
    });
  });

  test("rejects an empty user_id, a wrong type and an over-long text", async () => {
    expect((await t.post("/add_memories", { memory: "x", user_id: "" })).body.field).toBe("user_id");
    expect((await add({ memory: 42 })).body.field).toBe("memory");
    const long = await add({ memory: "a".repeat(32 * 1024 + 1) });
    expect(long.status).toBe(400);
    expect(long.body.field).toBe("memory");
  });

  test("rejects messages whose content is all blank", async () => {
    const r = await add({ messages: [{ role: "user", content: " " }] });
    expect(r.body).toEqual({
      success: false,
      error: "messages must contain at least one non-empty content",
      code: "VALIDATION_ERROR",
      field: "messages",
    });
  });

  test("rejects more than 100 messages", async () => {
    const r = await add({ messages: Array.from({ length: 101 }, () => ({ role: "user", content: "hi" })) });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe("messages");
  });

  test("rejects an importance outside 0–100", async () => {
    expect((await add({ memory: "x", metadata: { importance: 101 } })).body).toEqual({
      success: false,
      error: "metadata.importance must be an integer from 0 to 100",
      code: "VALIDATION_ERROR",
      field: "metadata.importance",
    });
  });

  test("accepts any string as metadata.source and keeps it as given (metadata is free-form)", async () => {
    for (const source of ["test", "claude-desktop", "cursor", "email", "conversation"]) {
      const r = await add({ memory: `from ${source}`, metadata: { source } });
      expect(r.status).toBe(200);
      const got = await t.get(`/get_memory?memory_id=${r.body.memory_ids[0]}&user_id=alice`);
      expect(got.body.metadata).toEqual({ source });
    }
  });

  test("rejects a metadata.source that is not a string, naming it", async () => {
    for (const source of [null, 5, ["tool"], { a: 1 }]) {
      expect((await add({ memory: "x", metadata: { source } })).body).toEqual({
        success: false,
        error: "metadata.source must be a string",
        code: "VALIDATION_ERROR",
        field: "metadata.source",
      });
    }
  });

  test("rejects a temporary memory without expiresAt", async () => {
    const r = await add({ memory: "x", metadata: { temporary: true } });
    expect(r.body.field).toBe("metadata.expiresAt");
  });

  test("rejects metadata over 16 KiB", async () => {
    const r = await add({ memory: "x", metadata: { blob: "b".repeat(17 * 1024) } });
    expect(r.body.field).toBe("metadata");
  });

  test("loses nothing when a request is rejected", async () => {
    await add({
      messages: [
        { role: "user", content: "kept" },
        { role: "user", content: "x" },
      ],
      metadata: { importance: -1 },
    });
    const list = await t.get("/list_memories?user_id=alice");
    expect(list.body.total).toBe(0);
  });
});

describe("GET /get_memory", () => {
  test("answers the whole record", async () => {
    const id = (await add({ memory: "likes tea", agent_id: "cursor", session_id: "s1", metadata: { project: "x" } }))
      .body.memory_ids[0];
    const r = await t.get(`/get_memory?memory_id=${id}&user_id=alice`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      id,
      memory: "likes tea",
      metadata: { project: "x" },
      agent_id: "cursor",
      session_id: "s1",
      created_at: "2026-06-01T00:00:00.000Z",
      updated_at: "2026-06-01T00:00:00.000Z",
      version: 1,
    });
  });

  test("answers 404 for an unknown id", async () => {
    const r = await t.get("/get_memory?memory_id=nope&user_id=alice");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ success: false, error: "memory 'nope' not found", code: "NOT_FOUND" });
  });

  test("needs both memory_id and user_id", async () => {
    expect((await t.get("/get_memory?user_id=alice")).body.field).toBe("memory_id");
    expect((await t.get("/get_memory?memory_id=x")).body.field).toBe("user_id");
  });
});

describe("POST /update_memory", () => {
  test("changes the text, bumps the version and keeps the old text as a version", async () => {
    const id = (await add({ memory: "lives in Paris" })).body.memory_ids[0];
    t.clock.advance(1000);
    const r = await t.post("/update_memory", { memory_id: id, user_id: "alice", memory: "lives in Berlin" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      id,
      memory: "lives in Berlin",
      version: 2,
      updated_at: "2026-06-01T00:00:01.000Z",
      created_at: "2026-06-01T00:00:00.000Z",
    });
    const v = await t.get(`/memories/${id}/versions?user_id=alice`);
    expect(v.body).toEqual({
      success: true,
      versions: [
        { version: 2, memory: "lives in Berlin", created_at: "2026-06-01T00:00:01.000Z" },
        { version: 1, memory: "lives in Paris", created_at: "2026-06-01T00:00:00.000Z" },
      ],
    });
    const found = await t.post("/search_memory", { query: "Berlin", user_id: "alice" });
    expect(found.body.results.map((x: any) => x.memory)).toEqual(["lives in Berlin"]);
    expect((await t.post("/search_memory", { query: "Paris", user_id: "alice" })).body.results).toEqual([]);
  });

  test("merges metadata and removes keys set to null", async () => {
    const id = (await add({ memory: "m", metadata: { a: 1, b: 2 } })).body.memory_ids[0];
    const r = await t.post("/update_memory", { memory_id: id, user_id: "alice", metadata: { b: null, c: 3 } });
    expect(r.body.metadata).toEqual({ a: 1, c: 3 });
  });

  test("needs memory or metadata", async () => {
    const id = (await add({ memory: "m" })).body.memory_ids[0];
    const r = await t.post("/update_memory", { memory_id: id, user_id: "alice" });
    expect(r.body).toEqual({
      success: false,
      error: "provide memory or metadata to update",
      code: "VALIDATION_ERROR",
      field: "memory",
    });
  });

  test("answers 404 for an unknown id", async () => {
    const r = await t.post("/update_memory", { memory_id: "nope", user_id: "alice", memory: "x" });
    expect(r.status).toBe(404);
  });
});

describe("DELETE /delete_memory", () => {
  test("deletes by query parameters", async () => {
    const id = (await add({ memory: "m" })).body.memory_ids[0];
    const r = await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=alice`);
    expect(r.body).toEqual({ success: true, deleted_count: 1 });
    expect((await t.get(`/get_memory?memory_id=${id}&user_id=alice`)).status).toBe(404);
    expect((await t.post("/search_memory", { query: "m", user_id: "alice" })).body.results).toEqual([]);
  });

  test("accepts a JSON body too", async () => {
    const id = (await add({ memory: "m" })).body.memory_ids[0];
    const r = await t.request("DELETE", "/delete_memory", { memory_id: id, user_id: "alice" });
    expect(r.body).toEqual({ success: true, deleted_count: 1 });
  });

  test("checks a JSON body like the query: wrong types and unknown fields are 400 naming the field", async () => {
    const bad = (field: string, error: string) => ({ success: false, error, code: "VALIDATION_ERROR", field });
    expect((await t.request("DELETE", "/delete_memory", { memory_id: 5, user_id: "alice" })).body).toEqual(
      bad("memory_id", "memory_id: expected string"),
    );
    expect(
      (await t.request("DELETE", "/delete_memory", { memory_id: "m", user_id: "alice", force: true })).body,
    ).toEqual(bad("force", "force: unexpected property"));
  });

  test("answers 404 the second time", async () => {
    const id = (await add({ memory: "m" })).body.memory_ids[0];
    await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=alice`);
    const r = await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=alice`);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("NOT_FOUND");
  });

  test("needs memory_id", async () => {
    const r = await t.request("DELETE", "/delete_memory?user_id=alice");
    expect(r.body).toEqual({
      success: false,
      error: "memory_id is required",
      code: "VALIDATION_ERROR",
      field: "memory_id",
    });
  });
});

describe("POST /delete_all_memories", () => {
  test("deletes every memory of the user and counts them", async () => {
    await add({ memory: "one" });
    await add({ memory: "two", agent_id: "other", session_id: "s" });
    await t.post("/add_memories", { user_id: "bob", memory: "bob's" });
    const r = await t.post("/delete_all_memories", { user_id: "alice" });
    expect(r.body).toEqual({ success: true, deleted_count: 2 });
    expect((await t.get("/list_memories?user_id=alice")).body.total).toBe(0);
    expect((await t.get("/list_memories?user_id=bob")).body.total).toBe(1);
  });

  test("with cascade reports what policy retained", async () => {
    await add({ memory: "one" });
    const r = await t.post("/delete_all_memories", { user_id: "alice", cascade: true });
    expect(r.body).toEqual({ success: true, deleted_count: 1, retained: {} });
  });

  test("rejects a non-boolean cascade", async () => {
    const r = await t.post("/delete_all_memories", { user_id: "alice", cascade: "yes" });
    expect(r.body.field).toBe("cascade");
  });
});

describe("GET /list_memories", () => {
  test("lists newest first and pages with next_cursor", async () => {
    for (const m of ["first", "second", "third"]) {
      await add({ memory: m });
      t.clock.advance(10);
    }
    const p1 = await t.get("/list_memories?user_id=alice&limit=2");
    expect(p1.body.results.map((r: any) => r.memory)).toEqual(["third", "second"]);
    expect(p1.body.total).toBe(3);
    expect(p1.body.has_more).toBe(true);
    const p2 = await t.get(`/list_memories?user_id=alice&limit=2&cursor=${p1.body.next_cursor}`);
    expect(p2.body.results.map((r: any) => r.memory)).toEqual(["first"]);
    expect(p2.body).toMatchObject({ total: 3, has_more: false, next_cursor: null });
    expect(p2.body.results[0].created_at).toMatch(ISO);
  });

  test("counts session memories in total", async () => {
    await add({ memory: "a", session_id: "s1" });
    await add({ memory: "b" });
    expect((await t.get("/list_memories?user_id=alice")).body.total).toBe(2);
  });

  test("keeps total exact across writes, deletes, agents and expiry, cached or not", async () => {
    const total = async (q = "") => (await t.get(`/list_memories?user_id=alice${q}`)).body.total;
    await add({ memory: "a", agent_id: "chat" });
    expect(await total()).toBe(1);
    const b = (
      await add({ memory: "b", agent_id: "editor", metadata: { temporary: true, expiresAt: t.clock.now() + 1000 } })
    ).body.memory_ids[0];
    expect([await total(), await total("&agent_id=chat"), await total("&agent_id=editor")]).toEqual([2, 1, 1]);
    t.clock.advance(1000); // b expires: no write happened, the count still drops
    expect([await total(), await total("&agent_id=editor")]).toEqual([1, 0]);
    await add({ memory: "c", agent_id: "editor" });
    expect(await total()).toBe(2);
    expect((await t.request("DELETE", `/delete_memory?memory_id=${b}&user_id=alice`)).status).toBe(404);
    await t.post("/delete_all_memories", { user_id: "alice" });
    expect([await total(), await total("&agent_id=editor")]).toEqual([0, 0]);
  });

  test("reads a query number only from decimal digits: blank, hex, exponent and fractional limits are 400 on limit", async () => {
    for (const limit of ["", "%20", "0x10", "1e2", "2.5", "5abc"])
      expect((await t.get(`/list_memories?user_id=alice&limit=${limit}`)).body).toEqual({
        success: false,
        error: "limit: expected integer",
        code: "VALIDATION_ERROR",
        field: "limit",
      });
    expect((await t.get("/list_memories?user_id=alice&limit=0007")).status).toBe(200);
  });

  test("rejects a limit outside 1–1000, a non-numeric limit and a forged cursor", async () => {
    expect((await t.get("/list_memories?user_id=alice&limit=0")).body.field).toBe("limit");
    expect((await t.get("/list_memories?user_id=alice&limit=1001")).body.field).toBe("limit");
    expect((await t.get("/list_memories?user_id=alice&limit=abc")).body.field).toBe("limit");
    expect((await t.get("/list_memories?user_id=alice&limit=2.5")).body.field).toBe("limit");
    const forged = await t.get("/list_memories?user_id=alice&cursor=zzz");
    expect(forged.body).toEqual({
      success: false,
      error: "cursor is not a next_cursor returned by this listing",
      code: "VALIDATION_ERROR",
      field: "cursor",
    });
  });

  test("needs user_id", async () => {
    const r = await t.get("/list_memories");
    expect(r.body).toEqual({
      success: false,
      error: "user_id is required",
      code: "VALIDATION_ERROR",
      field: "user_id",
    });
  });
});

describe("cloud-compatible /v1 paths", () => {
  test("answer the same as the root paths", async () => {
    const r = await t.post("/v1/add_memories", { user_id: "alice", memory: "via v1" });
    expect(r.status).toBe(200);
    const list = await t.get("/v1/list_memories?user_id=alice");
    expect(list.body.results[0].memory).toBe("via v1");
    expect((await t.get("/v1/health")).body.status).toBe("ok");
  });
});
