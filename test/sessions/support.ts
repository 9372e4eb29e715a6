// Helpers of the sessions tests: a session policy set through the governance API (GDPR
// template as the base), time units, and shortcuts for the sessions endpoints.
import { expect } from "bun:test";
import type { TestApp } from "../support/app";

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/** The organization policy of the default org: the GDPR template with this sessions block. */
export async function setSessionPolicy(t: TestApp, sessions: Record<string, unknown>): Promise<void> {
  const gdpr = await t.get("/governance/templates/GDPR");
  const res = await t.post("/governance/policies", { ...gdpr.body, organizationId: "default", sessions });
  expect(res.status).toBe(200);
}

export const lifecycle = (o: Record<string, unknown> = {}) => ({
  idleTimeout: "30m",
  maxDuration: "24h",
  autoExtend: true,
  ...o,
});

export async function start(t: TestApp, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.post("/sessions", { user_id: "alice", ...body });
  expect(res.status).toBe(200);
  return res.body.session;
}

export const read = async (t: TestApp, id: string, user = "alice") =>
  (await t.get(`/sessions/${id}?user_id=${user}`)).body.session;
export const touch = (t: TestApp, id: string, user = "alice") => t.post(`/sessions/${id}/touch`, { user_id: user });
export const end = (t: TestApp, id: string, user = "alice") => t.post(`/sessions/${id}/end`, { user_id: user });

/** Where buildTestApp's FakeClock starts, and ISO strings of instants after it. */
export const T0 = Date.UTC(2026, 5, 1);
export const at = (ms = 0) => new Date(T0 + ms).toISOString();
