// What every store engine's repositories promise (store/repos/): the same rows, order and filters on
// SQLite and PostgreSQL, for the cases where the engines' SQL differs most — keyword search, vectors,
// metadata filters, graph walks, retention batches, version numbering. Each engine runs this suite from a
// file of its own; the HTTP, MCP, governance, session and graph suites then run on both stores as well.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { MemoryFilter, NewMemory, Repos } from "~/store/store";
import { newMemory as memory, NOW, owner } from "../support/memory-rows";

export interface RepoEngine {
  /** Runs `fn` over the repositories in one write transaction. */
  tx<T>(fn: (r: Repos) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const filter = (o: Partial<MemoryFilter> = {}): MemoryFilter => ({
  org: "default",
  userId: "alice",
  sessionId: "",
  now: NOW,
  ...o,
});

export function repoContract(name: string, open: () => Promise<RepoEngine>): void {
  describe(`repositories: ${name}`, () => {
    let e: RepoEngine;
    const rowids = new Map<string, number>();
    beforeAll(async () => {
      e = await open();
      await e.tx(async (r) => {
        const add = async (m: NewMemory) => rowids.set(m.id, await r.memories.insert(m));
        await add(memory("m1", "Alice adopted a cat named Miso", { metadata: '{"tags":["pets","home"],"n":1}' }));
        await add(memory("m2", "The quarterly report is due on Friday", { created_at: NOW + 1 }));
        await add(
          memory("m3", "Miso the cat likes tuna", {
            created_at: NOW + 2,
            agent_id: "a2",
            metadata: '{"tags":null,"n":2}',
          }),
        );
        await add(memory("m4", "expired note about cats", { created_at: NOW + 3, expires_at: NOW - 1 }));
        await add(memory("m5", "Bob's cat is called Tom", { user_id: "bob", created_at: NOW + 4 }));
        await add(memory("m6", "who is it", { created_at: NOW + 5 }));
      });
      // The first PostgreSQL store of a run starts the server (initdb: seconds on a busy machine).
    }, 60_000);
    afterAll(() => e?.close());

    test("insert answers increasing row ids and get finds only the owner's visible memory", async () => {
      expect(rowids.get("m2")!).toBeGreaterThan(rowids.get("m1")!);
      const got = await e.tx((r) => r.memories.get(owner("alice"), "m1", NOW));
      expect(got).toMatchObject({ id: "m1", user_id: "alice", version: 1, created_at: NOW, updated_at: NOW });
      expect(typeof got!.rowid).toBe("number");
      expect(await e.tx((r) => r.memories.get(owner("bob"), "m1", NOW))).toBeNull();
      expect(await e.tx((r) => r.memories.get(owner("alice"), "m4", NOW))).toBeNull();
    });

    test("page lists newest first, by agent, and continues after a cursor; count gives the next expiry", async () => {
      const page = await e.tx((r) => r.memories.page({ org: "default", userId: "alice", now: NOW, limit: 2 }));
      expect(page.map((m) => m.id)).toEqual(["m6", "m3"]);
      const last = page.at(-1)!;
      const next = await e.tx((r) =>
        r.memories.page({ org: "default", userId: "alice", now: NOW, limit: 5, after: [last.created_at, last.rowid] }),
      );
      expect(next.map((m) => m.id)).toEqual(["m2", "m1"]);
      const a2 = await e.tx((r) =>
        r.memories.page({ org: "default", userId: "alice", agentId: "a2", now: NOW, limit: 5 }),
      );
      expect(a2.map((m) => m.id)).toEqual(["m3"]);
      expect(await e.tx((r) => r.memories.count(owner("alice"), NOW))).toEqual({ n: 4, nextExpiry: null });
      expect(await e.tx((r) => r.memories.count(owner("alice"), NOW - 10))).toEqual({ n: 5, nextExpiry: NOW - 1 });
    });

    test("keyword search ranks the user's matching memories, never another user's or an expired one", async () => {
      const hits = await e.tx((r) => r.search.keyword(filter(), "cats", 10));
      const ids = await idsOf(
        e,
        hits.map((h) => h.rowid),
      );
      expect(new Set(ids)).toEqual(new Set(["m1", "m3"]));
      expect(hits.every((h) => h.score > 0)).toBe(true);
      expect(await e.tx((r) => r.search.keyword(filter({ agentId: "a2" }), "cat", 10))).toHaveLength(1);
      expect(await e.tx((r) => r.search.keyword(filter(), "tuna cat", 1))).toHaveLength(1);
      expect(await e.tx((r) => r.search.keyword(filter(), '"; DROP TABLE memories; -- (* NEAR', 10))).toEqual([]);
    });

    test("a user id means its user only inside the organization: another org's alice reads none of these rows", async () => {
      const acme = { org: "acme", userId: "alice" };
      const theirs = await e.tx(async (r) => [
        await r.memories.insert(memory("x1", "Alice of acme adopted a cat named Miso", { org_id: "acme" })),
        await r.memories.insert(memory("x2", "Who feeds the acme cat?", { org_id: "acme", created_at: NOW + 1 })),
      ]);
      try {
        const inAcme = { ...filter(), org: "acme" };
        expect(await e.tx((r) => r.memories.get(acme, "m1", NOW))).toBeNull();
        expect(await e.tx((r) => r.memories.get(owner("alice"), "x1", NOW))).toBeNull();
        expect((await e.tx((r) => r.memories.get(acme, "x1", NOW)))?.org_id).toBe("acme");
        const listed = await e.tx((r) => r.memories.page({ ...acme, now: NOW, limit: 10 }));
        expect(listed.map((m) => m.id)).toEqual(["x2", "x1"]);
        expect(await e.tx((r) => r.memories.count(acme, NOW))).toEqual({ n: 2, nextExpiry: null });
        const hits = await e.tx((r) => r.search.keyword(inAcme, "cat", 10));
        expect(new Set(hits.map((h) => h.rowid))).toEqual(new Set(theirs));
        const ours = await e.tx((r) => r.search.keyword(filter(), "acme", 10));
        expect(ours).toEqual([]);
        const all = [...rowids.values(), ...theirs];
        expect((await e.tx((r) => r.search.rows(inAcme, all))).map((h) => h.id).sort()).toEqual(["x1", "x2"]);
        expect(await e.tx((r) => r.search.visible(inAcme, all, 10))).toEqual(theirs);
        expect((await e.tx((r) => r.search.termDocs(acme, ["miso"]))).docs).toBe(2);
        expect(await e.tx((r) => r.memories.recentTexts(acme, 5))).toEqual([
          "Who feeds the acme cat?",
          "Alice of acme adopted a cat named Miso",
        ]);
      } finally {
        await e.tx((r) => r.memories.deleteByRowids(theirs));
      }
    });

    test("a query of stopwords alone still finds the memory that says them", async () => {
      const hits = await e.tx((r) => r.search.keyword(filter(), "who is it", 10));
      expect(
        await idsOf(
          e,
          hits.map((h) => h.rowid),
        ),
      ).toEqual(["m6"]);
    });

    test("metadata filters: array elements, null, and exact scalars", async () => {
      const find = async (metadata: Record<string, unknown>) =>
        idsOf(
          e,
          (await e.tx((r) => r.search.keyword(filter({ metadata }), "cat", 10))).map((h) => h.rowid),
        );
      expect(await find({ tags: ["pets"] })).toEqual(["m1"]);
      expect(await find({ tags: null })).toEqual(["m3"]);
      expect(await find({ n: 2 })).toEqual(["m3"]);
      expect(await find({ n: "2" })).toEqual([]);
      await expect(e.tx((r) => r.search.keyword(filter({ metadata: { 'a"b': 1 } }), "cat", 10))).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        field: 'metadata.a"b',
      });
    });

    test("vectors rank the user's memories by cosine similarity inside the filter", async () => {
      const space = await e.tx((r) => r.vectors.open("test/model", 3));
      const row = (id: string, vector: number[] | null, user = "alice", agent = "a1") => ({
        rowid: rowids.get(id)!,
        org: "default",
        userId: user,
        agentId: agent,
        sessionId: "",
        expiresAt: null,
        vector: vector && new Float32Array(vector),
      });
      await e.tx((r) =>
        r.vectors.upsert(space, [
          row("m1", [1, 0, 0]),
          row("m2", [0, 1, 0]),
          row("m3", [0.9, 0.1, 0], "alice", "a2"),
          row("m5", [1, 0, 0], "bob"),
          row("m6", null),
        ]),
      );
      const ranked = await e.tx((r) => r.vectors.rank(space, filter(), new Float32Array([1, 0, 0]), 3));
      expect(
        await idsOf(
          e,
          ranked.map((x) => x.rowid),
        ),
      ).toEqual(["m1", "m3", "m2"]);
      expect(ranked[0]!.score).toBeCloseTo(1, 5);
      expect(ranked[2]!.score).toBeCloseTo(0, 5);
      const a1 = await e.tx((r) => r.vectors.rank(space, filter({ agentId: "a1" }), new Float32Array([1, 0, 0]), 5));
      expect(
        await idsOf(
          e,
          a1.map((x) => x.rowid),
        ),
      ).toEqual(["m1", "m2"]);
      expect(await e.tx((r) => r.vectors.embeddedCount("test/model"))).toBe(5);
      const missing = await e.tx((r) => r.vectors.unembedded("test/model", 10));
      expect(missing.map((m) => m.rowid).sort((a, b) => a - b)).toEqual([rowids.get("m4")!]);
    });

    test("an update keeps the previous text as a version; the newest version comes first", async () => {
      const row = (await e.tx((r) => r.memories.get(owner("alice"), "m2", NOW)))!;
      await e.tx((r) =>
        r.memories.update(
          row,
          {
            memory: "The report is due Monday",
            metadata: "{}",
            importance: 60,
            source_type: "tool",
            expires_at: null,
            retain_until: null,
          },
          NOW + 10,
        ),
      );
      const after = await e.tx((r) => r.memories.get(owner("alice"), "m2", NOW));
      expect(after).toMatchObject({ memory: "The report is due Monday", version: 2, updated_at: NOW + 10 });
      expect(await e.tx((r) => r.memories.versions(owner("alice"), "m2"))).toEqual([
        { version: 1, memory: "The quarterly report is due on Friday", metadata: "{}", created_at: NOW + 1 },
      ]);
      expect(await e.tx((r) => r.search.keyword(filter(), "monday", 5))).toHaveLength(1);
      expect(await e.tx((r) => r.search.keyword(filter(), "quarterly", 5))).toHaveLength(0);
    });

    test("immutable records number their versions 1, 2, 3 and keep every one", async () => {
      const put = (data: string) =>
        e.tx((r) =>
          r.immutable.put({
            orgId: "org",
            type: "contract",
            id: "c1",
            userId: null,
            data,
            metadata: "{}",
            now: NOW,
            retainUntil: null,
          }),
        );
      expect([await put("a"), await put("b"), await put("c")]).toEqual([1, 2, 3]);
      const versions = await e.tx((r) => r.immutable.versions("org", "contract", "c1"));
      expect(versions.map((v) => [v.version, v.data])).toEqual([
        [3, "c"],
        [2, "b"],
        [1, "a"],
      ]);
      expect(await e.tx((r) => r.immutable.head("org", "contract", "c1"))).toMatchObject({ current_version: 3 });
    });

    test("conversation messages are numbered in order across appends", async () => {
      await e.tx(async (r) => {
        await r.conversations.create({
          id: "conv1",
          org: "default",
          userId: "alice",
          spaceId: "a1",
          sessionId: null,
          now: NOW,
          retainUntil: null,
        });
        await r.conversations.append("conv1", [{ role: "user", content: "hi" }], NOW + 1, null);
        await r.conversations.append(
          "conv1",
          [
            { role: "assistant", content: "hello" },
            { role: "user", content: "bye" },
          ],
          NOW + 2,
          NOW + 99,
        );
      });
      expect((await e.tx((r) => r.conversations.messages("conv1"))).map((m) => m.content)).toEqual([
        "hi",
        "hello",
        "bye",
      ]);
      expect(await e.tx((r) => r.conversations.get(owner("alice"), "conv1"))).toMatchObject({
        message_count: 3,
        bytes: 2 + 4 + 5 + 9 + 3 + 4,
        last_message_at: NOW + 2,
        retain_until: NOW + 99,
      });
    });

    test("graph walks follow out, in and both directions to the depth bound, each entity once", async () => {
      const node = async (id: string) =>
        e.tx(async (r) => {
          await r.graph.putEntity(owner("alice"), { type: "person", id, name: id, nameKey: id, properties: "{}" }, NOW);
          return (await r.graph.entity(owner("alice"), "person", id))!.node;
        });
      const [a, b, c, d] = [await node("a"), await node("b"), await node("c"), await node("d")];
      await e.tx(async (r) => {
        await r.graph.putRelationship(owner("alice"), a, "knows", b, "{}", NOW);
        await r.graph.putRelationship(owner("alice"), b, "knows", c, "{}", NOW);
        await r.graph.putRelationship(owner("alice"), c, "knows", a, "{}", NOW);
        await r.graph.putRelationship(owner("alice"), d, "likes", a, "{}", NOW);
      });
      const walk = (direction: "out" | "in" | "both", maxDepth: number, types: string[] | null = null) =>
        e.tx(async (r) =>
          (await r.graph.walk(owner("alice"), { start: a, direction, types, maxDepth, limit: 10 })).map(
            (w) => `${w.id}@${w.depth}`,
          ),
        );
      expect(await walk("out", 5)).toEqual(["a@0", "b@1", "c@2"]);
      expect(await walk("in", 1)).toEqual(["a@0", "c@1", "d@1"]);
      expect(await walk("both", 1)).toEqual(["a@0", "b@1", "c@1", "d@1"]);
      expect(await walk("both", 3, ["likes"])).toEqual(["a@0", "d@1"]);
      const found = await e.tx((r) => r.graph.find(owner("alice"), { type: null, q: "b", limit: 5 }));
      expect(found.map((f) => f.id)).toEqual(["b"]);
      expect(await e.tx((r) => r.graph.edgesFrom(owner("alice"), [a, b]))).toEqual(
        expect.arrayContaining([
          { fromNode: a, type: "knows", toNode: b },
          { fromNode: b, type: "knows", toNode: c },
        ]),
      );
    });

    test("retention batches page by row id with sizes and versions, inside one organization", async () => {
      const batch = await e.tx((r) => r.retention.memories("default", "a1", 0, 2));
      expect(batch.map((m) => m.id)).toEqual(["m1", "m2"]);
      expect(batch[1]!.versions.map((v) => v.version)).toEqual([2, 1]);
      expect(batch[0]!.versions[0]!.bytes).toBe(Buffer.byteLength("Alice adopted a cat named Miso") + 30 + 64);
      const expired = await e.tx((r) => r.retention.expiredMemories("default", "a1", NOW, 0, 10));
      expect(expired.map((m) => m.id)).toEqual(["m4"]);
      expect(await e.tx((r) => r.inventory.memories("default", ["a1", "a2"]))).toBe(6);
      // The same space id in another organization is another space: none of these rows are its.
      expect(await e.tx((r) => r.retention.memories("acme", "a1", 0, 10))).toEqual([]);
      expect(await e.tx((r) => r.retention.expiredMemories("acme", "a1", NOW, 0, 10))).toEqual([]);
      expect(await e.tx((r) => r.inventory.memories("acme", ["a1", "a2"]))).toBe(0);
      expect(await e.tx((r) => r.retention.conversations("acme", "a1", "", 10))).toEqual([]);
    });

    test("get and countForUser narrow to one agent when given (a key bound to an agent)", async () => {
      expect((await e.tx((r) => r.memories.get(owner("alice"), "m3", NOW, "a2")))?.id).toBe("m3");
      expect(await e.tx((r) => r.memories.get(owner("alice"), "m3", NOW, "a1"))).toBeNull();
      expect(await e.tx((r) => r.memories.countForUser(owner("alice"), "a2"))).toBe(1);
    });

    test("identity keys: the digest round-trips, lists stay in their organization, revocation is once", async () => {
      const key = (id: string, org: string, at: number) => ({
        id,
        org_id: org,
        role: "member",
        user_id: "alice",
        agent_id: null,
        name: null,
        secret_hash: new Uint8Array([0, 1, 254, 255]),
        created_at: at,
        expires_at: id === "k3" ? NOW - 1 : null,
      });
      await e.tx(async (r) => {
        await r.keys.insert(key("k1", "org-a", NOW));
        await r.keys.insert(key("k2", "org-a", NOW + 1));
        await r.keys.insert(key("k3", "org-b", NOW));
      });
      const k1 = await e.tx((r) => r.keys.byId("k1"));
      expect(k1).toMatchObject({ org_id: "org-a", role: "member", user_id: "alice", last_used_at: null });
      expect([...k1!.secret_hash]).toEqual([0, 1, 254, 255]);
      expect((await e.tx((r) => r.keys.list("org-a"))).map((k) => k.id)).toEqual(["k2", "k1"]);
      expect((await e.tx((r) => r.keys.all())).map((k) => k.id)).toEqual(["k2", "k1", "k3"]);
      expect(await e.tx((r) => r.keys.revoke("org-b", "k1", NOW))).toBe(false);
      expect(await e.tx((r) => r.keys.revoke("org-a", "k1", NOW))).toBe(true);
      expect(await e.tx((r) => r.keys.revoke("org-a", "k1", NOW))).toBe(false);
      await e.tx((r) => r.keys.touch([{ id: "k2", at: NOW + 5 }]));
      await e.tx((r) => r.keys.touch([{ id: "k2", at: NOW + 2 }]));
      expect((await e.tx((r) => r.keys.byId("k2")))?.last_used_at).toBe(NOW + 5);
      expect(await e.tx((r) => r.keys.usable(NOW))).toBe(1);
    });

    test("rate windows count every hit, peek counts none, prune drops only its prefix's old windows", async () => {
      const W = 60_000;
      const hits = await e.tx(async (r) => [
        await r.rateLimits.hit("rate:k", NOW - W, W),
        await r.rateLimits.hit("rate:k", NOW, W),
        await r.rateLimits.hit("rate:k", NOW, W),
        await r.rateLimits.hit("rate:other", NOW, W),
        await r.rateLimits.hit("authfail:1.2.3.4", NOW - W, W),
        await r.rateLimits.hit("rate:other", NOW, W, 5),
      ]);
      expect(hits).toEqual([
        { current: 1, previous: 0 },
        { current: 1, previous: 1 },
        { current: 2, previous: 1 },
        { current: 1, previous: 0 },
        { current: 1, previous: 0 },
        { current: 6, previous: 0 },
      ]);
      expect(await e.tx((r) => r.rateLimits.peek("rate:k", NOW, W))).toEqual({ current: 2, previous: 1 });
      expect(await e.tx((r) => r.rateLimits.prune("rate:", NOW))).toBe(1);
      expect(await e.tx((r) => r.rateLimits.peek("rate:k", NOW, W))).toEqual({ current: 2, previous: 0 });
      expect(await e.tx((r) => r.rateLimits.peek("authfail:1.2.3.4", NOW, W))).toEqual({ current: 0, previous: 1 });
    });

    test("the audit log pages one organization's entries by id, filtered by time, principal and user", async () => {
      const row = (at: number, org: string, principal: string | null, user: string | null) => ({
        at,
        organization_id: org,
        memory_space_id: null,
        user_id: user,
        method: "GET",
        path: "/list_memories",
        status: 200,
        principal,
        route: "/list_memories",
        duration_ms: 1.5,
      });
      await e.tx((r) =>
        r.governance.insertAudit([
          row(NOW, "org-a", "k1", "alice"),
          row(NOW + 1, "org-b", "k1", "alice"),
          row(NOW + 2, "org-a", "k2", "bob"),
          row(NOW + 3, "org-a", "k1", "alice"),
          { ...row(NOW + 4, "org-a", null, null), principal: undefined, route: undefined, duration_ms: undefined },
        ]),
      );
      const q = { orgId: "org-a", from: 0, to: NOW + 10, limit: 10 };
      const all = await e.tx((r) => r.governance.auditPage(q));
      expect(all.map((a) => [a.at - NOW, a.principal, a.user_id, a.duration_ms])).toEqual([
        [0, "k1", "alice", 1.5],
        [2, "k2", "bob", 1.5],
        [3, "k1", "alice", 1.5],
        [4, null, null, null],
      ]);
      const k1 = await e.tx((r) => r.governance.auditPage({ ...q, principal: "k1", userId: "alice", limit: 1 }));
      expect(k1.map((a) => a.at - NOW)).toEqual([0]);
      const next = await e.tx((r) => r.governance.auditPage({ ...q, principal: "k1", after: k1[0]!.id }));
      expect(next.map((a) => a.at - NOW)).toEqual([3]);
      const window = await e.tx((r) => r.governance.auditPage({ ...q, from: NOW + 2, to: NOW + 3 }));
      expect(window.map((a) => a.at - NOW)).toEqual([2, 3]);
    });

    test("a batch of audit rows of any size is stored whole, each row as given, ids in the batch's order", async () => {
      // 1,000 rows, times out of order, every third row without a principal: ids follow the list, not time.
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        at: NOW + ((i * 37) % 1000),
        organization_id: "org-batch",
        memory_space_id: i % 5 ? null : `space-${i}`,
        user_id: i % 4 ? `user-${i % 7}` : null,
        method: i % 2 ? "GET" : "POST",
        path: `/p/${i}`,
        status: 200 + (i % 3),
        ...(i % 3 ? { principal: `k${i % 11}`, route: "/p/:id", duration_ms: i / 8 } : {}),
      }));
      await e.tx((r) => r.governance.insertAudit(rows));
      const q = { orgId: "org-batch", from: 0, to: NOW + 1000, limit: 1001 };
      const stored = await e.tx((r) => r.governance.auditPage(q));
      expect(stored.map(({ id: _, ...row }) => row)).toEqual(
        rows.map((r) => ({ principal: null, route: null, duration_ms: null, ...r })),
      );
      expect(stored.map((s) => s.id)).toEqual(stored.map((s) => s.id).sort((a, b) => a - b));
      // A batch of one, after: the next id.
      await e.tx((r) => r.governance.insertAudit([{ ...rows[0]!, path: "/last" }]));
      const last = await e.tx((r) => r.governance.auditPage({ ...q, after: stored.at(-1)!.id }));
      expect(last.map((s) => s.path)).toEqual(["/last"]);
    });

    test("deleting memories takes their vectors, versions and mentions with them", async () => {
      const gone = await e.tx((r) => r.memories.deleteForUser(owner("alice"), "a1", Infinity, NOW));
      expect(gone.map((g) => g.id).sort()).toEqual(["m1", "m2", "m4", "m6"]);
      await e.tx((r) => r.vectors.erase(gone.map((g) => g.rowid)));
      expect(await e.tx((r) => r.memories.versions(owner("alice"), "m2"))).toEqual([]);
      expect(await e.tx((r) => r.memories.countForUser(owner("alice")))).toBe(1);
    });

    test("the audit and deletion logs take a pseudonym for a user of one organization; pruning drops one organization's older entries", async () => {
      const row = (at: number, org: string, user: string | null) =>
        ({
          at,
          organization_id: org,
          memory_space_id: null,
          user_id: user,
          method: "GET",
          path: "/x",
          status: 200,
        }) as const;
      await e.tx(async (r) => {
        await r.governance.insertAudit([
          row(NOW, "o1", "carol"),
          row(NOW + 1, "o1", "dan"),
          row(NOW + 2, "o2", "carol"),
        ]);
        await r.governance.recordDeletionRequest({
          ...{ id: "dr1", org: "o1", userId: "carol", requestedAt: NOW, fulfilledAt: NOW },
          ...{ deleted: "{}", retained: "{}" },
        });
      });
      const key = await e.tx((r) => r.governance.pseudonymKey());
      expect(key).toHaveLength(32);
      expect(await e.tx((r) => r.governance.pseudonymKey())).toEqual(key);
      // Erasing o1's carol: o2's carol is another user, whose rows keep her id.
      await e.tx((r) => r.governance.pseudonymize({ org: "o1", userId: "carol" }, "erased-c"));
      const users = async (org: string) =>
        (await e.tx((r) => r.governance.audit(org, 0, Infinity, 10))).map((a) => a.user_id);
      expect(await users("o1")).toEqual(["erased-c", "dan"]);
      expect(await users("o2")).toEqual(["carol"]);
      const requests = await e.tx((r) => r.governance.deletionRequests("o1", 0, NOW));
      expect(requests.map((d) => d.user_id)).toEqual(["erased-c"]);
      // Every organization with entries (earlier cases of this store wrote others too), once each, in order.
      const orgs = await e.tx((r) => r.governance.auditOrganizations());
      expect(orgs).toEqual([...new Set(orgs)].sort());
      expect(orgs).toEqual(expect.arrayContaining(["o1", "o2"]));
      expect(await e.tx((r) => r.governance.pruneAudit("o1", NOW + 1))).toBe(1);
      expect(await users("o1")).toEqual(["dan"]);
      expect(await users("o2")).toEqual(["carol"]);
    });
  });
}

async function idsOf(e: RepoEngine, rowids: number[]): Promise<string[]> {
  const rows = await e.tx((r) => r.search.rows({ org: "default", userId: "alice", sessionId: "", now: 0 }, rowids));
  const byRowid = new Map(rows.map((r) => [r.rowid, r.id]));
  return rowids.map((r) => byRowid.get(r) ?? `?${r}`);
}
