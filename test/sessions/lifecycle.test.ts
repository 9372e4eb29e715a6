// The session lifecycle of SPEC §5.8 through HTTP with a fake clock: active → idle → ended,
// touch, end, autoExtend on and off, warnBeforeExpiry and per-space overrides.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { DAY, HOUR, MIN, at, end, lifecycle, read, setSessionPolicy, start, touch } from "./support";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

describe("a new session", () => {
  test("is active, belongs to mcp-agent by default and expires after the default maxDuration of 24h", async () => {
    const res = await t.post("/sessions", { user_id: "alice", device: "web", metadata: { app: "cli" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      session: {
        id: expect.any(String),
        user_id: "alice",
        agent_id: "mcp-agent",
        device: "web",
        metadata: { app: "cli" },
        state: "active",
        created_at: at(),
        last_activity_at: at(),
        expires_at: at(DAY),
        ended_at: null,
        end_reason: null,
        archived_at: null,
      },
    });
    expect(await read(t, res.body.session.id)).toEqual(res.body.session);
  });

  test("carries warn_at = expires_at − warnBeforeExpiry only when the policy sets warnBeforeExpiry", async () => {
    expect((await start(t)).warn_at).toBeUndefined();
    await setSessionPolicy(t, {
      lifecycle: lifecycle({ maxDuration: "2h", warnBeforeExpiry: "10m" }),
      cleanup: { autoExpireIdle: true },
    });
    const s = await start(t);
    expect({ expires_at: s.expires_at, warn_at: s.warn_at }).toEqual({
      expires_at: at(2 * HOUR),
      warn_at: at(2 * HOUR - 10 * MIN),
    });
  });
});

describe("idle and ended by time", () => {
  test("after idleTimeout without activity a session reads as idle, and a touch makes it active again", async () => {
    const s = await start(t);
    t.clock.advance(30 * MIN - 1);
    expect((await read(t, s.id)).state).toBe("active");
    t.clock.advance(1);
    expect((await read(t, s.id)).state).toBe("idle");
    const touched = await touch(t, s.id);
    expect(touched.status).toBe(200);
    expect(touched.body.session).toMatchObject({
      state: "active",
      last_activity_at: at(30 * MIN),
      expires_at: at(30 * MIN + DAY),
    });
  });

  test("with autoExpireIdle an idle session ends after a second idleTimeout, ended_at being that instant", async () => {
    const s = await start(t);
    t.clock.advance(2 * HOUR);
    expect(await read(t, s.id)).toMatchObject({ state: "ended", ended_at: at(60 * MIN), end_reason: "idle_timeout" });
  });

  test("without autoExpireIdle an idle session stays idle until maxDuration ends it", async () => {
    await setSessionPolicy(t, { lifecycle: lifecycle({ maxDuration: "8h" }), cleanup: { autoExpireIdle: false } });
    const s = await start(t);
    t.clock.advance(8 * HOUR - 1);
    expect((await read(t, s.id)).state).toBe("idle");
    t.clock.advance(1);
    expect(await read(t, s.id)).toMatchObject({ state: "ended", ended_at: at(8 * HOUR), end_reason: "max_duration" });
  });
});

describe("autoExtend", () => {
  test("on: each touch slides expires_at to now + maxDuration, so an active session outlives maxDuration", async () => {
    await setSessionPolicy(t, { lifecycle: lifecycle({ maxDuration: "1h" }), cleanup: { autoExpireIdle: true } });
    const s = await start(t);
    for (let i = 1; i <= 4; i++) {
      t.clock.advance(20 * MIN);
      expect((await touch(t, s.id)).body.session.expires_at).toBe(at(i * 20 * MIN + HOUR));
    }
    expect((await read(t, s.id)).state).toBe("active");
  });

  test("off: touch keeps expires_at and the session ends at created_at + maxDuration despite activity", async () => {
    await setSessionPolicy(t, {
      lifecycle: lifecycle({ maxDuration: "1h", autoExtend: false }),
      cleanup: { autoExpireIdle: true },
    });
    const s = await start(t);
    t.clock.advance(50 * MIN);
    expect((await touch(t, s.id)).body.session).toMatchObject({
      state: "active",
      last_activity_at: at(50 * MIN),
      expires_at: at(HOUR),
    });
    t.clock.advance(10 * MIN);
    expect(await read(t, s.id)).toMatchObject({ state: "ended", ended_at: at(HOUR), end_reason: "max_duration" });
  });
});

describe("touch and end on ended sessions", () => {
  test("touch on an ended session answers 409 CONFLICT and changes nothing", async () => {
    const s = await start(t);
    await end(t, s.id);
    const res = await touch(t, s.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: "CONFLICT",
      error: `session '${s.id}' has ended (explicit); start a new session`,
    });
    expect((await read(t, s.id)).last_activity_at).toBe(at());
  });

  test("touch on a session whose time ran out answers 409 even before expire-idle has run", async () => {
    const s = await start(t);
    t.clock.advance(DAY);
    const res = await touch(t, s.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`session '${s.id}' has ended (idle_timeout); start a new session`);
  });

  test("end makes a live session ended now with reason explicit; ending it again returns it unchanged", async () => {
    const s = await start(t);
    t.clock.advance(5 * MIN);
    const first = await end(t, s.id);
    expect(first.status).toBe(200);
    expect(first.body.session).toMatchObject({ state: "ended", ended_at: at(5 * MIN), end_reason: "explicit" });
    t.clock.advance(5 * MIN);
    const again = await end(t, s.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  test("end on a session that already timed out records the time-out, not a new end", async () => {
    const s = await start(t);
    t.clock.advance(3 * HOUR);
    expect((await end(t, s.id)).body.session).toMatchObject({
      state: "ended",
      ended_at: at(HOUR),
      end_reason: "idle_timeout",
    });
    expect((await t.post("/sessions/expire-idle", {})).body).toEqual({ success: true, idled: 0, ended: 0 });
  });
});

describe("the policy that applies", () => {
  test("a memory-space override changes the rules for sessions of that agent only", async () => {
    const put = await t.request("PUT", "/governance/overrides/cursor", {
      sessions: { lifecycle: { idleTimeout: "5m" } },
    });
    expect(put.status).toBe(200);
    const cursor = await start(t, { agent_id: "cursor" });
    const other = await start(t);
    t.clock.advance(5 * MIN);
    expect((await read(t, cursor.id)).state).toBe("idle");
    expect((await read(t, other.id)).state).toBe("active");
  });
});
