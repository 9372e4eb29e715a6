// The mirror's plumbing without Neo4j: a second SQLite graph stands in as the replica.
import { expect, test } from "bun:test";
import { MirroredGraph, rebuildReplica } from "~/graph/mirrored-graph";
import { EmbeddedGraph } from "~/graph/embedded-graph";
import { graphStoreContract } from "./graph-store.contract";
import { openTestStore } from "../support/store";
import { owner } from "../support/memory-rows";

const fresh = async () => new EmbeddedGraph(await openTestStore());

graphStoreContract("sqlite mirrored to a sqlite replica", async () => ({
  store: new MirroredGraph(await fresh(), await fresh()),
}));

test("writes through the mirror leave the replica an exact copy of the source", async () => {
  const [primary, replica] = [await fresh(), await fresh()];
  const graph = new MirroredGraph(primary, replica);
  await graph.upsertEntities(owner("u1"), [
    { type: "person", id: "a", properties: { k: { x: 1 } } },
    { type: "person", id: "b" },
  ]);
  await graph.upsertEntities(owner("u1"), [{ type: "person", id: "a", properties: { k: { x: null, y: 2 } } }]);
  await graph.upsertRelationships(owner("u1"), [
    { from: { type: "person", id: "a" }, type: "KNOWS", to: { type: "person", id: "b" }, properties: { w: 1 } },
  ]);
  await graph.linkMentions(owner("u1"), "m1", [{ type: "person", id: "a" }]);
  expect(await replica.exportUser(owner("u1"))).toEqual(await primary.exportUser(owner("u1")));
  await graph.deleteUser(owner("u1"));
  expect(await replica.owners()).toEqual([]);
});

test("a rebuild replaces the replica's content with the source's", async () => {
  const [source, replica] = [await fresh(), await fresh()];
  await source.upsertEntities(owner("u1"), [
    { type: "person", id: "a", name: "A" },
    { type: "place", id: "oslo" },
  ]);
  await source.upsertRelationships(owner("u1"), [
    { from: { type: "person", id: "a" }, type: "LIVES_IN", to: { type: "place", id: "oslo" } },
  ]);
  await source.linkMentions(owner("u1"), "m1", [{ type: "place", id: "oslo" }]);
  await source.upsertEntities(owner("u2"), [{ type: "person", id: "z" }]);
  await replica.upsertEntities(owner("stale"), [{ type: "person", id: "gone" }]);
  expect(await rebuildReplica(source, replica)).toEqual({ users: 2, entities: 3, relationships: 1, mentions: 1 });
  expect(await replica.owners()).toEqual([owner("u1"), owner("u2")]);
  for (const u of [owner("u1"), owner("u2")]) expect(await replica.exportUser(u)).toEqual(await source.exportUser(u));
});

test("links of deleted memories: the primary leaves them to its store's trigger, the replica removes them", async () => {
  const [primary, replica] = [await fresh(), await fresh()];
  const graph = new MirroredGraph(primary, replica);
  const alice = { type: "person", id: "alice" };
  await graph.upsertEntities(owner("u1"), [alice]);
  await graph.linkMentions(owner("u1"), "m1", [alice]);
  await graph.unlinkDeleted(owner("u1"), ["m1"]);
  // No memory row m1 was deleted here, so the primary's link is still there: unlinkDeleted did not touch it.
  expect(await primary.memoriesMentioning(owner("u1"), [alice])).toEqual([{ memoryId: "m1", matches: 1 }]);
  expect(await replica.memoriesMentioning(owner("u1"), [alice])).toEqual([]);
});
