// A lone UTF-16 surrogate cannot be stored as UTF-8: SQLite kept U+FFFD while responses echoed the
// original. Text is made well-formed where it comes in, so what is answered is what is stored.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { createEngram } from "~/index";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** JSON text with the escape of a lone high surrogate between a and b, as a client may send it. */
const LONE = "a\\ud800b";
const STORED = "a\ufffdb";
const send = (method: string, path: string, json: string) =>
  t.request(method, path, json, { "content-type": "application/json" });

describe("a lone surrogate in a JSON body", () => {
  test("a memory answers and reads back the same text", async () => {
    const id = (await send("POST", "/add_memories", `{"user_id":"u","memory":"${LONE}"}`)).body.memory_ids[0];
    expect((await t.get(`/get_memory?memory_id=${id}&user_id=u`)).body.memory).toBe(STORED);
    const updated = await send("POST", "/update_memory", `{"user_id":"u","memory_id":"${id}","memory":"x${LONE}"}`);
    expect(updated.body.memory).toBe(`x${STORED}`);
    expect((await t.get(`/get_memory?memory_id=${id}&user_id=u`)).body.memory).toBe(`x${STORED}`);
  });

  test("graph entities answer the id they are stored under, and are found by it", async () => {
    const put = await send(
      "POST",
      "/graph/entities",
      `{"user_id":"u","entities":[{"type":"person","id":"p${LONE}","name":"${LONE}"}]}`,
    );
    expect(put.body.entities).toEqual([{ type: "person", id: `p${STORED}`, name: STORED, properties: {} }]);
    const found = await t.get(`/graph/entities?user_id=u&q=${encodeURIComponent(STORED)}`);
    expect(found.body.results.map((e: any) => e.id)).toEqual([`p${STORED}`]);
  });

  test("session, record, key and conversation answers equal what is read back", async () => {
    const session = (await send("POST", "/sessions", `{"user_id":"u","device":"${LONE}"}`)).body.session;
    expect(session.device).toBe(STORED);
    expect((await t.get(`/sessions/${session.id}?user_id=u`)).body.session.device).toBe(STORED);
    await send("PUT", "/immutable/kb/1", `{"data":{"t":"${LONE}"}}`);
    expect((await t.get("/immutable/kb/1")).body.data).toEqual({ t: STORED });
    expect((await send("PUT", "/mutable/n/k", `{"value":"${LONE}"}`)).body.value).toBe(STORED);
    expect((await t.get("/mutable/n/k")).body.value).toBe(STORED);
    const conv = await send(
      "POST",
      "/conversations",
      `{"user_id":"u","messages":[{"role":"user","content":"${LONE}"}]}`,
    );
    expect(conv.body.messages[0].content).toBe(STORED);
    expect((await t.get(`/conversations/${conv.body.id}?user_id=u`)).body.messages[0].content).toBe(STORED);
  });

  test("keys of free-form objects are made well-formed too", async () => {
    const id = (await send("POST", "/add_memories", `{"user_id":"u","memory":"m","metadata":{"${LONE}":1}}`)).body
      .memory_ids[0];
    expect((await t.get(`/get_memory?memory_id=${id}&user_id=u`)).body.metadata).toEqual({ [STORED]: 1 });
  });
});

describe("a lone surrogate through the in-process SDK", () => {
  test("an update answers the text that get reads back", async () => {
    const engram = await createEngram({ storeUrl: "sqlite::memory:", embedding: { provider: "none" } });
    try {
      const [id] = (await engram.addMemories({ user_id: "u", memory: "a\ud800b" })).memory_ids;
      const updated = await engram.updateMemory({ user_id: "u", memory_id: id!, memory: "c\udc00d" });
      expect(updated.memory).toBe("c\ufffdd");
      expect((await engram.getMemory({ user_id: "u", memory_id: id! })).memory).toBe("c\ufffdd");
    } finally {
      await engram.close();
    }
  });
});
