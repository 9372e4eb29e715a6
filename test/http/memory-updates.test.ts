// SPEC §11 over HTTP: exact duplicates are not stored twice, a new value of a fact supersedes the old
// memory, reads leave superseded memories out unless asked, and versions keep the history.
import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";

let t: TestApp;
afterEach(() => t.close());

const add = async (memory: string, more: Record<string, unknown> = {}) =>
  (await t.post("/add_memories", { user_id: "u", memory, ...more })).body;
const list = async (query = "") => (await t.get(`/list_memories?user_id=u${query}`)).body;
const search = async (query: string, more: Record<string, unknown> = {}) =>
  (await t.post("/search_memory", { user_id: "u", query, ...more })).body.results;

describe("exact duplicates", () => {
  test("the same text up to case, spaces and punctuation answers the existing id, listed in deduplicated", async () => {
    t = await buildTestApp();
    const [id] = (await add("I live in Berlin.")).memory_ids;
    expect(await add("  i live in   berlin!")).toEqual({ success: true, memory_ids: [id], deduplicated: [id] });
    expect((await list()).total).toBe(1);
  });

  test("another agent, another session or another user stores its own memory", async () => {
    t = await buildTestApp();
    const [id] = (await add("I live in Berlin.")).memory_ids;
    const others = [
      await add("I live in Berlin.", { agent_id: "cursor" }),
      await add("I live in Berlin.", { session_id: "s1" }),
      (await t.post("/add_memories", { user_id: "v", memory: "I live in Berlin." })).body,
    ];
    for (const r of others) {
      expect(r.deduplicated).toBeUndefined();
      expect(r.memory_ids[0]).not.toBe(id);
    }
  });

  test("a repeated message in one add is stored once; its id comes back for each", async () => {
    t = await buildTestApp();
    const r = await t.post("/add_memories", {
      user_id: "u",
      messages: [
        { role: "user", content: "I love jazz" },
        { role: "user", content: "I love jazz!" },
      ],
    });
    expect(r.body.memory_ids[0]).toBe(r.body.memory_ids[1]);
    expect(r.body.deduplicated).toEqual([r.body.memory_ids[0]]);
    expect((await list()).total).toBe(1);
  });

  test("an expired or deleted memory is no duplicate: the text is stored again", async () => {
    t = await buildTestApp();
    const [tmp] = (await add("Parked on level 3", { metadata: { temporary: true, expiresAt: t.clock.now() + 1000 } }))
      .memory_ids;
    t.clock.advance(2000);
    const again = await add("Parked on level 3");
    expect(again.memory_ids[0]).not.toBe(tmp);
    expect(again.deduplicated).toBeUndefined();
    await t.request("DELETE", `/delete_memory?user_id=u&memory_id=${again.memory_ids[0]}`);
    expect((await add("Parked on level 3")).deduplicated).toBeUndefined();
  });
});

describe("supersede on add", () => {
  test("a new value of the same fact supersedes the old memory, which reads leave out unless asked", async () => {
    t = await buildTestApp();
    const [berlin] = (await add("I live in Berlin.")).memory_ids;
    const moved = await add("I moved to Lisbon last month.");
    const [lisbon] = moved.memory_ids;
    expect(moved).toEqual({ success: true, memory_ids: [lisbon], superseded: [berlin] });
    expect((await list()).results.map((r: any) => [r.id, r.supersedes])).toEqual([[lisbon, [berlin]]]);
    expect((await list()).total).toBe(1);
    const all = await list("&include_superseded=true");
    expect(all.total).toBe(2);
    expect(all.results.map((r: any) => [r.memory, r.superseded_by ?? null, r.supersedes ?? null])).toEqual([
      ["I moved to Lisbon last month.", null, [berlin]],
      ["I live in Berlin.", lisbon, null],
    ]);
  });

  test("someone else's move, a past address and a question supersede nothing", async () => {
    t = await buildTestApp();
    await add("I live in Berlin.");
    for (const text of ["My sister moved to Rome.", "I used to live in Madrid.", "Should I move to Lisbon?"])
      expect((await add(text)).superseded).toBeUndefined();
    expect((await list()).total).toBe(4);
  });

  test("a list value adds: a second allergy supersedes nothing, 'no longer allergic' supersedes the first", async () => {
    t = await buildTestApp();
    const [peanuts] = (await add("I'm allergic to peanuts.")).memory_ids;
    expect((await add("I'm also allergic to shellfish.")).superseded).toBeUndefined();
    expect((await add("I'm no longer allergic to peanuts.")).superseded).toEqual([peanuts]);
  });

  test("an assistant's message states no fact of the user's", async () => {
    t = await buildTestApp();
    await add("I live in Berlin.");
    const r = await t.post("/add_memories", {
      user_id: "u",
      messages: [{ role: "assistant", content: "I live in the cloud." }],
    });
    expect(r.body.superseded).toBeUndefined();
  });

  test("facts are compared within one agent and session", async () => {
    t = await buildTestApp();
    await add("I live in Berlin.");
    expect((await add("I moved to Lisbon.", { agent_id: "cursor" })).superseded).toBeUndefined();
    expect((await add("I moved to Lisbon.", { session_id: "s" })).superseded).toBeUndefined();
  });

  test("search answers a match of a superseded memory with its successor; include_superseded shows both", async () => {
    t = await buildTestApp();
    const [berlin] = (await add("I live in Berlin.")).memory_ids;
    const [lisbon] = (await add("I moved to Lisbon.")).memory_ids;
    expect((await search("Berlin")).map((r: any) => r.id)).toEqual([lisbon]);
    const all = await search("Berlin", { include_superseded: true });
    expect(all.map((r: any) => [r.id, r.superseded_by ?? null])).toEqual([
      [berlin, lisbon],
      [lisbon, null],
    ]);
  });

  test("deleting the newer memory makes the older one current again", async () => {
    t = await buildTestApp();
    const [berlin] = (await add("I live in Berlin.")).memory_ids;
    const [lisbon] = (await add("I moved to Lisbon.")).memory_ids;
    await t.request("DELETE", `/delete_memory?user_id=u&memory_id=${lisbon}`);
    expect((await list()).results.map((r: any) => r.id)).toEqual([berlin]);
    const [porto] = (await add("I moved to Porto.")).memory_ids;
    expect((await t.get(`/get_memory?user_id=u&memory_id=${berlin}`)).body.superseded_by).toBe(porto);
  });

  test("updating a memory's text restates its facts: the new value supersedes as an add would", async () => {
    t = await buildTestApp();
    const [berlin] = (await add("I live in Berlin.")).memory_ids;
    const [note] = (await add("Note to self")).memory_ids;
    await t.post("/update_memory", { user_id: "u", memory_id: note, memory: "I moved to Lisbon." });
    expect((await t.get(`/get_memory?user_id=u&memory_id=${berlin}`)).body.superseded_by).toBe(note);
  });
});

describe("GET /memories/:id/versions", () => {
  test("lists the memory's versions, then those of the memories it superseded, with their ids", async () => {
    t = await buildTestApp();
    const [berlin] = (await add("I live in Berlin.")).memory_ids;
    t.clock.advance(1000);
    const [lisbon] = (await add("I moved to Lisbon.")).memory_ids;
    t.clock.advance(1000);
    const [porto] = (await add("I moved to Porto.")).memory_ids;
    const r = await t.get(`/memories/${porto}/versions?user_id=u`);
    expect(r.status).toBe(200);
    expect(r.body.versions.map((v: any) => [v.memory, v.memory_id ?? null, v.superseded_by ?? null])).toEqual([
      ["I moved to Porto.", null, null],
      ["I moved to Lisbon.", lisbon, porto],
      ["I live in Berlin.", berlin, lisbon],
    ]);
  });
});

describe("POST /memories/:id/supersede", () => {
  test("stores the new fact and marks the old one superseded in one step", async () => {
    t = await buildTestApp();
    const [old] = (await add("The wifi password is hunter2", { agent_id: "home", metadata: { tags: ["home"] } }))
      .memory_ids;
    const r = await t.post(`/memories/${old}/supersede`, {
      user_id: "u",
      memory: "The wifi password is correct-horse",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      memory: "The wifi password is correct-horse",
      agent_id: "home",
      metadata: { tags: ["home"] },
      version: 1,
      supersedes: [old],
    });
    expect((await t.get(`/get_memory?user_id=u&memory_id=${old}`)).body.superseded_by).toBe(r.body.id);
    expect((await list()).results.map((m: any) => m.id)).toEqual([r.body.id]);
  });

  test("a text that is already a current memory makes that one the successor", async () => {
    t = await buildTestApp();
    const [old] = (await add("Standup is at 9")).memory_ids;
    const [current] = (await add("Standup is at 10")).memory_ids;
    const r = await t.post(`/memories/${old}/supersede`, { user_id: "u", memory: "standup is at 10!" });
    expect(r.body).toMatchObject({ id: current, supersedes: [old], deduplicated: true });
    expect((await list()).total).toBe(1);
  });

  test("bad input: 404 for another user's id, 409 when already superseded, 400 for blank, same or unknown fields", async () => {
    t = await buildTestApp();
    const [old] = (await add("Standup is at 9")).memory_ids;
    const other = await t.post(`/memories/${old}/supersede`, { user_id: "v", memory: "x" });
    expect([other.status, other.body.code]).toEqual([404, "NOT_FOUND"]);
    const same = await t.post(`/memories/${old}/supersede`, { user_id: "u", memory: "standup is at 9." });
    expect([same.status, same.body.code, same.body.field]).toEqual([400, "VALIDATION_ERROR", "memory"]);
    const blank = await t.post(`/memories/${old}/supersede`, { user_id: "u", memory: "   " });
    expect([blank.status, blank.body.field]).toEqual([400, "memory"]);
    const extra = await t.post(`/memories/${old}/supersede`, { user_id: "u", memory: "x", session: "s" });
    expect([extra.status, extra.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    const missing = await t.post(`/memories/${old}/supersede`, { memory: "x" });
    expect([missing.status, missing.body.field]).toEqual([400, "user_id"]);
    const first = await t.post(`/memories/${old}/supersede`, { user_id: "u", memory: "Standup is at 10" });
    const again = await t.post(`/memories/${old}/supersede`, { user_id: "u", memory: "Standup is at 11" });
    expect([again.status, again.body.code]).toEqual([409, "CONFLICT"]);
    expect(again.body.error).toContain(first.body.id);
    expect((await list("&include_superseded=true")).total).toBe(2);
  });
});

describe("include_superseded", () => {
  test("is a boolean: other values are a 400 naming it", async () => {
    t = await buildTestApp();
    const r = await t.get("/list_memories?user_id=u&include_superseded=yes");
    expect([r.status, r.body.code, r.body.field]).toEqual([400, "VALIDATION_ERROR", "include_superseded"]);
    const s = await t.post("/search_memory", { user_id: "u", query: "x", include_superseded: "true" });
    expect([s.status, s.body.field]).toEqual([400, "include_superseded"]);
  });
});
