import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { owner } from "../support/memory-rows";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const seed = async (user = "u") => {
  await t.post("/graph/entities", {
    user_id: user,
    entities: [
      { type: "person", id: "ann", name: "Ann" },
      { type: "person", id: "bob", name: "Bob", properties: { age: 40 } },
      { type: "organization", id: "acme", name: "Acme" },
      { type: "place", id: "oslo", name: "Oslo" },
    ],
  });
  return t.post("/graph/relationships", {
    user_id: user,
    relationships: [
      { from: { type: "person", id: "ann" }, type: "KNOWS", to: { type: "person", id: "bob" } },
      { from: { type: "person", id: "bob" }, type: "WORKS_AT", to: { type: "organization", id: "acme" } },
      { from: { type: "organization", id: "acme" }, type: "LOCATED_IN", to: { type: "place", id: "oslo" } },
    ],
  });
};
const names = (r: { body: any }) => r.body.entities.map((e: any) => `${e.name}@${e.depth}`);

describe("POST /graph/traverse", () => {
  test("walks out to max_depth and reports depths and relationships", async () => {
    expect((await seed()).status).toBe(200);
    const r = await t.post("/graph/traverse", {
      user_id: "u",
      start: { type: "person", id: "ann" },
      max_depth: 2,
      direction: "out",
    });
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(["Ann@0", "Bob@1", "Acme@2"]);
    expect(r.body.relationships).toEqual([
      { from: { type: "person", id: "ann" }, type: "KNOWS", to: { type: "person", id: "bob" } },
      { from: { type: "person", id: "bob" }, type: "WORKS_AT", to: { type: "organization", id: "acme" } },
    ]);
  });

  test("follows only the named relationships and respects direction", async () => {
    await seed();
    const only = await t.post("/graph/traverse", {
      user_id: "u",
      start: { type: "person", id: "ann" },
      relationships: ["KNOWS"],
      max_depth: 5,
    });
    expect(names(only)).toEqual(["Ann@0", "Bob@1"]);
    const inbound = await t.post("/graph/traverse", {
      user_id: "u",
      start: { type: "place", id: "oslo" },
      direction: "in",
      max_depth: 3,
    });
    expect(names(inbound)).toEqual(["Oslo@0", "Acme@1", "Bob@2", "Ann@3"]);
    const outbound = await t.post("/graph/traverse", {
      user_id: "u",
      start: { type: "place", id: "oslo" },
      direction: "out",
    });
    expect(names(outbound)).toEqual(["Oslo@0"]);
  });

  test("answers 404 for an unknown start and for another user's entity", async () => {
    await seed("owner");
    const r = await t.post("/graph/traverse", { user_id: "intruder", start: { type: "person", id: "ann" } });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("NOT_FOUND");
    const found = await t.get("/graph/entities?user_id=intruder&q=ann");
    expect(found.body).toEqual({ success: true, results: [] });
  });

  test("rejects a bad direction, a depth out of range and a missing start", async () => {
    expect(
      (await t.post("/graph/traverse", { user_id: "u", start: { type: "person", id: "a" }, direction: "up" })).body
        .field,
    ).toBe("direction");
    expect(
      (await t.post("/graph/traverse", { user_id: "u", start: { type: "person", id: "a" }, max_depth: 11 })).body.field,
    ).toBe("max_depth");
    expect(
      (await t.post("/graph/traverse", { user_id: "u", start: { type: "person", id: "a" }, max_depth: 0 })).body.field,
    ).toBe("max_depth");
    const missing = await t.post("/graph/traverse", { user_id: "u" });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      success: false,
      error: "start is required",
      code: "VALIDATION_ERROR",
      field: "start",
    });
  });
});

describe("POST /graph/relationships", () => {
  test("rejects a relationship to a missing entity and stores none of the batch", async () => {
    await seed();
    const r = await t.post("/graph/relationships", {
      user_id: "u",
      relationships: [
        { from: { type: "person", id: "ann" }, type: "LIKES", to: { type: "place", id: "oslo" } },
        { from: { type: "person", id: "ann" }, type: "KNOWS", to: { type: "person", id: "ghost" } },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe("relationships[1].to");
    const walk = await t.post("/graph/traverse", {
      user_id: "u",
      start: { type: "person", id: "ann" },
      relationships: ["LIKES"],
    });
    expect(names(walk)).toEqual(["Ann@0"]);
  });
});

describe("GET /graph/entities", () => {
  test("finds entities by name and type", async () => {
    await seed();
    const r = await t.get("/graph/entities?user_id=u&q=ac");
    expect(r.body.results.map((e: any) => e.id)).toEqual(["acme"]);
    expect((await t.get("/graph/entities?user_id=u&type=person")).body.results.map((e: any) => e.id)).toEqual([
      "ann",
      "bob",
    ]);
    expect((await t.get("/graph/entities?user_id=u&limit=0")).body.field).toBe("limit");
  });
});

describe("the graph follows memories", () => {
  test("stored memories fill the graph, and deleting them removes their MENTIONS links", async () => {
    const id = (await t.post("/add_memories", { user_id: "u", memory: "My sister Maria lives in Lisbon" })).body
      .memory_ids[0];
    const walk = await t.post("/graph/traverse", { user_id: "u", start: { type: "person", id: "user" }, max_depth: 2 });
    expect(walk.body.entities.map((e: any) => e.name)).toEqual(expect.arrayContaining(["Maria", "Lisbon"]));
    const store = t.services.graph.store;
    expect(
      (await store.memoriesMentioning(owner("u"), [{ type: "place", id: "lisbon" }])).map((m) => m.memoryId),
    ).toEqual([id]);
    await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`);
    expect(await store.memoriesMentioning(owner("u"), [{ type: "place", id: "lisbon" }])).toEqual([]);
  });

  test("a cascade delete removes the user's whole graph", async () => {
    await seed();
    await t.post("/delete_all_memories", { user_id: "u", cascade: true });
    expect((await t.post("/graph/traverse", { user_id: "u", start: { type: "person", id: "ann" } })).status).toBe(404);
  });
});
