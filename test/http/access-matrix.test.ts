// The authorization matrix of SPEC §8: every route of the app's real route table (the /v1 twins
// included) × every kind of caller, each on a fresh store with the same fixture, asserting the exact
// status. An allowed call must answer what the server's own shared key gets for the same request; a
// refused one exactly 401 or 403. An admin key of another organization must get what an admin gets on a
// store without this organization's data (another organization's ids are 404, its listings empty), or
// 404 where the request names this organization. A route without an access rule, or without a sample
// request here, fails the test by name.
import { afterAll, describe, expect, test } from "bun:test";
import { buildTestApp, sqliteOnly, type TestApp } from "../support/app";
import { accessOf } from "~/http/access";
import type { Access } from "~/identity/access";
import { userScopeOf } from "~/shared/principal";
import { getTemplate } from "~/governance/templates";
import { SAMPLES, type Fixture, type Request, type Sample } from "./access-samples";

const SHARED = "shared-secret";
const ORG = "default";
const ALICE = "alice";
const AGENT = "cursor";
const OTHER_ORG = "acme";
/** Routes whose sample names the fixture's organization (organizationId): another organization's admin gets 404. */
const NAMES_ORG = new Set([
  "POST /governance/policies",
  "GET /governance/policies",
  "DELETE /governance/policies",
  "POST /governance/enforce",
  "POST /governance/simulate",
  "POST /governance/compliance-report",
]);

/** Who calls: the key each uses, made in every fresh store by `keysOf`. */
const CALLERS = ["admin", "member", "member+agent", "reader", "other-org", "revoked", "none"] as const;
type Caller = (typeof CALLERS)[number];

type App = { t: TestApp; fixture: Fixture; keys: Record<Caller | "shared", string | null> };

const authApp = () => buildTestApp({ options: { auth: { enabled: true, apiKey: SHARED } } });

async function freshApp(): Promise<App> {
  const t = await authApp();
  const s = t.services;
  const as = userScopeOf(ORG, ALICE);
  const added = await s.memory.add(as, { agent_id: AGENT, memory: "Alice prefers dark mode" });
  const conversation = await s.conversations.create(as, {
    agent_id: AGENT,
    messages: [{ role: "user", content: "hi" }],
  });
  const session = await s.sessions.create(as, { agent_id: AGENT });
  await s.immutable.put({ org: ORG }, "kb-article", "passport", { data: { title: "Passports" } });
  await s.mutable.put({ org: ORG }, "prefs", "theme", { value: "dark" });
  await s.graph.upsertEntities(as, { entities: [{ type: "person", id: "ann", name: "Ann" }] });
  await s.governance.setPolicy({ ...getTemplate("GDPR"), organizationId: ORG }, ORG);
  await s.spaces.create(ORG, { space_id: "team", name: "Team", members: [{ user_id: ALICE, role: "writer" }] }, null);
  const key = (input: Parameters<typeof s.keys.create>[1]) => s.keys.create(ORG, input);
  const spare = await key({ role: "reader", user_id: "bob" });
  const revoked = await key({ role: "member", user_id: ALICE });
  await s.keys.revoke(ORG, revoked.id);
  const keys = {
    shared: SHARED,
    admin: (await key({ role: "admin" })).key,
    member: (await key({ role: "member", user_id: ALICE })).key,
    "member+agent": (await key({ role: "member", user_id: ALICE, agent_id: AGENT })).key,
    reader: (await key({ role: "reader", user_id: ALICE })).key,
    "other-org": (await s.keys.create(OTHER_ORG, { role: "admin" })).key,
    revoked: revoked.key,
    none: null,
  };
  const fixture: Fixture = {
    user: ALICE,
    agent: AGENT,
    org: ORG,
    memoryId: added.memory_ids[0]!,
    conversationId: conversation.id,
    sessionId: session.session.id,
    keyId: spare.id,
    space: "team",
  };
  return { t, fixture, keys };
}

async function send(t: TestApp, key: string | null, route: string, method: string, sample: Request) {
  const qs = sample.query ? `?${new URLSearchParams(sample.query)}` : "";
  const headers: Record<string, string> = { ...sample.headers };
  if (key) headers.authorization = `Bearer ${key}`;
  const r = await t.request(method === "ALL" ? "POST" : method, `${route}${sample.path}${qs}`, sample.body, headers);
  return r.status;
}

/**
 * What a caller must get: `baseline` is what the shared key (an admin of the organization) got for the
 * same request. Only member, member+agent and reader keys are bound to a user, only member+agent to an agent.
 */
function expected(rule: Access, caller: Caller, baseline: number, variant: Variant, empty: number): number {
  if (rule.kind === "public") return baseline;
  if (caller === "none" || caller === "revoked") return 401;
  if (caller === "other-org") return rule.kind === "operator" ? 403 : empty;
  const otherUser = variant === "other-user" && caller !== "admin";
  const otherAgent = variant === "other-agent" && caller === "member+agent";
  switch (rule.kind) {
    case "admin":
    case "operator":
      return caller === "admin" ? baseline : 403;
    case "user":
      return (rule.write && caller === "reader") || otherUser || otherAgent ? 403 : baseline;
    case "authenticated":
      return otherUser ? 403 : baseline;
    case "org":
      return baseline;
  }
}

const cells: string[] = [];
const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  console.log(`access matrix: ${cells.length} cells`);
});

// Read from a real app before the tests are declared: the matrix walks exactly what the app serves.
const routes = await (async () => {
  const probe = await buildTestApp();
  try {
    return probe.routes.map((r) => ({ method: r.method, path: r.path, rule: accessOf(r.hooks) }));
  } finally {
    await probe.close();
  }
})();
const sampleKey = (r: { method: string; path: string }) => `${r.method} ${r.path.replace(/^\/v1(?=\/)/, "")}`;

type Variant = "as-is" | "other-user" | "other-agent";
function variants(s: ReturnType<Sample>): [Variant, Request][] {
  return [
    ["as-is", s],
    ...(s.otherUser ? [["other-user", s.otherUser] as [Variant, Request]] : []),
    ...(s.otherAgent ? [["other-agent", s.otherAgent] as [Variant, Request]] : []),
  ];
}

// Access is decided before the store is reached, and the matrix opens a fresh store for every write cell
// (hundreds): on PostgreSQL each is a schema migrated from scratch, minutes of CI for no store behaviour.
const skipOnPostgres = sqliteOnly(
  "access matrix: access is decided before the store, and a fresh migrated schema per cell costs minutes",
);

describe.skipIf(skipOnPostgres)("access matrix (SPEC §8)", () => {
  test("every route of the app has an access rule and a sample request", () => {
    const missing = routes.flatMap((r) => [
      ...(r.rule ? [] : [`${r.method} ${r.path}: no access rule`]),
      ...(SAMPLES[sampleKey(r)] ? [] : [`${r.method} ${r.path}: no sample in test/http/access-samples.ts`]),
    ]);
    expect(missing).toEqual([]);
  });

  for (const r of routes) {
    const sampleOf = SAMPLES[sampleKey(r)];
    const rule = r.rule;
    if (!rule || !sampleOf) continue;
    const prefix = r.path.startsWith("/v1/") ? "/v1" : "";
    const kind = rule.kind === "user" ? `user ${rule.write ? "write" : "read"}` : rule.kind;
    test(`${r.method} ${r.path} (${kind})`, async () => {
      const base = await freshApp();
      apps.push(base.t);
      // A read leaves the fixture as it was: its calls share the store; a write gets a fresh one each.
      const storeFor = async () => {
        if (r.method === "GET") return base;
        const cell = await freshApp();
        apps.push(cell.t);
        return cell;
      };
      const call = async (who: Caller | "shared", variant: Variant) => {
        const cell = await storeFor();
        const sample = variants(sampleOf(cell.fixture)).find(([v]) => v === variant)![1];
        return send(cell.t, cell.keys[who], prefix, r.method, sample);
      };
      // What an admin gets on a store without the fixture's data, for the same request (another organization's view).
      const emptyFor = async (variant: Variant) => {
        const t = await authApp();
        apps.push(t);
        const sample = variants(sampleOf(base.fixture)).find(([v]) => v === variant)![1];
        return send(t, SHARED, prefix, r.method, sample);
      };
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const [variant] of variants(sampleOf(base.fixture))) {
        const baseline = await call("shared", variant);
        expect(baseline).not.toBeOneOf([401, 403, 500]);
        const empty = NAMES_ORG.has(sampleKey(r)) ? 404 : await emptyFor(variant);
        for (const caller of CALLERS) {
          const name = `${caller} ${variant}`;
          got[name] = await call(caller, variant);
          want[name] = expected(rule, caller, baseline, variant, empty);
          cells.push(`${r.method} ${r.path} ${name}`);
        }
      }
      expect(got).toEqual(want);
    });
  }
});
