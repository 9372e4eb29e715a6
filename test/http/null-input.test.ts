// null where a string is expected is a 400 naming the field, on every route that takes a body
// (SPEC §2.1), governance included: null is a given value of the wrong type, never "absent".
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** [method, path, a valid body, its string fields]. */
const ROUTES: [string, string, Record<string, unknown>, string[]][] = [
  [
    "POST",
    "/add_memories",
    { user_id: "u", memory: "x", agent_id: "a", session_id: "s" },
    ["user_id", "memory", "agent_id", "session_id"],
  ],
  [
    "POST",
    "/search_memory",
    { user_id: "u", query: "x", agent_id: "a", session_id: "s" },
    ["user_id", "query", "agent_id", "session_id"],
  ],
  ["POST", "/update_memory", { user_id: "u", memory_id: "m", memory: "x" }, ["user_id", "memory_id", "memory"]],
  ["POST", "/delete_all_memories", { user_id: "u" }, ["user_id"]],
  [
    "POST",
    "/conversations",
    { user_id: "u", agent_id: "a", messages: [{ role: "user", content: "hi" }] },
    ["user_id", "agent_id"],
  ],
  ["PUT", "/immutable/kb/1", { data: { a: 1 }, user_id: "u" }, ["user_id"]],
  ["PUT", "/mutable/ns/k", { value: 1, ttl: "1h" }, ["ttl"]],
  ["POST", "/sessions", { user_id: "u", agent_id: "a", device: "d" }, ["user_id", "agent_id", "device"]],
  ["POST", "/graph/entities", { user_id: "u", entities: [{ type: "person", id: "p" }] }, ["user_id"]],
  ["POST", "/graph/traverse", { user_id: "u", start: { type: "person", id: "p" } }, ["user_id"]],
  ["PUT", "/governance/overrides/bot", { organizationId: "acme" }, ["organizationId"]],
  [
    "POST",
    "/governance/simulate",
    { organizationId: "acme", memorySpaceId: "bot" },
    ["organizationId", "memorySpaceId"],
  ],
  [
    "POST",
    "/governance/compliance-report",
    { organizationId: "acme", memorySpaceId: "bot", period: { start: "2026-01-01", end: "2026-02-01" } },
    ["organizationId", "memorySpaceId"],
  ],
];

describe("null where a string is expected", () => {
  const cases = ROUTES.flatMap(([method, path, body, fields]) =>
    fields.map((field) => [`${method} ${path}`, field, method, path, body] as const),
  );
  test.each(cases)("%s with %s: null is a 400 naming it", async (_label, field, method, path, body) => {
    const r = await t.request(method, path, { ...body, [field]: null });
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.field).toBe(field);
  });

  test("an organization policy with memorySpaceId null is refused, not filed as a memory-space policy", async () => {
    const finra = (await t.get("/governance/templates/FINRA")).body;
    const r = await t.post("/governance/policies", { ...finra, organizationId: "default", memorySpaceId: null });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "INVALID_SCOPE", field: "memorySpaceId" });
    expect((await t.get("/governance/policies?memorySpaceId=null")).body.compliance.mode).not.toBe("FINRA");
    expect((await t.get("/governance/policies?organizationId=default")).body.compliance.mode).not.toBe("FINRA");
  });

  test("an override with organizationId null is a 400, not a 500", async () => {
    const r = await t.request("PUT", "/governance/overrides/bot", { organizationId: null });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      success: false,
      error: "organizationId must be a non-empty string, got null",
      code: "INVALID_SCOPE",
      field: "organizationId",
      name: "GovernanceValidationError",
    });
  });
});
