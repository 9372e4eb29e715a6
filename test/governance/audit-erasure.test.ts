// The audit log outlives a user's erasure without naming them (a stable pseudonym takes the id's place),
// and keeps entries only as long as the organization's compliance mode says (issue 15 item 9).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, TEST_STORE, type TestApp } from "../support/app";
import { DAY_MS, YEAR_MS } from "~/governance/durations";
import { rowsOf } from "../support/store";
import { orgPolicy, setPolicy } from "./app-support";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const entries = async (): Promise<{ user_id: string | null; path: string; at: string }[]> =>
  (await t.get("/governance/audit")).body.entries;
/** The users the entries name (entries without a user, like a policy change, left out). */
const usersIn = async () =>
  [...new Set((await entries()).map((e) => e.user_id))].filter((u): u is string => u !== null).sort();

describe("an erased user in the audit log", () => {
  test("every entry of theirs, the erasure call included, carries one pseudonym; other users keep theirs", async () => {
    await t.post("/add_memories", { user_id: "alice", memory: "my passport is in the drawer" });
    await t.get("/list_memories?user_id=alice");
    await t.post("/add_memories", { user_id: "bob", memory: "the ferry leaves at nine" });
    await t.post("/delete_all_memories", { user_id: "alice", cascade: true });
    const users = await usersIn();
    expect(users).toHaveLength(2);
    expect(users).toContain("bob");
    const pseudonym = users.find((u) => u.startsWith("erased-"))!;
    expect(pseudonym).toMatch(/^erased-[0-9a-f]{24}$/);
    expect((await entries()).filter((e) => e.user_id === pseudonym).map((e) => e.path)).toEqual([
      "/add_memories",
      "/list_memories",
      "/delete_all_memories",
    ]);
  });

  // PostgreSQL runs the audit log's periodic commit beside the erasure's transaction: rows it named before the
  // erasure and committed after the erasure's rename were left under the user's id (failed 1 run in 3 in CI).
  // SQLite runs one write transaction at a time, so there a flush is never in flight during an erasure.
  test.skipIf(TEST_STORE !== "postgres")(
    "entries an in-flight audit commit wrote under their id while they were erased carry the pseudonym too",
    async () => {
      await t.post("/add_memories", { user_id: "alice", memory: "my passport is in the drawer" });
      await t.get("/list_memories?user_id=alice");
      // The next flush holds its transaction open, its rows inserted under "alice", until the erasure has
      // renamed the stored entries (it tells the audit log the pseudonym right after).
      let release!: () => void;
      const erasureRenamed = new Promise<void>((r) => (release = r));
      let inserted!: () => void;
      const flushInserted = new Promise<void>((r) => (inserted = r));
      const store = t.services.store;
      const group = store.group.bind(store);
      store.group = ((fn, scope) => {
        store.group = group;
        return group(async (tx) => {
          const out = await fn(tx);
          inserted();
          await erasureRenamed;
          return out;
        }, scope);
      }) as typeof store.group;
      const audit = t.services.governance.audit;
      const forget = audit.forget.bind(audit);
      audit.forget = (owner, pseudonym) => {
        forget(owner, pseudonym);
        release();
      };
      const flushing = audit.flush();
      await flushInserted;
      expect((await t.post("/delete_all_memories", { user_id: "alice", cascade: true })).status).toBe(200);
      await flushing;
      const named = (await entries()).filter((e) => e.user_id !== null);
      expect(new Set(named.map((e) => e.user_id)).size).toBe(1);
      expect(named[0]!.user_id).toMatch(/^erased-[0-9a-f]{24}$/);
      expect(named.map((e) => e.path)).toEqual(["/add_memories", "/list_memories", "/delete_all_memories"]);
    },
  );

  test("the pseudonym is stable: a second erasure of the same user gives the same one, another user another", async () => {
    await t.post("/add_memories", { user_id: "alice", memory: "first life" });
    await t.post("/delete_all_memories", { user_id: "alice", cascade: true });
    const first = (await usersIn()).find((u) => u.startsWith("erased-"));
    t.clock.advance(2 * 60_000);
    await t.post("/add_memories", { user_id: "alice", memory: "second life" });
    expect(await usersIn()).toContain("alice");
    await t.post("/delete_all_memories", { user_id: "alice", cascade: true });
    await t.post("/delete_all_memories", { user_id: "carol", cascade: true });
    const pseudonyms = (await usersIn()).filter((u) => u.startsWith("erased-"));
    expect(pseudonyms).toHaveLength(2);
    expect(pseudonyms).toContain(first!);
  });

  test("the deletion-request log keeps the request under the pseudonym, and reports still count it", async () => {
    await t.post("/add_memories", { user_id: "alice", memory: "x" });
    await t.post("/delete_all_memories", { user_id: "alice", cascade: true });
    const rows = await rowsOf<{ user_id: string }>(t, "SELECT user_id FROM deletion_requests");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toMatch(/^erased-[0-9a-f]{24}$/);
    const period = { start: t.clock.now() - DAY_MS, end: t.clock.now() + DAY_MS };
    const report = await t.post("/governance/compliance-report", { organizationId: "default", period });
    expect(report.body.userRequests.deletionRequests).toBe(1);
  });
});

describe("audit retention", () => {
  test.each([
    ["GDPR", 7],
    ["HIPAA", 6],
  ])("under %s, entries older than %i years are pruned and younger ones kept", async (mode, years) => {
    await setPolicy(t, orgPolicy(mode as string));
    await t.get("/list_memories?user_id=old");
    t.clock.advance((years as number) * YEAR_MS - DAY_MS);
    await t.get("/list_memories?user_id=middle");
    await t.services.governance.audit.prune();
    expect(await usersIn()).toEqual(["middle", "old"]);
    t.clock.advance(2 * DAY_MS);
    await t.get("/list_memories?user_id=new");
    expect(await usersIn()).toEqual(["middle", "new"]);
  });
});
