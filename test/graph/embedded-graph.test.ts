// The GraphStore contract against the embedded graph over a SQLite store, plus what only SQLite promises.
import { expect, test } from "bun:test";
import { EmbeddedGraph } from "~/graph/embedded-graph";
import type { GraphStore } from "~/graph/graph-store";
import { graphStoreContract } from "./graph-store.contract";
import { openTestStore } from "../support/store";
import { owner } from "../support/memory-rows";

graphStoreContract("sqlite", async () => {
  const store = await openTestStore();
  return { store: new EmbeddedGraph(store), cleanup: async () => store.close() };
});

test("deleting a memory row removes its mention links (trigger)", async () => {
  const store = await openTestStore();
  const { db } = store;
  const graph = new EmbeddedGraph(store);
  await graph.upsertEntities(owner("u1"), [{ type: "person", id: "alice" }]);
  db.query(
    "INSERT INTO memories (id, user_id, agent_id, memory, created_at, updated_at) VALUES ('m1', 'u1', 'a', 'Alice', 0, 0)",
  ).run();
  await graph.linkMentions(owner("u1"), "m1", [{ type: "person", id: "alice" }]);
  expect(await graph.memoriesMentioning(owner("u1"), [{ type: "person", id: "alice" }])).toEqual([
    { memoryId: "m1", matches: 1 },
  ]);
  db.query("DELETE FROM memories WHERE id = 'm1'").run();
  expect(await graph.memoriesMentioning(owner("u1"), [{ type: "person", id: "alice" }])).toEqual([]);
  db.close();
});

test("exportUser returns the user's graph as plain data", async () => {
  const store = await openTestStore();
  const { db } = store;
  const graph = new EmbeddedGraph(store);
  await graph.upsertEntities(owner("u1"), [
    { type: "person", id: "a", properties: { x: 1 } },
    { type: "person", id: "b" },
  ]);
  await graph.upsertRelationships(owner("u1"), [
    { from: { type: "person", id: "a" }, type: "KNOWS", to: { type: "person", id: "b" }, properties: { w: 2 } },
  ]);
  await graph.linkMentions(owner("u1"), "m1", [{ type: "person", id: "b" }]);
  expect(await graph.owners()).toEqual([owner("u1")]);
  expect(await graph.exportUser(owner("u1"))).toEqual({
    entities: [
      { type: "person", id: "a", name: "a", properties: { x: 1 } },
      { type: "person", id: "b", name: "b", properties: {} },
    ],
    relationships: [
      { from: { type: "person", id: "a" }, type: "KNOWS", to: { type: "person", id: "b" }, properties: { w: 2 } },
    ],
    mentions: [{ memoryId: "m1", entity: { type: "person", id: "b" } }],
  });
  db.close();
});

test("unlinkDeleted asks nothing of the store: the deleted rows' trigger already dropped their links", async () => {
  const store = await openTestStore();
  const graph: GraphStore = new EmbeddedGraph(store);
  await graph.upsertEntities(owner("u1"), [{ type: "person", id: "alice" }]);
  await graph.linkMentions(owner("u1"), "m1", [{ type: "person", id: "alice" }]);
  await graph.unlinkDeleted(owner("u1"), ["m1"]);
  expect(await graph.memoriesMentioning(owner("u1"), [{ type: "person", id: "alice" }])).toEqual([
    { memoryId: "m1", matches: 1 },
  ]);
  store.db.close();
});
