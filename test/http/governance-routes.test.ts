// Bad input on the governance routes (SPEC §5.6–5.7): exact status, envelope, code and field;
// unknown routes and wrong methods; the /v1 twins.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { getTemplate } from "~/governance/templates";
import { rowsOf } from "../support/store";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const gve = (code: string, field?: string) => ({
  success: false,
  error: expect.any(String),
  code,
  ...(field !== undefined ? { field } : {}),
  name: "GovernanceValidationError",
});
/** A policy of the test app's organization ("default", its operator's: auth is off on loopback). */
const policy = (extra: Record<string, unknown> = {}) => ({
  organizationId: "default",
  ...getTemplate("GDPR"),
  ...extra,
});

describe("governance validation over HTTP", () => {
  test.each([
    ["POST", "/governance/policies", {}, "MISSING_REQUIRED_FIELD", "conversations"],
    ["POST", "/governance/policies", [], "MISSING_POLICY", undefined],
    ["POST", "/governance/policies", policy({ organizationId: undefined }), "MISSING_SCOPE", undefined],
    ["POST", "/governance/policies", policy({ memorySpaceId: "" }), "INVALID_SCOPE", "memorySpaceId"],
    ["PUT", "/governance/overrides/%20", {}, "MISSING_SCOPE", "memorySpaceId"],
    ["PUT", "/governance/overrides/bot", [1], "MISSING_POLICY", undefined],
    [
      "PUT",
      "/governance/overrides/bot",
      { sessions: { lifecycle: { idleTimeout: "30 m" } } },
      "INVALID_PERIOD_FORMAT",
      "sessions.lifecycle.idleTimeout",
    ],
    ["POST", "/governance/enforce", null, "MISSING_OPTIONS", undefined],
    ["POST", "/governance/enforce", { scope: "acme" }, "MISSING_SCOPE", "scope"],
    ["POST", "/governance/enforce", { scope: { memorySpaceId: "" } }, "INVALID_SCOPE", "scope.memorySpaceId"],
    [
      "POST",
      "/governance/enforce",
      { scope: { organizationId: "acme" }, layers: ["Vector"] },
      "INVALID_LAYERS",
      "layers",
    ],
    ["POST", "/governance/enforce", { scope: { organizationId: "acme" }, rules: "purging" }, "INVALID_RULES", "rules"],
    [
      "POST",
      "/governance/simulate",
      { vector: { retention: { defaultVersions: "10" } } },
      "INVALID_VERSIONS",
      "vector.retention.defaultVersions",
    ],
    ["POST", "/governance/simulate", { organizationId: 5 }, "INVALID_SCOPE", "organizationId"],
    ["POST", "/governance/compliance-report", { organizationId: "acme" }, "INVALID_DATE_RANGE", "period"],
    [
      "POST",
      "/governance/compliance-report",
      { organizationId: "acme", period: { start: "2026-01-01", end: "1/2/2026" } },
      "INVALID_DATE_RANGE",
      "end",
    ],
    [
      "POST",
      "/governance/compliance-report",
      { organizationId: "", period: { start: 1, end: 2 } },
      "INVALID_SCOPE",
      "organizationId",
    ],
    ["GET", "/governance/templates/Custom", undefined, "INVALID_COMPLIANCE_MODE", "name"],
    ["GET", "/governance/templates/hipaa", undefined, "INVALID_COMPLIANCE_MODE", "name"],
    ["GET", "/governance/stats", undefined, "INVALID_PERIOD", "period"],
    ["GET", "/governance/stats?period=1w", undefined, "INVALID_PERIOD", "period"],
    ["GET", "/governance/policies?memorySpaceId=", undefined, "INVALID_SCOPE", "memorySpaceId"],
    ["DELETE", "/governance/policies", undefined, "MISSING_SCOPE", undefined],
    ["DELETE", "/governance/policies?organizationId=%20", undefined, "INVALID_SCOPE", "organizationId"],
    ["DELETE", "/governance/policies?memorySpaceId=", undefined, "INVALID_SCOPE", "memorySpaceId"],
  ])("%s %s with %j is 400 %s", async (method, path, body, code, field) => {
    const r = await t.request(method, path, body === null ? "null" : body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(gve(code, field));
  });

  test("the /v1 twins answer the same", async () => {
    const r = await t.post("/v1/governance/enforce", { scope: {} });
    expect([r.status, r.body]).toEqual([400, gve("INVALID_SCOPE", "scope")]);
    expect((await t.get("/v1/governance/templates/SOC2")).body).toEqual(getTemplate("SOC2") as never);
  });
});

describe("transport errors on the governance routes", () => {
  test("unparseable JSON is 400 INVALID_JSON", async () => {
    const r = await t.post("/governance/policies", "{bad");
    expect([r.status, r.body]).toEqual([
      400,
      { success: false, error: "request body is not valid JSON", code: "INVALID_JSON" },
    ]);
  });

  test("a body that is not JSON is 415", async () => {
    const r = await t.post("/governance/simulate", "{}", { "content-type": "text/plain" });
    expect([r.status, r.body.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });

  test("unknown governance routes are 404 and wrong methods 405 with Allow", async () => {
    expect((await t.get("/governance/nope")).body).toEqual({
      success: false,
      error: "no such route",
      code: "NOT_FOUND",
    });
    const r = await t.request("PATCH", "/governance/policies");
    expect([r.status, r.body.code, r.headers.get("allow")]).toEqual([405, "METHOD_NOT_ALLOWED", "POST, GET, DELETE"]);
    expect((await t.get("/governance/enforce")).status).toBe(405);
  });
});

describe("governance success shapes over HTTP", () => {
  test("set, read, override and enforce answer their documented shapes", async () => {
    const set = await t.post("/governance/policies", policy());
    expect(set.body).toEqual({
      success: true,
      policyId: expect.any(String),
      appliedAt: t.clock.now(),
      scope: { organizationId: "default" },
    });
    expect((await t.get("/governance/policies?organizationId=default")).body).toEqual(policy() as never);
    const put = await t.request("PUT", "/governance/overrides/bot", {
      organizationId: "default",
      vector: { retention: { defaultVersions: 2 } },
    });
    expect(put.body).toEqual({ success: true, memorySpaceId: "bot" });
    const got = await t.get("/governance/policies?memorySpaceId=bot");
    expect([got.body.memorySpaceId, got.body.vector.retention.defaultVersions]).toEqual(["bot", 2]);
    const run = await t.post("/governance/enforce", { scope: { organizationId: "default" } });
    expect(run.body).toEqual({
      enforcedAt: t.clock.now(),
      versionsDeleted: 0,
      recordsPurged: 0,
      storageFreed: 0,
      affectedLayers: ["conversations", "immutable", "mutable", "vector"],
    });
  });
});

describe("DELETE /governance/policies (removePolicy)", () => {
  const finra = { ...getTemplate("FINRA"), organizationId: "default" };

  test("takes the organization back to the global defaults, unlocking plain writes, and says whether it removed one", async () => {
    await t.post("/governance/policies", finra);
    const locked = await t.post("/add_memories", { user_id: "alice", memory: "plain note" });
    expect([locked.status, locked.body.field]).toEqual([400, "metadata.justification"]);
    const r = await t.request("DELETE", "/governance/policies?organizationId=default");
    expect([r.status, r.body]).toEqual([200, { success: true, removed: true }]);
    expect((await t.get("/governance/policies?organizationId=default")).body).toEqual({
      organizationId: "default",
      ...getTemplate("GDPR"),
    } as never);
    expect((await t.post("/add_memories", { user_id: "alice", memory: "plain note" })).status).toBe(200);
    const again = await t.request("DELETE", "/governance/policies?organizationId=default");
    expect([again.status, again.body]).toEqual([200, { success: true, removed: false }]);
  });

  test("a memory space's override goes, the organization's policy applies again, and the registration stays", async () => {
    await t.post("/governance/policies", { ...getTemplate("HIPAA"), organizationId: "default" });
    await t.request("PUT", "/governance/overrides/bot", {
      organizationId: "default",
      vector: { retention: { defaultVersions: 2 } },
    });
    const r = await t.request("DELETE", "/governance/policies?memorySpaceId=bot");
    expect(r.body).toEqual({ success: true, removed: true });
    const p = (await t.get("/governance/policies?memorySpaceId=bot")).body;
    expect([p.compliance.mode, p.vector.retention.defaultVersions]).toEqual(["HIPAA", 20]);
  });

  test("keeps the removed policy as history and writes the removal to the audit log", async () => {
    await t.post("/governance/policies", finra);
    await t.request("DELETE", "/governance/policies?organizationId=default");
    expect(await rowsOf(t, "SELECT scope_kind, scope_id, active FROM governance_policies")).toEqual([
      { scope_kind: "organization", scope_id: "default", active: 0 },
    ]);
    const audit = (await t.get("/governance/audit")).body.entries;
    expect(audit.filter((e: any) => e.method === "removePolicy")).toEqual([
      {
        at: new Date(t.clock.now()).toISOString(),
        organization_id: "default",
        memory_space_id: null,
        user_id: null,
        method: "removePolicy",
        path: "/governance/policies?organizationId=default",
        status: 200,
      },
    ]);
  });
});
