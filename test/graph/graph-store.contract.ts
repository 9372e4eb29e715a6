// The GraphStore contract: every implementation (SQLite, Neo4j, the mirror) runs this suite
// through a five-line test file. Users are unique per test so a shared Neo4j stays clean.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { GraphStore, RelationshipInput } from "~/graph/graph-store";
import { AppError } from "~/shared/errors";
import { owner } from "../support/memory-rows";
import type { Owner } from "~/store/repos/memory-repo";

export interface ContractTarget {
  store: GraphStore;
  cleanup?: () => Promise<void>;
}

const p = (id: string) => ({ type: "person", id });
const rel = (from: string, type: string, to: string): RelationshipInput => ({ from: p(from), type, to: p(to) });

async function expectAppError(promise: Promise<unknown>, code: string, field?: string): Promise<void> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code as AppError["code"]);
  if (field !== undefined) expect((err as AppError).field).toBe(field);
}

export function graphStoreContract(name: string, factory: () => Promise<ContractTarget>): void {
  describe(`GraphStore contract: ${name}`, () => {
    let target: ContractTarget;
    let store: GraphStore;
    let users: Owner[] = [];
    const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const user = (tag = "u") => {
      const u = owner(`contract-${run}-${users.length}-${tag}`);
      users.push(u);
      return u;
    };
    /** Creates the people and a relationship per [from, type, to]. */
    async function graph(u: Owner, edges: [string, string, string][], extra: string[] = []): Promise<void> {
      const ids = [...new Set([...edges.flatMap(([a, , b]) => [a, b]), ...extra])];
      await store.upsertEntities(
        u,
        ids.map((id) => ({ ...p(id), name: id.toUpperCase() })),
      );
      if (edges.length)
        await store.upsertRelationships(
          u,
          edges.map(([a, t, b]) => rel(a, t, b)),
        );
    }
    const ids = (r: { entities: { id: string; depth: number }[] }) => r.entities.map((e) => `${e.id}@${e.depth}`);
    const edgeIds = (r: { relationships: { from: { id: string }; type: string; to: { id: string } }[] }) =>
      r.relationships.map((e) => `${e.from.id}-${e.type}->${e.to.id}`);

    beforeAll(async () => {
      target = await factory();
      store = target.store;
    });
    afterEach(async () => {
      for (const u of users) await store.deleteUser(u);
      users = [];
    });
    afterAll(async () => {
      await store.close();
      await target.cleanup?.();
    });

    test("upserting entities twice stores each once and returns the stored state", async () => {
      const u = user();
      const first = await store.upsertEntities(u, [
        { type: "person", id: "alice" },
        { type: "place", id: "paris", name: "Paris" },
      ]);
      expect(first).toEqual([
        { type: "person", id: "alice", name: "alice", properties: {} },
        { type: "place", id: "paris", name: "Paris", properties: {} },
      ]);
      await store.upsertEntities(u, [
        { type: "person", id: "alice" },
        { type: "place", id: "paris", name: "Paris" },
      ]);
      // find orders by name in code-point order: "Paris" sorts before "alice"
      expect(await store.findEntities(u, { limit: 10 })).toEqual([first[1]!, first[0]!]);
    });

    test("an upsert merges properties as a JSON merge patch and keeps an omitted name", async () => {
      const u = user();
      await store.upsertEntities(u, [
        {
          type: "person",
          id: "alice",
          name: "Alice",
          properties: { age: 30, tags: ["a"], home: { city: "Oslo", zip: "1" } },
        },
      ]);
      const [after] = await store.upsertEntities(u, [
        { type: "person", id: "alice", properties: { age: null, home: { zip: "2" }, role: "dev" } },
      ]);
      expect(after).toEqual({
        type: "person",
        id: "alice",
        name: "Alice",
        properties: { tags: ["a"], home: { city: "Oslo", zip: "2" }, role: "dev" },
      });
      expect(await store.findEntities(u, { limit: 10 })).toEqual([after!]);
    });

    test("ifMissing mode creates new entities and leaves existing ones untouched", async () => {
      const u = user();
      await store.upsertEntities(u, [{ type: "organization", id: "google", name: "Google LLC", properties: { a: 1 } }]);
      const out = await store.upsertEntities(
        u,
        [
          { type: "organization", id: "google", name: "Google" },
          { type: "person", id: "bob", name: "Bob" },
        ],
        "ifMissing",
      );
      expect(out).toEqual([
        { type: "organization", id: "google", name: "Google LLC", properties: { a: 1 } },
        { type: "person", id: "bob", name: "Bob", properties: {} },
      ]);
    });

    test("upserting a relationship twice keeps one and merges its properties", async () => {
      const u = user();
      await graph(u, [], ["alice", "bob"]);
      await store.upsertRelationships(u, [
        { ...rel("alice", "KNOWS", "bob"), properties: { since: 2020, via: "work" } },
      ]);
      const out = await store.upsertRelationships(u, [{ ...rel("alice", "KNOWS", "bob"), properties: { via: null } }]);
      expect(out).toEqual([{ from: p("alice"), type: "KNOWS", to: p("bob"), properties: { since: 2020 } }]);
      const r = await store.traverse(u, { start: p("alice"), maxDepth: 1, direction: "out" });
      expect(edgeIds(r)).toEqual(["alice-KNOWS->bob"]);
    });

    test("a relationship to a missing entity rejects the whole batch naming the field", async () => {
      const u = user();
      await graph(u, [], ["alice", "bob"]);
      await expectAppError(
        store.upsertRelationships(u, [rel("alice", "KNOWS", "bob"), rel("alice", "KNOWS", "ghost")]),
        "VALIDATION_ERROR",
        "relationships[1].to",
      );
      await expectAppError(
        store.upsertRelationships(u, [rel("ghost", "KNOWS", "bob")]),
        "VALIDATION_ERROR",
        "relationships[0].from",
      );
      const r = await store.traverse(u, { start: p("alice"), maxDepth: 1, direction: "both" });
      expect(r.relationships).toEqual([]);
    });

    test("find matches a case-insensitive name substring, exact and prefix matches first", async () => {
      const u = user();
      await store.upsertEntities(u, [
        { type: "person", id: "ann-lee", name: "Ann Lee" },
        { type: "person", id: "joann", name: "Joann" },
        { type: "place", id: "ann", name: "ANN" },
        { type: "person", id: "bob", name: "Bob" },
      ]);
      const names = async (o: { q?: string; type?: string; limit: number }) =>
        (await store.findEntities(u, o)).map((e) => e.name);
      expect(await names({ q: "ann", limit: 10 })).toEqual(["ANN", "Ann Lee", "Joann"]);
      expect(await names({ q: "ann", type: "person", limit: 10 })).toEqual(["Ann Lee", "Joann"]);
      expect(await names({ q: "ann", limit: 1 })).toEqual(["ANN"]);
      expect(await names({ type: "place", limit: 10 })).toEqual(["ANN"]);
    });

    test("traversal stops at max_depth and returns the start at depth 0", async () => {
      const u = user();
      await graph(u, [
        ["a", "NEXT", "b"],
        ["b", "NEXT", "c"],
        ["c", "NEXT", "d"],
      ]);
      const r = await store.traverse(u, { start: p("a"), maxDepth: 2, direction: "out" });
      expect(r.entities).toEqual([
        { type: "person", id: "a", name: "A", properties: {}, depth: 0 },
        { type: "person", id: "b", name: "B", properties: {}, depth: 1 },
        { type: "person", id: "c", name: "C", properties: {}, depth: 2 },
      ]);
      expect(r.relationships).toEqual([
        { from: p("a"), type: "NEXT", to: p("b") },
        { from: p("b"), type: "NEXT", to: p("c") },
      ]);
    });

    test("direction out, in and both follow relationships forwards, backwards or either way", async () => {
      const u = user();
      await graph(u, [
        ["a", "NEXT", "b"],
        ["b", "NEXT", "c"],
        ["c", "NEXT", "d"],
      ]);
      const walk = (direction: "out" | "in" | "both") => store.traverse(u, { start: p("b"), maxDepth: 5, direction });
      expect(ids(await walk("out"))).toEqual(["b@0", "c@1", "d@2"]);
      expect(ids(await walk("in"))).toEqual(["b@0", "a@1"]);
      expect(ids(await walk("both"))).toEqual(["b@0", "a@1", "c@1", "d@2"]);
      expect(edgeIds(await walk("in"))).toEqual(["a-NEXT->b"]);
    });

    test("a relationship filter follows only the named relationships", async () => {
      const u = user();
      await graph(u, [
        ["a", "WORKS_WITH", "b"],
        ["a", "KNOWS", "c"],
        ["c", "WORKS_WITH", "d"],
        ["b", "KNOWS", "e"],
      ]);
      const r = await store.traverse(u, {
        start: p("a"),
        relationships: ["WORKS_WITH"],
        maxDepth: 3,
        direction: "both",
      });
      expect(ids(r)).toEqual(["a@0", "b@1"]);
      expect(edgeIds(r)).toEqual(["a-WORKS_WITH->b"]);
      const two = await store.traverse(u, {
        start: p("a"),
        relationships: ["KNOWS", "WORKS_WITH"],
        maxDepth: 2,
        direction: "out",
      });
      expect(ids(two)).toEqual(["a@0", "b@1", "c@1", "d@2", "e@2"]);
    });

    test("cycles terminate and every entity appears once at its smallest depth", async () => {
      const u = user();
      await graph(u, [
        ["a", "NEXT", "b"],
        ["b", "NEXT", "c"],
        ["c", "NEXT", "a"],
        ["a", "SELF", "a"],
      ]);
      const r = await store.traverse(u, { start: p("a"), maxDepth: 10, direction: "both" });
      expect(ids(r)).toEqual(["a@0", "b@1", "c@1"]);
      expect(edgeIds(r)).toEqual(["a-NEXT->b", "a-SELF->a", "b-NEXT->c", "c-NEXT->a"]);
      const out = await store.traverse(u, { start: p("a"), maxDepth: 10, direction: "out" });
      expect(ids(out)).toEqual(["a@0", "b@1", "c@2"]);
    });

    test("relationships between two entities at max_depth are not returned", async () => {
      const u = user();
      await graph(u, [
        ["a", "R", "b"],
        ["a", "R", "c"],
        ["b", "R", "c"],
      ]);
      const r = await store.traverse(u, { start: p("a"), maxDepth: 1, direction: "out" });
      expect(ids(r)).toEqual(["a@0", "b@1", "c@1"]);
      expect(edgeIds(r)).toEqual(["a-R->b", "a-R->c"]);
    });

    test("limit caps the entities, the start included, by depth then type then id", async () => {
      const u = user();
      await graph(
        u,
        ["l5", "l1", "l4", "l2", "l3"].map((l) => ["hub", "HAS", l] as [string, string, string]),
      );
      const r = await store.traverse(u, { start: p("hub"), maxDepth: 2, direction: "out", limit: 3 });
      expect(ids(r)).toEqual(["hub@0", "l1@1", "l2@1"]);
      expect(edgeIds(r)).toEqual(["hub-HAS->l1", "hub-HAS->l2"]);
    });

    test("an unknown start entity is NOT_FOUND and a bad max_depth is a VALIDATION_ERROR", async () => {
      const u = user();
      await graph(u, [], ["a"]);
      await expectAppError(store.traverse(u, { start: p("nobody"), maxDepth: 2, direction: "both" }), "NOT_FOUND");
      await expectAppError(
        store.traverse(u, { start: p("a"), maxDepth: 11, direction: "both" }),
        "VALIDATION_ERROR",
        "max_depth",
      );
      await expectAppError(
        store.traverse(u, { start: p("a"), maxDepth: 1.5, direction: "both" }),
        "VALIDATION_ERROR",
        "max_depth",
      );
    });

    test("the same user id in another organization has a graph of its own: entities, walks, mentions and erasure", async () => {
      const mine = user("same");
      const theirs = { org: `other-${run}`, userId: mine.userId };
      users.push(theirs);
      await graph(mine, [["a", "KNOWS", "b"]]);
      await store.upsertEntities(theirs, [
        { ...p("a"), name: "Their A" },
        { ...p("z"), name: "Zed" },
      ]);
      await store.upsertRelationships(theirs, [rel("a", "KNOWS", "z")]);
      await store.linkMentions(theirs, "m-theirs", [p("a")]);
      expect((await store.findEntities(mine, { limit: 10 })).map((e) => e.name)).toEqual(["A", "B"]);
      expect((await store.findEntities(theirs, { limit: 10 })).map((e) => e.name)).toEqual(["Their A", "Zed"]);
      const walk = await store.traverse(mine, { start: p("a"), maxDepth: 3, direction: "both" });
      expect(walk.entities.map((e) => e.name)).toEqual(["A", "B"]);
      await expectAppError(store.traverse(mine, { start: p("z"), maxDepth: 1, direction: "both" }), "NOT_FOUND");
      expect(await store.memoriesMentioning(mine, [p("a")])).toEqual([]);
      expect(await store.unlinkMemories(mine, ["m-theirs"])).toBe(0);
      expect(await store.deleteUser(mine)).toBe(2);
      expect((await store.findEntities(theirs, { limit: 10 })).map((e) => e.name)).toEqual(["Their A", "Zed"]);
      expect(await store.memoriesMentioning(theirs, [p("a")])).toEqual([{ memoryId: "m-theirs", matches: 1 }]);
    });

    test("another user's entities are invisible to traverse and find", async () => {
      const [u1, u2] = [user("one"), user("two")];
      await graph(u1, [["a", "KNOWS", "b"]]);
      await store.upsertEntities(u2, [
        { ...p("a"), name: "Other A" },
        { ...p("z"), name: "Zed" },
      ]);
      await store.upsertRelationships(u2, [rel("a", "KNOWS", "z")]);
      const r = await store.traverse(u1, { start: p("a"), maxDepth: 3, direction: "both" });
      expect(r.entities.map((e) => e.name)).toEqual(["A", "B"]);
      await expectAppError(store.traverse(u1, { start: p("z"), maxDepth: 1, direction: "both" }), "NOT_FOUND");
      expect((await store.findEntities(u1, { q: "zed", limit: 10 })).length).toBe(0);
      expect((await store.findEntities(u2, { limit: 10 })).map((e) => e.name)).toEqual(["Other A", "Zed"]);
      await expectAppError(
        store.upsertRelationships(u2, [rel("a", "KNOWS", "b")]),
        "VALIDATION_ERROR",
        "relationships[0].to",
      );
    });

    test("memories link to the entities they mention and unlinking removes the links", async () => {
      const u = user();
      await store.upsertEntities(u, [
        { ...p("alice"), name: "Alice" },
        { type: "organization", id: "acme", name: "Acme" },
      ]);
      const acme = { type: "organization", id: "acme" };
      await store.linkMentions(u, "m1", [p("alice"), acme]);
      await store.linkMentions(u, "m1", [acme]);
      await store.linkMentions(u, "m2", [acme]);
      expect(await store.memoriesMentioning(u, [p("alice"), acme])).toEqual([
        { memoryId: "m1", matches: 2 },
        { memoryId: "m2", matches: 1 },
      ]);
      expect(await store.entitiesForMemories(u, ["m1"])).toEqual([
        { memoryId: "m1", entity: { type: "organization", id: "acme", name: "Acme" } },
        { memoryId: "m1", entity: { type: "person", id: "alice", name: "Alice" } },
      ]);
      expect(await store.unlinkMemories(u, ["m1", "missing"])).toBe(2);
      expect(await store.memoriesMentioning(u, [p("alice"), acme])).toEqual([{ memoryId: "m2", matches: 1 }]);
      await expectAppError(store.linkMentions(u, "m3", [acme, p("ghost")]), "VALIDATION_ERROR", "entities[1]");
      expect(await store.entitiesForMemories(u, ["m3"])).toEqual([]);
    });

    test("mention links are per user", async () => {
      const [u1, u2] = [user("one"), user("two")];
      for (const u of [u1, u2]) await store.upsertEntities(u, [p("alice")]);
      await store.linkMentions(u1, "m1", [p("alice")]);
      expect(await store.memoriesMentioning(u2, [p("alice")])).toEqual([]);
      expect(await store.unlinkMemories(u2, ["m1"])).toBe(0);
      expect(await store.entitiesForMemories(u1, ["m1"])).toEqual([
        { memoryId: "m1", entity: { type: "person", id: "alice", name: "alice" } },
      ]);
    });

    test("deleting a user removes their whole graph and nobody else's", async () => {
      const [u1, u2] = [user("one"), user("two")];
      await graph(u1, [
        ["a", "KNOWS", "b"],
        ["b", "KNOWS", "c"],
      ]);
      await graph(u2, [["a", "KNOWS", "b"]]);
      await store.linkMentions(u1, "m1", [p("a")]);
      expect(await store.deleteUser(u1)).toBe(3);
      expect(await store.findEntities(u1, { limit: 10 })).toEqual([]);
      expect(await store.memoriesMentioning(u1, [p("a")])).toEqual([]);
      await expectAppError(store.traverse(u1, { start: p("a"), maxDepth: 1, direction: "both" }), "NOT_FOUND");
      expect(ids(await store.traverse(u2, { start: p("a"), maxDepth: 1, direction: "both" }))).toEqual(["a@0", "b@1"]);
      expect(await store.deleteUser(u1)).toBe(0);
    });
  });
}
