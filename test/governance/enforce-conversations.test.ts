// Enforcement of the conversations layer (SPEC §5.4): archive after archiveAfter, delete after
// deleteAfter (age from creation), and inactive deletion when autoDelete.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { DAY_MS, YEAR_MS } from "~/governance/durations";
import { conversation, counts, enforce, orgPolicy, setPolicy } from "./app-support";
import { rowsOf } from "../support/store";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const get = (id: string) => t.get(`/conversations/${id}?user_id=u`);
const append = (id: string) =>
  t.post(`/conversations/${id}/messages`, { user_id: "u", messages: [{ role: "user", content: "more" }] });

describe("conversation retention", () => {
  test("a conversation is archived once older than archiveAfter and then becomes read-only", async () => {
    const id = await conversation(t);
    t.clock.advance(YEAR_MS - 1);
    expect(await enforce(t)).toMatchObject({ recordsPurged: 0, versionsDeleted: 0 });
    expect((await get(id)).body.archived_at).toBeNull();
    t.clock.advance(1);
    expect(await enforce(t)).toMatchObject({ recordsPurged: 0, versionsDeleted: 0, storageFreed: 0 });
    expect((await get(id)).body.archived_at).toBe(new Date(t.clock.now()).toISOString());
    const r = await append(id);
    expect([r.status, r.body.code]).toEqual([409, "CONFLICT"]);
    expect((await t.get("/governance/stats?period=7d")).body.conversations).toEqual({ purged: 0, archived: 1 });
  });

  test("archiving twice does not count twice", async () => {
    await conversation(t);
    t.clock.advance(YEAR_MS);
    await enforce(t);
    await enforce(t);
    expect((await t.get("/governance/stats?period=7d")).body.conversations).toEqual({ purged: 0, archived: 1 });
  });

  test("a conversation is deleted with its messages once older than deleteAfter", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["conversations.purging.autoDelete", false]));
    const old = await conversation(t);
    t.clock.advance(DAY_MS);
    const young = await conversation(t);
    t.clock.advance(7 * YEAR_MS - DAY_MS);
    const result = await enforce(t);
    expect([result.recordsPurged, result.storageFreed > 0]).toEqual([1, true]);
    expect((await get(old)).status).toBe(404);
    expect((await get(young)).status).toBe(200);
    expect(
      (
        await rowsOf<{ n: number }>(t, "SELECT count(*) AS n FROM conversation_messages WHERE conversation_id = ?", [
          old,
        ])
      )[0]!.n,
    ).toBe(0);
  });

  test("a policy without archiveAfter never archives", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["conversations.retention.archiveAfter", null]));
    await conversation(t);
    t.clock.advance(3 * YEAR_MS);
    await enforce(t, { scope: { organizationId: "default" }, layers: ["conversations"] });
    expect((await counts(t)).archived).toBe(0);
  });
});

describe("conversation purging", () => {
  async function twoConversations() {
    const active = await conversation(t);
    const idle = await conversation(t);
    t.clock.advance(300 * DAY_MS);
    expect((await append(active)).status).toBe(200);
    t.clock.advance(2 * YEAR_MS - 300 * DAY_MS);
    return { active, idle };
  }

  test("with autoDelete, a conversation with no message for deleteInactiveAfter is deleted", async () => {
    const { active, idle } = await twoConversations();
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect([(await get(active)).status, (await get(idle)).status]).toEqual([200, 404]);
  });

  test("without autoDelete, inactivity deletes nothing", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["conversations.purging.autoDelete", false]));
    const { active, idle } = await twoConversations();
    expect((await enforce(t)).recordsPurged).toBe(0);
    expect([(await get(active)).status, (await get(idle)).status]).toEqual([200, 200]);
  });

  test("rules ['retention'] skips inactivity and rules ['purging'] skips archiving and age", async () => {
    const { idle } = await twoConversations();
    expect((await enforce(t, { scope: { organizationId: "default" }, rules: ["retention"] })).recordsPurged).toBe(0);
    expect((await counts(t)).archived).toBe(2);
    expect((await get(idle)).status).toBe(200);
    const other = await buildTestApp();
    try {
      await setPolicy(other, orgPolicy("GDPR", ["conversations.purging.deleteInactiveAfter", "8y"]));
      const id = await conversation(other);
      other.clock.advance(7 * YEAR_MS);
      await enforce(other, { scope: { organizationId: "default" }, rules: ["purging"] });
      expect((await other.get(`/conversations/${id}?user_id=u`)).body.archived_at).toBeNull();
    } finally {
      await other.close();
    }
  });

  test("conversations recorded by add_memories with messages are governed like the others", async () => {
    await t.post("/add_memories", { user_id: "u", agent_id: "bot", messages: [{ role: "user", content: "hi" }] });
    t.clock.advance(2 * YEAR_MS);
    expect((await enforce(t, { scope: { memorySpaceId: "bot" } })).recordsPurged).toBe(1);
    expect(await counts(t)).toMatchObject({ conversations: 0, memories: 1 });
  });
});
