// Organizations (SPEC §8), memories, search, sessions, conversations and erasure in process: org A's "alice" and org B's "alice" are two
// users — by id, in a listing, in search and in the search cache (warmed in A, asked from B). Runs on
// both stores (ENGRAM_TEST_STORE=postgres). Over HTTP the server still refuses other organizations' keys
// until every layer is scoped; these calls go through the services the routes call.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { LetterEmbedder } from "../support/embedders";
import { userScopeOf } from "~/shared/principal";

const a = userScopeOf("default", "alice");
const b = userScopeOf("acme", "alice");

describe("organizations: memories, search, sessions and conversations", () => {
  let t: TestApp;
  let ours: string;
  beforeAll(async () => {
    t = await buildTestApp({ embedder: new LetterEmbedder() });
    ours = (await t.services.memory.add(a, { memory: "Alice keeps bees on the roof" })).memory_ids![0]!;
  }, 60_000);
  afterAll(() => t?.close());

  test("another organization's user of the same id gets NOT_FOUND (404) for the memory's id, its versions and updates", async () => {
    for (const call of [
      () => t.services.memory.get(b, { memory_id: ours }),
      () => t.services.memory.versions(b, { memory_id: ours }),
      () => t.services.memory.update(b, { memory_id: ours, memory: "Alice of acme" }),
    ])
      expect(await call().catch((e) => ({ code: e.code, message: e.message }))).toEqual({
        code: "NOT_FOUND",
        message: `memory '${ours}' not found`,
      });
    expect((await t.services.memory.get(a, { memory_id: ours })).memory).toBe("Alice keeps bees on the roof");
  });

  test("a search cached in one organization is not the answer for the same user id and query in another", async () => {
    const q = { query: "bees on the roof" };
    expect((await t.services.memory.searchMemories(a, q)).results.map((r) => r.id)).toEqual([ours]);
    expect((await t.services.memory.searchMemories(a, q)).results.map((r) => r.id)).toEqual([ours]);
    expect(t.services.memory.cache.hits).toBeGreaterThan(0);
    expect((await t.services.memory.searchMemories(b, q)).results).toEqual([]);
  });

  test("listing and counting see only the organization's own memories, and its writes leave the other's alone", async () => {
    const theirs = (await t.services.memory.add(b, { memory: "Alice of acme keeps wasps" })).memory_ids![0]!;
    const listB = await t.services.memory.list(b, {});
    expect([listB.results.map((m) => m.id), listB.total]).toEqual([[theirs], 1]);
    const listA = await t.services.memory.list(a, {});
    expect([listA.results.map((m) => m.id), listA.total]).toEqual([[ours], 1]);
    expect((await t.services.memory.searchMemories(a, { query: "wasps" })).results.map((r) => r.id)).not.toContain(
      theirs,
    );
    await t.services.memory.deleteAll(b, {});
    expect((await t.services.memory.list(a, {})).results.map((m) => m.id)).toEqual([ours]);
  });

  test("the same user id in two organizations counts as two users seen, each once however often it lists", async () => {
    const before = t.services.memory.uniqueUsers;
    for (const org of ["default", "acme", "default", "acme"])
      await t.services.memory.list(userScopeOf(org, "carol"), {});
    expect(t.services.memory.uniqueUsers - before).toBe(2);
  });

  test("a session of one organization's alice is NOT_FOUND for another's, and another organization's sweep leaves it", async () => {
    const { session } = await t.services.sessions.create(a, { user_id: "alice" });
    const notFound = { code: "NOT_FOUND", message: `session '${session.id}' not found` };
    for (const call of [
      () => t.services.sessions.get(b, session.id),
      () => t.services.sessions.touch(b, session.id),
      () => t.services.sessions.end(b, session.id),
    ])
      expect(await call().catch((e) => ({ code: e.code, message: e.message }))).toEqual(notFound);
    expect((await t.services.sessions.list(b, { user_id: "alice" })).results).toEqual([]);
    t.clock.advance(365 * 24 * 3600_000);
    expect(await t.services.sessions.expireIdle({}, "acme")).toEqual({ success: true, idled: 0, ended: 0 });
    expect((await t.services.sessions.expireIdle({}, "default")).ended).toBe(1);
  });

  test("a conversation of one organization's alice is NOT_FOUND for another's and not in its list", async () => {
    const created = await t.services.conversations.create(a, {
      user_id: "alice",
      messages: [{ role: "user", content: "hello" }],
    });
    const id = created.id;
    const notFound = { code: "NOT_FOUND", message: `conversation '${id}' not found` };
    for (const call of [
      () => t.services.conversations.get(b, id),
      () =>
        t.services.conversations.append(b, id, {
          user_id: "alice",
          messages: [{ role: "user", content: "from acme" }],
        }),
    ])
      expect(await call().catch((e) => ({ code: e.code, message: e.message }))).toEqual(notFound);
    expect(await t.services.conversations.list(b, { user_id: "alice" })).toMatchObject({ results: [], total: 0 });
    expect((await t.services.conversations.list(a, { user_id: "alice" })).total).toBe(1);
  });

  test("erasing one organization's alice (cascade) leaves the other's memories, sessions and conversations", async () => {
    const c = await buildTestApp({ embedder: new LetterEmbedder() });
    try {
      const kept = (await c.services.memory.add(a, { memory: "Alice keeps bees" })).memory_ids![0]!;
      await c.services.sessions.create(a, { user_id: "alice" });
      await c.services.conversations.create(a, { user_id: "alice", messages: [{ role: "user", content: "hi" }] });
      await c.services.memory.add(b, { memory: "Alice of acme keeps wasps" });
      await c.services.memory.deleteAll(b, { cascade: true });
      expect((await c.services.memory.list(a, {})).results.map((m) => m.id)).toEqual([kept]);
      expect((await c.services.sessions.list(a, { user_id: "alice" })).total).toBe(1);
      expect((await c.services.conversations.list(a, { user_id: "alice" })).total).toBe(1);
    } finally {
      await c.close();
    }
  });
});
