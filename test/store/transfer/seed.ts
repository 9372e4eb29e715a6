// A store with a row in every table migrate-store copies, written through the repositories (so the same
// seed fills either engine): memories with versions (and one deleted) and vectors of two models (one without a vector),
// a superseded memory and the facts that ended it, layers, graph, governance, identity keys, sessions, audit.
import type { NewMemory, Repos, Store } from "~/store/store";
import { EVERY_ROW } from "~/shared/store-scope";
import { newMemory, NOW, owner } from "../../support/memory-rows";

export { NOW };

const memory = (id: string, user: string, text: string, at: number): NewMemory =>
  newMemory(id, text, {
    user_id: user,
    agent_id: "agent",
    metadata: `{"n":${at - NOW},"tag":"é ünïcode"}`,
    importance: 60,
    expires_at: at === NOW + 3 ? NOW + 999_999 : null,
    created_at: at,
    retain_until: at === NOW ? NOW + 5_000 : null,
  });

/** A unit vector pointing mostly along axis `i` (dimension 4). */
export const axis = (i: number) => {
  const v = new Float32Array([0.1, 0.2, 0.3, 0.4]);
  v[i] = 0.9;
  return v;
};

export async function seed(store: Store): Promise<void> {
  await store.write(async (r: Repos) => {
    const texts = ["Alice adopted a cat named Miso", "The quarterly report is due Friday", "Bob plays the cello"];
    const rowids: number[] = [];
    for (let i = 0; i < 3; i++)
      rowids.push(await r.memories.insert(memory(`m${i}`, i === 2 ? "bob" : "alice", texts[i]!, NOW + i)));
    rowids.push(await r.memories.insert(memory("m3", "alice", "zzz", NOW + 3)));
    // A deleted memory's rowid is never given again: the copy keeps the counter past it.
    await r.memories.deleteByRowids([await r.memories.insert(memory("gone", "alice", "deleted", NOW + 4))]);
    const m0 = await r.memories.get(owner("alice"), "m0", NOW);
    const next = { memory: "Alice adopted two cats, Miso and Tofu", metadata: '{"v":2}', importance: 70 };
    await r.memories.update(m0!, { ...next, source_type: "tool", expires_at: null, retain_until: null }, NOW + 10);
    const letters = await r.vectors.open("test/letters", 4);
    const rows = (userOf: (i: number) => string, vec: (i: number) => Float32Array | null) =>
      rowids.map((rowid, i) => ({
        rowid,
        org: "default",
        userId: userOf(i),
        agentId: "agent",
        sessionId: "",
        expiresAt: null,
        vector: vec(i),
      }));
    const user = (i: number) => (i === 2 ? "bob" : "alice");
    // An earlier model embedded the first memory only; the current one all, the last without a vector.
    const old = await r.vectors.open("test/old", 4);
    await r.vectors.upsert(old, rows(user, () => axis(3)).slice(0, 1));
    await r.vectors.upsert(
      letters,
      rows(user, (i) => (i === 3 ? null : axis(i))),
    );
    // SPEC §11: m1 states facts, one of which ended m3's, which it superseded; text keys find duplicates.
    const scope = { org: "default", userId: "alice", agentId: "agent", sessionId: "" };
    const fact = { subject: "user", attribute: "home", qualifier: null };
    await r.facts.insert("m3", scope, [{ ...fact, value: "Berlin", key: "berlin", negative: false }]);
    const [berlin] = await r.facts.live(scope, ["user"]);
    await r.facts.insert("m1", scope, [
      { ...fact, value: "Lisbon", key: "lisbon", negative: false },
      { ...fact, attribute: "diet", value: "vegan", key: "vegan", negative: true },
    ]);
    await r.facts.end([berlin!.id], "m1");
    await r.memories.setTextKey(rowids[1]!, 2 ** 52 + 7);
    await r.memories.markFacts(rowids[1]!);
    await r.memories.supersede(owner("alice"), ["m3"], "m1");
    await r.conversations.create({
      id: "c1",
      org: "default",
      userId: "alice",
      spaceId: "space1",
      sessionId: null,
      now: NOW,
      retainUntil: null,
    });
    await r.conversations.append(
      "c1",
      [
        { role: "user", content: "hello" },
        { role: "assistant", content: "hi" },
      ],
      NOW + 1,
      null,
    );
    await r.governance.registerSpace("org1", "space1", NOW);
    for (const data of ['{"v":1}', '{"v":2}'])
      await r.immutable.put({
        orgId: "org1",
        type: "contract",
        id: "k1",
        userId: "alice",
        data,
        metadata: "{}",
        now: NOW,
        retainUntil: null,
      });
    await r.mutable.put({
      orgId: "org1",
      namespace: "prefs",
      key: "theme",
      userId: "alice",
      value: '"dark"',
      expiresAt: null,
      now: NOW,
      retainUntil: NOW + 9,
    });
    await r.graph.putEntity(
      owner("alice"),
      { type: "person", id: "alice", name: "Alice", nameKey: "alice", properties: "{}" },
      NOW,
    );
    await r.graph.putEntity(
      owner("alice"),
      { type: "pet", id: "miso", name: "Miso", nameKey: "miso", properties: '{"kind":"cat"}' },
      NOW,
    );
    const a = (await r.graph.entity(owner("alice"), "person", "alice"))!;
    const b = (await r.graph.entity(owner("alice"), "pet", "miso"))!;
    await r.graph.putRelationship(owner("alice"), a.node, "OWNS", b.node, '{"since":2020}', NOW);
    await r.graph.link(owner("alice"), "m0", b.node);
    await r.governance.replacePolicy("org1", "organization", "org1", "p1", '{"retention":{}}', NOW);
    await r.governance.replacePolicy("org1", "organization", "org1", "p2", '{"retention":{"x":1}}', NOW + 1);
    await r.governance.logEnforcement("e1", {
      org_id: "org1",
      scope_kind: "organization",
      scope_id: "org1",
      layers: '["vector"]',
      rules: "[]",
      enforced_at: NOW,
      duration_ms: 1.25,
      conversations_purged: 0,
      conversations_archived: 1,
      immutable_versions_deleted: 0,
      immutable_entities_purged: 0,
      vector_versions_deleted: 2,
      vector_memories_purged: 0,
      vector_orphans_purged: 0,
      mutable_keys_deleted: 0,
      bytes_freed: 4096,
      held: 0,
    });
    await r.governance.recordDeletionRequest({
      id: "d1",
      org: "default",
      userId: "carol",
      requestedAt: NOW,
      fulfilledAt: NOW + 1,
      deleted: '{"memories":1}',
      retained: "{}",
    });
    await r.governance.insertAudit([
      {
        at: NOW,
        organization_id: "org1",
        memory_space_id: "space1",
        user_id: "alice",
        method: "POST",
        path: "/v1/memories",
        status: 201,
        principal: "k1",
        route: "/v1/memories",
        duration_ms: 2.25,
      },
      {
        at: NOW + 1,
        organization_id: "org1",
        memory_space_id: null,
        user_id: null,
        method: "GET",
        path: "/health",
        status: 200,
      },
    ]);
    const key = { org_id: "org1", role: "member", user_id: "alice", agent_id: null, name: "laptop", created_at: NOW };
    await r.keys.insert({ ...key, id: "k1", secret_hash: new Uint8Array([0, 1, 2, 255]), expires_at: NOW + 1000 });
    await r.keys.insert({ ...key, id: "k2", secret_hash: new Uint8Array(32).fill(7), expires_at: null });
    await r.keys.touch([{ id: "k1", at: NOW + 5 }]);
    await r.keys.revoke("org1", "k2", NOW + 6);
    await r.sessions.insert({
      id: "s1",
      org_id: "default",
      user_id: "alice",
      memory_space_id: "space1",
      device: "laptop",
      metadata: "{}",
      state: "ended",
      created_at: NOW,
      last_activity_at: NOW + 1,
      expires_at: NOW + 100,
      ended_at: NOW + 2,
      end_reason: "explicit",
      archived_at: null,
    });
  }, EVERY_ROW);
}
