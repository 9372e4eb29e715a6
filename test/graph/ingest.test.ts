// Filling the graph from memories: entities and relationships upserted, mentions linked
// (not for the user's own entity), names the user set kept, links replaced on update.
import { expect, test } from "bun:test";
import { ingestMemory } from "~/graph/ingest";
import { RuleExtractor } from "~/graph/extract-rules";
import { EmbeddedGraph } from "~/graph/embedded-graph";
import { openTestStore } from "../support/store";
import { owner } from "../support/memory-rows";

const fresh = async () => new EmbeddedGraph(await openTestStore());

test("a memory's entities, relationships and mentions land in the graph", async () => {
  const graph = await fresh();
  await graph.upsertEntities(owner("u1"), [{ type: "organization", id: "google", name: "Google LLC" }]);
  await ingestMemory(graph, new RuleExtractor(), owner("u1"), {
    id: "m1",
    text: "I work at Google and my dog is Rex.",
  });
  const r = await graph.traverse(owner("u1"), { start: { type: "person", id: "user" }, maxDepth: 1, direction: "out" });
  expect(r.entities.map((e) => `${e.type}:${e.id}:${e.name}`)).toEqual([
    "person:user:User",
    "organization:google:Google LLC",
    "pet:rex:Rex",
  ]);
  expect(r.relationships.map((e) => e.type)).toEqual(["HAS_PET", "WORKS_AT"].sort());
  expect((await graph.entitiesForMemories(owner("u1"), ["m1"])).map((m) => m.entity.id)).toEqual(["google", "rex"]);
});

test("re-ingesting an updated memory with replace swaps its mention links", async () => {
  const graph = await fresh();
  await ingestMemory(graph, new RuleExtractor(), owner("u1"), { id: "m1", text: "Alice lives in Paris." });
  await ingestMemory(
    graph,
    new RuleExtractor(),
    owner("u1"),
    { id: "m1", text: "Alice lives in Rome now." },
    { replace: true },
  );
  expect((await graph.entitiesForMemories(owner("u1"), ["m1"])).map((m) => m.entity.id)).toEqual(["alice", "rome"]);
  expect(await graph.memoriesMentioning(owner("u1"), [{ type: "place", id: "paris" }])).toEqual([]);
});
