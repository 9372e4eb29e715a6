// The policy's session limits (SPEC §5.8): maxActiveSessions and maxSessionsPerDevice → 409
// CONFLICT; only live (active or idle) sessions of the user in that memory space count.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { HOUR, end, lifecycle, setSessionPolicy, start } from "./support";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const limits = (l: Record<string, unknown>) =>
  setSessionPolicy(t, { lifecycle: lifecycle(), cleanup: { autoExpireIdle: true }, limits: l });

describe("maxActiveSessions", () => {
  test("the session over the limit answers 409 CONFLICT with a message naming the limit", async () => {
    await limits({ maxActiveSessions: 2 });
    await start(t);
    await start(t);
    const res = await t.post("/sessions", { user_id: "alice" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: "CONFLICT",
      error:
        "session limit reached: user 'alice' already has 2 active or idle sessions in memory space 'mcp-agent' (maxActiveSessions 2); end one or let it expire",
    });
    expect((await t.get("/sessions?user_id=alice")).body.total).toBe(2);
  });

  test("ending a session frees its slot, and idle sessions still count", async () => {
    await limits({ maxActiveSessions: 2 });
    const a = await start(t);
    await start(t);
    t.clock.advance(40 * 60_000);
    expect((await t.post("/sessions", { user_id: "alice" })).status).toBe(409);
    await end(t, a.id);
    expect((await t.post("/sessions", { user_id: "alice" })).status).toBe(200);
  });

  test("sessions that timed out stop counting even before expire-idle has run", async () => {
    await limits({ maxActiveSessions: 1 });
    await start(t);
    t.clock.advance(2 * HOUR);
    expect((await t.post("/sessions", { user_id: "alice" })).status).toBe(200);
  });

  test("the limit is per user and per memory space", async () => {
    await limits({ maxActiveSessions: 1 });
    await start(t);
    expect((await t.post("/sessions", { user_id: "bob" })).status).toBe(200);
    expect((await t.post("/sessions", { user_id: "alice", agent_id: "cursor" })).status).toBe(200);
    expect((await t.post("/sessions", { user_id: "alice" })).status).toBe(409);
  });

  test("a null limit in an override lifts the organization's limit for that space", async () => {
    await limits({ maxActiveSessions: 1 });
    expect(
      (await t.request("PUT", "/governance/overrides/cursor", { sessions: { limits: { maxActiveSessions: null } } }))
        .status,
    ).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await t.post("/sessions", { user_id: "alice", agent_id: "cursor" })).status).toBe(200);
  });
});

describe("maxSessionsPerDevice", () => {
  test("counts per device type; another device type, or no device, is not limited by it", async () => {
    await limits({ maxSessionsPerDevice: 1 });
    await start(t, { device: "mobile" });
    const res = await t.post("/sessions", { user_id: "alice", device: "mobile" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: "CONFLICT",
      error:
        "session limit reached: user 'alice' already has 1 active or idle 'mobile' sessions in memory space 'mcp-agent' (maxSessionsPerDevice 1); end one or let it expire",
    });
    expect((await t.post("/sessions", { user_id: "alice", device: "web" })).status).toBe(200);
    expect((await t.post("/sessions", { user_id: "alice" })).status).toBe(200);
    expect((await t.post("/sessions", { user_id: "alice" })).status).toBe(200);
  });

  test("both limits apply together; maxActiveSessions is checked first", async () => {
    await limits({ maxActiveSessions: 2, maxSessionsPerDevice: 1 });
    await start(t, { device: "web" });
    expect((await t.post("/sessions", { user_id: "alice", device: "web" })).body.error).toContain(
      "maxSessionsPerDevice 1",
    );
    await start(t, { device: "cli" });
    expect((await t.post("/sessions", { user_id: "alice", device: "tv" })).body.error).toContain("maxActiveSessions 2");
  });
});
