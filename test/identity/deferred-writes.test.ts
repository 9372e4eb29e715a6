// The request path's bookkeeping — audit rows, rate-limit counts, keys' last use — is written in one shared
// periodic commit (shared/deferred-writes.ts): each commit costs every search worker its page cache, so
// three kinds of write must not mean three commits. Counted at the store's write API, on both engines.
import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { EVERY_ROW } from "~/shared/store-scope";
import { DeferredWrites } from "~/shared/deferred-writes";
import type { Repos, Store } from "~/store/store";
import { countWrites, openTestStore } from "../support/store";

const HOUR = 3_600_000;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("the shared periodic commit", () => {
  test("a key's requests write their audit rows, rate-limit counts and the key's last use in one transaction", async () => {
    t = await buildTestApp({
      // Per hour, so the window does not turn during the test (a new window's first hit is written at once).
      options: { auth: { enabled: true, apiKey: "shared" }, rateLimit: { requests: "1000/h", authFailures: "off" } },
    });
    const { store } = t.services;
    const member = await t.services.keys.create("default", { role: "member", user_id: "ana" });
    // The bucket's first hit goes through the store (new to this process); then nothing is owed.
    expect((await t.get("/list_memories", bearer(member.key))).status).toBe(200);
    await t.services.governance.audit.flush();
    const before = await store.read((r) => r.governance.audit("default", 0, Number.MAX_SAFE_INTEGER, 100), EVERY_ROW);

    const calls = countWrites(store);
    t.clock.advance(60_000);
    const usedAt = t.clock.now();
    for (let i = 0; i < 2; i++) expect((await t.get("/list_memories", bearer(member.key))).status).toBe(200);
    expect(calls).toEqual([]); // buffered: the requests wrote nothing
    // Either one's flush writes all three kinds: the other's then finds nothing left to write.
    await t.services.governance.audit.flush();
    await t.services.keys.flush();
    expect(calls).toEqual(["group"]);

    const audit = await store.read((r) => r.governance.audit("default", 0, Number.MAX_SAFE_INTEGER, 100), EVERY_ROW);
    expect(audit.length - before.length).toBe(2);
    const now = Date.now();
    const counts = await store.read((r) => r.rateLimits.peek(`rate:${member.id}`, now - (now % HOUR), HOUR), EVERY_ROW);
    expect(counts.current).toBe(3);
    expect((await store.read((r) => r.keys.byId(member.id), EVERY_ROW))?.last_used_at).toBe(usedAt);
  });

  test("nothing buffered, nothing committed; a failed commit is told to every kind, none of it written", async () => {
    const store = await openTestStore();
    try {
      const calls = countWrites(store);
      const writes = new DeferredWrites<Repos>(store);
      const told: string[] = [];
      const owed = { a: true, b: true };
      const row = {
        at: 1,
        organization_id: "o",
        memory_space_id: null,
        user_id: null,
        method: "GET",
        path: "/",
        status: 200,
      };
      writes.add(() =>
        owed.a
          ? ((owed.a = false),
            {
              write: (tx) => tx.governance.insertAudit([row]),
              failed: () => told.push("a failed"),
              committed: () => told.push("a committed"),
            })
          : null,
      );
      writes.add(() =>
        owed.b
          ? ((owed.b = false),
            {
              write: async () => {
                throw new Error("disk full");
              },
              failed: (e) => told.push(`b failed: ${(e as Error).message}`),
            })
          : null,
      );
      const flush = writes.flush();
      expect(writes.flush()).toBe(flush); // not started yet: one commit takes what both callers wait for
      await flush;
      expect(told).toEqual(["a failed", "b failed: disk full"]);
      expect(calls).toEqual(["group"]);
      expect(await store.read((r) => r.governance.audit("o", 0, 2, 10))).toEqual([]);
      await writes.close();
      expect(calls).toEqual(["group"]);
    } finally {
      await store.close();
    }
  });
});
