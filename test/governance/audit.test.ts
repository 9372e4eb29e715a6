// The audit log (SPEC §5.5): with compliance.auditLogging every API call of the scope is
// recorded and readable at GET /governance/audit?from=&to=.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { HOUR_MS } from "~/governance/durations";
import { orgPolicy, setPolicy } from "./app-support";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const audit = async (query = "") => {
  const r = await t.get(`/governance/audit${query}`);
  expect(r.status).toBe(200);
  return r.body.entries as {
    at: string;
    method: string;
    path: string;
    status: number;
    user_id: string | null;
    memory_space_id: string | null;
    organization_id: string;
  }[];
};

describe("audit log", () => {
  test("records every call with its time, user, space and status when auditLogging is on (the default)", async () => {
    const T0 = t.clock.now();
    await t.post("/add_memories", { user_id: "u", agent_id: "bot", memory: "hello" });
    t.clock.advance(HOUR_MS);
    await t.get("/list_memories?user_id=u");
    await t.get("/get_memory?memory_id=nope&user_id=u");
    expect(await audit()).toEqual([
      {
        at: new Date(T0).toISOString(),
        organization_id: "default",
        memory_space_id: "bot",
        user_id: "u",
        method: "POST",
        path: "/add_memories",
        status: 200,
      },
      {
        at: new Date(T0 + HOUR_MS).toISOString(),
        organization_id: "default",
        memory_space_id: null,
        user_id: "u",
        method: "GET",
        path: "/list_memories",
        status: 200,
      },
      {
        at: new Date(T0 + HOUR_MS).toISOString(),
        organization_id: "default",
        memory_space_id: null,
        user_id: "u",
        method: "GET",
        path: "/get_memory",
        status: 404,
      },
    ]);
  });

  test("from and to select a window, as epoch ms or ISO dates", async () => {
    const T0 = t.clock.now();
    await t.get("/list_memories?user_id=a");
    t.clock.advance(HOUR_MS);
    await t.get("/list_memories?user_id=b");
    t.clock.advance(HOUR_MS);
    await t.get("/list_memories?user_id=c");
    const users = (entries: { user_id: string | null }[]) => entries.map((e) => e.user_id);
    expect(users(await audit(`?from=${T0 + HOUR_MS}`)).slice(0, 2)).toEqual(["b", "c"]);
    expect(users(await audit(`?from=${T0}&to=${new Date(T0 + HOUR_MS).toISOString()}`))).toEqual(["a", "b"]);
  });

  test("a call in a space registered under another organization stays in its caller's log, and another organization's log is NOT_FOUND", async () => {
    await t.request("PUT", "/governance/overrides/acme-bot", { organizationId: "acme" });
    await t.post("/add_memories", { user_id: "u", agent_id: "acme-bot", memory: "x" });
    const own = await audit();
    expect(own.map((e) => [e.organization_id, e.path, e.memory_space_id])).toContainEqual([
      "default",
      "/add_memories",
      "acme-bot",
    ]);
    const other = await t.get("/governance/audit?organizationId=acme");
    expect([other.status, other.body]).toEqual([
      404,
      { success: false, error: "organization 'acme' not found", code: "NOT_FOUND" },
    ]);
    expect((await t.get("/governance/audit?organizationId=default")).status).toBe(200);
  });

  test("nothing more is recorded once the organization's policy turns auditLogging off", async () => {
    await t.get("/list_memories?user_id=u");
    await setPolicy(t, orgPolicy("GDPR", ["compliance.auditLogging", false]));
    await t.get("/list_memories?user_id=u");
    await t.get("/list_memories?user_id=u");
    expect((await audit()).map((e) => e.path)).toEqual(["/list_memories"]);
  });

  test("a call whose organization's policy is cached is decided at once, with no policy lookup to wait for", async () => {
    const policies = t.services.governance.policies;
    const lookup = policies.auditScope.bind(policies);
    let lookups = 0;
    policies.auditScope = (org) => (lookups++, lookup(org));
    try {
      await t.get("/list_memories?user_id=u"); // the first call reads the policy into the cache
      // That read runs after the answer: the next call must not race it (on a loaded machine it could
      // still be queued behind the store's other work, and the next call would look the policy up too).
      await t.services.governance.audit.settle();
      const first = lookups;
      await t.get("/list_memories?user_id=v");
      await t.post("/add_memories", { user_id: "v", agent_id: "bot", memory: "hello" });
      expect([first, lookups]).toEqual([1, 1]);
      expect((await audit()).map((e) => [e.path, e.user_id])).toEqual([
        ["/list_memories", "u"],
        ["/list_memories", "v"],
        ["/add_memories", "v"],
      ]);
    } finally {
      policies.auditScope = lookup;
    }
  });

  test("calls are written in call order whether or not they waited for a policy lookup, and a lookup that says no drops only its own call", async () => {
    const log = t.services.governance.audit;
    const policies = t.services.governance.policies;
    const cached = policies.auditScopeNow.bind(policies);
    policies.auditScopeNow = () => undefined; // every local call waits for its lookup
    const key = { org: "default", id: "k1", kind: "key" as const };
    const call = (path: string, principal?: typeof key) =>
      log.record({ method: "GET", path, status: 200, userId: "u", ...(principal ? { principal, route: path } : {}) });
    const paths = async () =>
      (await audit()).map((e) => e.path).filter((p) => ["/a", "/b", "/c", "/d", "/e", "/f"].includes(p));
    try {
      call("/a");
      call("/b", key);
      call("/c");
      expect(await paths()).toEqual(["/a", "/b", "/c"]);
      await setPolicy(t, orgPolicy("GDPR", ["compliance.auditLogging", false]));
      call("/d");
      call("/e", key); // a key's calls are logged whatever the policy says
      call("/f");
      expect(await paths()).toEqual(["/a", "/b", "/c", "/e"]);
    } finally {
      policies.auditScopeNow = cached;
    }
  });

  test("a call after the policy turned logging off is not recorded, though the old policy was cached at once", async () => {
    await t.get("/list_memories?user_id=u");
    await t.get("/list_memories?user_id=u");
    await setPolicy(t, orgPolicy("GDPR", ["compliance.auditLogging", false]));
    await t.get("/list_memories?user_id=u");
    await setPolicy(t, orgPolicy("GDPR", ["compliance.auditLogging", true]));
    await t.get("/get_memory?memory_id=nope&user_id=u");
    expect((await audit()).map((e) => e.path)).toEqual([
      "/list_memories",
      "/list_memories",
      "/governance/policies",
      "/get_memory",
    ]);
  });

  test("a bad window is a 400 naming the parameter", async () => {
    for (const [query, field] of [
      ["?from=yesterday", "from"],
      ["?to=2026-13-01", "to"],
      ["?limit=0", "limit"],
    ] as const) {
      const r = await t.get(`/governance/audit${query}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        success: false,
        code: "INVALID_DATE_RANGE",
        field,
        name: "GovernanceValidationError",
      });
    }
  });
});
