// Row-level security as a second wall (SPEC §9): every service names its request's scope on the
// transactions that touch a layer's rows — the user and organization for a user's data, the organization
// for an organization's records, keys and audit — so on PostgreSQL a query that forgot its WHERE still
// cannot reach another user's or organization's rows (the last block shows the policies doing so, on
// PostgreSQL only). Runs on both stores (ENGRAM_TEST_STORE=postgres in CI); SQLite ignores the scope.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, TEST_STORE, type TestApp } from "../support/app";
import { LetterEmbedder } from "../support/embedders";
import { recordScopes, scopesUsing, type SeenTransaction } from "../support/store-scopes";
import { userScopeOf } from "~/shared/principal";
import { EVERY_ROW, orgWide, userScope } from "~/shared/store-scope";
import type { Repos } from "~/store/store";
import { rulesFrom } from "../governance/support";

const alice = userScopeOf("default", "alice");
const ALICE = "default/alice";
const ORG = "default/*";

describe("row-level security: each service names its request's scope", () => {
  let t: TestApp;
  let seen: SeenTransaction[];
  let stop: () => void;
  beforeAll(async () => {
    t = await buildTestApp({ embedder: new LetterEmbedder() });
  }, 60_000);
  afterAll(() => t?.close());
  beforeEach(() => {
    ({ seen, stop } = recordScopes(t.services.store));
  });
  afterEach(() => stop());

  test("memories: add, list, get, search, update and delete run in alice's transactions", async () => {
    const id = (await t.services.memory.add(alice, { memory: "Alice keeps bees on the roof" })).memory_ids![0]!;
    await t.services.memory.list(alice, {});
    await t.services.memory.get(alice, { memory_id: id });
    await t.services.memory.searchMemories(alice, { query: "bees" });
    await t.services.memory.update(alice, { memory_id: id, memory: "Alice keeps wasps" });
    await t.services.memory.versions(alice, { memory_id: id });
    await t.services.memory.delete(alice, { memory_id: id });
    for (const repo of ["memories", "search", "vectors", "facts"])
      expect({ repo, scopes: scopesUsing(seen, repo) }).toEqual({ repo, scopes: [ALICE] });
  });

  test("sessions: create, read, list, touch and end run in alice's; a sweep of her organization in its", async () => {
    const { session } = await t.services.sessions.create(alice, { user_id: "alice" });
    await t.services.sessions.get(alice, session.id);
    await t.services.sessions.list(alice, { user_id: "alice" });
    await t.services.sessions.touch(alice, session.id);
    await t.services.sessions.end(alice, session.id);
    expect(scopesUsing(seen, "sessions")).toEqual([ALICE]);
    seen.length = 0;
    await t.services.sessions.expireIdle({}, "default");
    await t.services.sessions.cleanup({}, "default");
    expect(scopesUsing(seen, "sessions")).toEqual([ORG]);
  });

  test("conversations: create, append, read and list run in alice's transactions", async () => {
    const { id } = await t.services.conversations.create(alice, {
      user_id: "alice",
      messages: [{ role: "user", content: "hello" }],
    });
    await t.services.conversations.append(alice, id, {
      user_id: "alice",
      messages: [{ role: "user", content: "more" }],
    });
    await t.services.conversations.get(alice, id);
    await t.services.conversations.list(alice, { user_id: "alice" });
    expect(scopesUsing(seen, "conversations")).toEqual([ALICE]);
  });

  test("graph: upserts, finds and walks run in alice's transactions", async () => {
    await t.services.graph.upsertEntities(alice, {
      user_id: "alice",
      entities: [
        { type: "person", id: "alice", name: "Alice" },
        { type: "thing", id: "bees", name: "Bees" },
      ],
    });
    await t.services.graph.upsertRelationships(alice, {
      user_id: "alice",
      relationships: [{ from: { type: "person", id: "alice" }, type: "keeps", to: { type: "thing", id: "bees" } }],
    });
    await t.services.graph.findEntities(alice, { user_id: "alice", q: "bee" });
    await t.services.graph.traverse(alice, { user_id: "alice", start: { type: "person", id: "alice" } });
    expect(scopesUsing(seen, "graph")).toEqual([ALICE]);
  });

  test("immutable and mutable records run in the organization's transactions only (their keys are the organization's)", async () => {
    const org = { org: "default" };
    await t.services.immutable.put(org, "contract", "c1", { data: { v: 1 } });
    await t.services.immutable.get(org, "contract", "c1");
    await t.services.immutable.versions(org, "contract", "c1");
    await t.services.mutable.put(org, "prefs", "theme", { value: "dark" });
    await t.services.mutable.get(org, "prefs", "theme");
    await t.services.mutable.delete(org, "prefs", "theme");
    expect(scopesUsing(seen, "immutable")).toEqual([ORG]);
    expect(scopesUsing(seen, "immutable.put")).toEqual([ORG]);
    expect(scopesUsing(seen, "mutable")).toEqual([ORG]);
  });

  test("keys are created, listed and revoked in the organization's transactions; an authentication looks its key up in every one", async () => {
    const created = await t.services.keys.create("default", { role: "member", user_id: "alice" });
    await t.services.keys.list("default");
    await t.services.keys.revoke("default", created.id);
    expect(scopesUsing(seen, "keys")).toEqual([ORG]);
    seen.length = 0;
    await t.services.keys.authenticate(created.key);
    expect(scopesUsing(seen, "keys")).toEqual(["*/*"]);
  });

  test("the request audit is read in the organization's transaction", async () => {
    await t.services.audit.page("default", {});
    expect(scopesUsing(seen, "governance.auditPage")).toEqual([ORG]);
  });

  test("an erasure runs in alice's transaction; with cascade in her organization's (it rewrites her id in the logs to a pseudonym)", async () => {
    await t.services.memory.add(alice, { memory: "Alice keeps bees" });
    await t.services.sessions.create(alice, { user_id: "alice" });
    seen.length = 0;
    await t.services.memory.deleteAll(alice, {});
    expect(scopesUsing(seen, "memories.spacesOfUser")).toEqual([ALICE]);
    seen.length = 0;
    await t.services.memory.deleteAll(alice, { cascade: true });
    for (const call of ["memories.spacesOfUser", "sessions.deleteUser", "governance.pseudonymize"])
      expect({ call, scopes: scopesUsing(seen, call) }).toEqual({ call, scopes: [ORG] });
  });
});

// The wall itself: a repository call whose SQL asks for another user's or organization's rows, inside a
// transaction scoped as the services scope theirs, gets nothing from PostgreSQL's policies.
describe.skipIf(TEST_STORE !== "postgres")(
  "row-level security on PostgreSQL: a scoped transaction sees only its scope's rows",
  () => {
    let t: TestApp;
    const bob = userScopeOf("default", "bob");
    const acme = { org: "acme" };
    let bobs: { session: string; conversation: string };
    beforeAll(async () => {
      t = await buildTestApp({ embedder: new LetterEmbedder() });
      const { session } = await t.services.sessions.create(bob, { user_id: "bob" });
      const conversation = await t.services.conversations.create(bob, {
        user_id: "bob",
        messages: [{ role: "user", content: "bob's" }],
      });
      await t.services.graph.upsertEntities(bob, {
        user_id: "bob",
        entities: [{ type: "thing", id: "wasps", name: "Wasps" }],
      });
      await t.services.immutable.put(acme, "contract", "acme-1", { data: { v: 1 } });
      await t.services.mutable.put(acme, "prefs", "acme-theme", { value: "dark" });
      bobs = { session: session.id, conversation: conversation.id };
    }, 60_000);
    afterAll(() => t?.close());

    const asAlice = <T>(fn: (r: Repos) => Promise<T>) => t.services.store.read(fn, userScope(alice));
    const asDefault = <T>(fn: (r: Repos) => Promise<T>) => t.services.store.read(fn, orgWide("default"));

    test("alice's transaction gets none of bob's sessions, conversations or graph, though its SQL names bob", async () => {
      const bobOwner = { org: "default", userId: "bob" };
      expect(await asAlice((r) => r.sessions.get(bobOwner, bobs.session))).toBeNull();
      expect(await asAlice((r) => r.conversations.get(bobOwner, bobs.conversation))).toBeNull();
      expect(await asAlice((r) => r.conversations.messages(bobs.conversation))).toEqual([]);
      expect(await asAlice((r) => r.graph.find(bobOwner, { type: null, q: null, limit: 10 }))).toEqual([]);
      // The same calls in every row's scope find them: the SQL alone did not hide them.
      expect((await t.services.store.read((r) => r.sessions.get(bobOwner, bobs.session), EVERY_ROW))?.id).toBe(
        bobs.session,
      );
      expect(
        await t.services.store.read((r) => r.graph.find(bobOwner, { type: null, q: null, limit: 10 }), EVERY_ROW),
      ).toHaveLength(1);
    });

    test("an organization's transaction gets none of another organization's immutable and mutable records", async () => {
      expect(await asDefault((r) => r.immutable.head("acme", "contract", "acme-1"))).toBeNull();
      // The SQL asks for acme's versions: the policy alone keeps them out of default's transaction.
      expect(await asDefault((r) => r.immutable.versions("acme", "contract", "acme-1"))).toEqual([]);
      expect(await asDefault((r) => r.mutable.get("acme", "prefs", "acme-theme", t.clock.now()))).toBeNull();
      expect(
        await t.services.store.read((r) => r.immutable.versions("acme", "contract", "acme-1"), EVERY_ROW),
      ).toHaveLength(1);
    });

    test("a user's transaction resolving its space's policy reads its own organization's, not another's of the same space id", async () => {
      const inTeam = { ...alice, agentId: "team" };
      const { session } = await t.services.sessions.create(inTeam, { user_id: "alice" });
      const ended = { sessions: { lifecycle: { maxDuration: "1m" } } };
      await t.services.governance.policies.setAgentOverride("team", ended, "acme");
      // Default's alice touches her session in default's space "team": its rules are resolved inside her
      // transaction, which sees default's policies only, and acme's override of its own "team" is not one.
      t.clock.advance(120_000);
      expect((await t.services.sessions.touch(inTeam, session.id)).session.state).toBe("active");
      const policies = t.services.governance.policies;
      expect((await policies.forSpace("default", "team")).explicit).toBe(false);
      expect((await policies.forSpace("acme", "team")).policy.sessions?.lifecycle?.maxDuration).toBe("1m");
    });

    test("an organization's transaction gets none of another organization's policies, registrations or enforcement runs", async () => {
      await t.services.governance.setPolicy(
        { organizationId: "acme", memorySpaceId: "ops", ...rulesFrom("HIPAA") },
        "acme",
      );
      await t.services.governance.enforce({ scope: { organizationId: "acme" }, layers: ["mutable"] }, "acme");
      const acmePolicy = (r: Repos) => r.governance.activePolicy("acme", "memorySpace", "ops");
      const acmeSpaces = (r: Repos) => r.governance.spaces("acme");
      const acmeRuns = (r: Repos) => r.governance.enforcementLog("acme", 0, Number.MAX_SAFE_INTEGER);
      expect([await asDefault(acmePolicy), await asDefault(acmeSpaces), await asDefault(acmeRuns)]).toEqual([
        null,
        [],
        [],
      ]);
      const all = async <T>(fn: (r: Repos) => Promise<T>) => t.services.store.read(fn, EVERY_ROW);
      expect((await all(acmePolicy))?.id).toEqual(expect.any(String));
      expect(await all(acmeSpaces)).toContain("ops");
      expect(await all(acmeRuns)).toHaveLength(1);
    });
  },
);
