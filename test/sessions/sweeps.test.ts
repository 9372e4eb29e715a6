// The sessions sweeps of SPEC §5.8: expire-idle persists idle/ended states that time has
// reached; cleanup archives (archiveAfter) and deletes (deleteEndedAfter) ended sessions.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { DAY, HOUR, MIN, at, end, lifecycle, read, setSessionPolicy, start } from "./support";
import { askedTwiceAtOnce, rowsOf } from "../support/store";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const cleanupPolicy = (cleanup: Record<string, unknown>) =>
  setSessionPolicy(t, { lifecycle: lifecycle(), cleanup: { autoExpireIdle: true, ...cleanup } });

describe("POST /sessions/expire-idle", () => {
  test("moves quiet active sessions to idle and timed-out ones to ended, and answers the counts", async () => {
    const old = await start(t);
    t.clock.advance(30 * MIN);
    const quiet = await start(t);
    t.clock.advance(30 * MIN);
    const fresh = await start(t);
    t.clock.advance(1);
    const res = await t.post("/sessions/expire-idle");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, idled: 1, ended: 1 });
    expect((await t.post("/sessions/expire-idle")).body).toEqual({ success: true, idled: 0, ended: 0 });
    expect(await read(t, old.id)).toMatchObject({ state: "ended", ended_at: at(HOUR), end_reason: "idle_timeout" });
    expect((await read(t, quiet.id)).state).toBe("idle");
    expect((await read(t, fresh.id)).state).toBe("active");
  });

  test("persists the same states reads showed before it ran", async () => {
    const a = await start(t);
    const b = await start(t, { user_id: "bob" });
    t.clock.advance(45 * MIN);
    const before = [await read(t, a.id), await read(t, b.id, "bob")];
    await t.post("/sessions/expire-idle", {});
    expect([await read(t, a.id), await read(t, b.id, "bob")]).toEqual(before);
    expect((await t.get("/sessions?user_id=alice&state=idle")).body.total).toBe(1);
  });

  test("a user_id or agent_id in the body narrows the sweep", async () => {
    await start(t);
    await start(t, { user_id: "bob" });
    await start(t, { user_id: "bob", agent_id: "cursor" });
    t.clock.advance(45 * MIN);
    expect((await t.post("/sessions/expire-idle", { user_id: "bob", agent_id: "cursor" })).body).toEqual({
      success: true,
      idled: 1,
      ended: 0,
    });
    expect((await t.post("/sessions/expire-idle", { user_id: "bob" })).body).toEqual({
      success: true,
      idled: 1,
      ended: 0,
    });
    expect((await t.post("/sessions/expire-idle", { agent_id: "mcp-agent" })).body).toEqual({
      success: true,
      idled: 1,
      ended: 0,
    });
  });

  test("without autoExpireIdle idle sessions stay idle and only maxDuration ends them", async () => {
    await setSessionPolicy(t, { lifecycle: lifecycle({ maxDuration: "4h" }), cleanup: { autoExpireIdle: false } });
    await start(t);
    t.clock.advance(3 * HOUR);
    expect((await t.post("/sessions/expire-idle")).body).toEqual({ success: true, idled: 1, ended: 0 });
    t.clock.advance(HOUR);
    expect((await t.post("/sessions/expire-idle")).body).toEqual({ success: true, idled: 0, ended: 1 });
  });
});

describe("POST /sessions/cleanup", () => {
  test("archives sessions ended longer than archiveAfter and deletes those ended longer than deleteEndedAfter", async () => {
    await cleanupPolicy({ archiveAfter: "7d", deleteEndedAfter: "30d" });
    const a = await start(t);
    const b = await start(t);
    await end(t, a.id);
    t.clock.advance(3 * DAY);
    await end(t, b.id);
    t.clock.advance(4 * DAY);
    expect((await t.post("/sessions/cleanup")).body).toEqual({ success: true, archived: 1, deleted: 0 });
    expect(await read(t, a.id)).toMatchObject({ state: "archived", ended_at: at(), archived_at: at(7 * DAY) });
    expect((await read(t, b.id)).state).toBe("ended");
    t.clock.advance(3 * DAY);
    expect((await t.post("/sessions/cleanup", {})).body).toEqual({ success: true, archived: 1, deleted: 0 });
    t.clock.advance(20 * DAY);
    expect((await t.post("/sessions/cleanup")).body).toEqual({ success: true, archived: 0, deleted: 1 });
    expect((await t.get(`/sessions/${a.id}?user_id=alice`)).status).toBe(404);
    t.clock.advance(3 * DAY);
    expect((await t.post("/sessions/cleanup")).body).toEqual({ success: true, archived: 0, deleted: 1 });
    expect((await t.get("/sessions?user_id=alice")).body).toEqual({ results: [], total: 0, has_more: false });
  });

  test("an archived session can be read but not touched", async () => {
    await cleanupPolicy({ archiveAfter: "1d" });
    const s = await start(t);
    await end(t, s.id);
    t.clock.advance(DAY);
    await t.post("/sessions/cleanup");
    const res = await t.post(`/sessions/${s.id}/touch`, { user_id: "alice" });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`session '${s.id}' has ended and was archived; start a new session`);
    expect((await t.post(`/sessions/${s.id}/end`, { user_id: "alice" })).body.session.state).toBe("archived");
  });

  test("sessions past deleteEndedAfter are deleted without being archived first", async () => {
    await cleanupPolicy({ archiveAfter: "7d", deleteEndedAfter: "1d" });
    const s = await start(t);
    await end(t, s.id);
    t.clock.advance(10 * DAY);
    expect((await t.post("/sessions/cleanup")).body).toEqual({ success: true, archived: 0, deleted: 1 });
  });

  test("ages count from the moment a session timed out, even when expire-idle never ran", async () => {
    await cleanupPolicy({ deleteEndedAfter: "1d" });
    await start(t);
    t.clock.advance(HOUR + DAY - 1);
    expect((await t.post("/sessions/cleanup")).body).toEqual({ success: true, archived: 0, deleted: 0 });
    t.clock.advance(1);
    expect((await t.post("/sessions/cleanup")).body).toEqual({ success: true, archived: 0, deleted: 1 });
  });

  test("under the defaults (no archiveAfter, no deleteEndedAfter) ended sessions are kept", async () => {
    const s = await start(t);
    await end(t, s.id);
    t.clock.advance(3650 * DAY);
    expect((await t.post("/sessions/cleanup")).body).toEqual({ success: true, archived: 0, deleted: 0 });
    expect((await read(t, s.id)).state).toBe("ended");
  });

  test("each memory space's own policy decides, and the body can narrow the sweep", async () => {
    await t.request("PUT", "/governance/overrides/cursor", { sessions: { cleanup: { deleteEndedAfter: "1d" } } });
    const kept = await start(t);
    const gone = await start(t, { agent_id: "cursor" });
    const bobs = await start(t, { user_id: "bob", agent_id: "cursor" });
    for (const [id, user] of [
      [kept.id, "alice"],
      [gone.id, "alice"],
      [bobs.id, "bob"],
    ] as const)
      await end(t, id, user);
    t.clock.advance(2 * DAY);
    expect((await t.post("/sessions/cleanup", { user_id: "alice" })).body).toEqual({
      success: true,
      archived: 0,
      deleted: 1,
    });
    expect((await read(t, kept.id)).state).toBe("ended");
    expect((await read(t, bobs.id, "bob")).state).toBe("ended");
  });
});

describe("one sweep per request", () => {
  /** Both answers of a sweep asked twice while the test holds the sweeps' turn: neither runs before the other asks. */
  const askedTogether = <T>(ask: () => Promise<T>) =>
    askedTwiceAtOnce(t.services.store, "session-sweeps", ask, () =>
      rowsOf(t, "SELECT count(*) AS n FROM session_sweeps"),
    );

  test("an expire-idle asked twice at once sweeps once: both callers get its counts, and one run is recorded", async () => {
    await start(t);
    await start(t, { user_id: "bob" });
    t.clock.advance(45 * MIN);
    const [first, second] = await askedTogether(() => t.post("/sessions/expire-idle"));
    expect(first!.body).toEqual({ success: true, idled: 2, ended: 0 });
    expect(second!.body).toEqual(first!.body);
    expect(await rowsOf(t, "SELECT kind, runs FROM session_sweeps")).toEqual([{ kind: "expire-idle", runs: 1 }]);
    // A sweep asked after that one ended sweeps again, and finds nothing left.
    expect((await t.post("/sessions/expire-idle")).body).toEqual({ success: true, idled: 0, ended: 0 });
    expect(await rowsOf(t, "SELECT runs FROM session_sweeps")).toEqual([{ runs: 2 }]);
  });

  test("a cleanup asked twice at once sweeps once; a sweep of another scope is a run of its own", async () => {
    await cleanupPolicy({ deleteEndedAfter: "1d" });
    await end(t, (await start(t)).id);
    await end(t, (await start(t, { user_id: "bob" })).id, "bob");
    t.clock.advance(2 * DAY);
    const [first, second] = await askedTogether(() => t.post("/sessions/cleanup", { user_id: "alice" }));
    expect(first!.body).toEqual({ success: true, archived: 0, deleted: 1 });
    expect(second!.body).toEqual(first!.body);
    expect((await t.post("/sessions/cleanup")).body).toEqual({ success: true, archived: 0, deleted: 1 });
    expect(await rowsOf(t, "SELECT scope, runs FROM session_sweeps ORDER BY scope")).toEqual([
      { scope: '["default","alice",null]', runs: 1 },
      { scope: '["default",null,null]', runs: 1 },
    ]);
  });
});
