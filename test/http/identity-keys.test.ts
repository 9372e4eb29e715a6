// Identity keys over HTTP (SPEC §8): /admin/keys, what a key is bound to, expiry, revocation that
// applies at once on every process sharing the store, and malformed keys answered with the envelope.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../support/app";
import { tempDir } from "../support/server-process";
import { DAY_MS } from "~/governance/durations";

const SHARED = { authorization: "Bearer shared" };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const auth = (more: Record<string, unknown> = {}) => ({
  options: { auth: { enabled: true, apiKey: "shared" }, ...more },
});

let apps: TestApp[] = [];
afterEach(async () => {
  // One after the other: two connections of this thread to one file must not wait on each other's write lock.
  for (const a of apps) await a.close();
  apps = [];
});
const app = async (o: Parameters<typeof buildTestApp>[0] = auth()) => {
  const t = await buildTestApp(o);
  apps.push(t);
  return t;
};

async function newKey(t: TestApp, body: Record<string, unknown>, as = SHARED) {
  const r = await t.post("/admin/keys", body, as);
  expect(r.status).toBe(200);
  return r.body as { id: string; key: string };
}

describe("POST /admin/keys", () => {
  test("answers the key once, in the egk_<id>_<secret> format, with what it is bound to", async () => {
    const t = await app();
    const r = await t.post("/admin/keys", { role: "member", user_id: "ana", agent_id: "cursor", name: "Ana" }, SHARED);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      key: expect.stringMatching(/^egk_[0-9a-f]{16}_[0-9a-f]{64}$/),
      org: "default",
      role: "member",
      user_id: "ana",
      agent_id: "cursor",
      name: "Ana",
      created_at: "2026-06-01T00:00:00.000Z",
      expires_at: null,
    });
    expect(r.body.key.startsWith(`egk_${r.body.id}_`)).toBe(true);
    const list = await t.get("/admin/keys", SHARED);
    expect(list.body).toEqual({
      success: true,
      keys: [
        {
          id: r.body.id,
          org: "default",
          role: "member",
          user_id: "ana",
          agent_id: "cursor",
          name: "Ana",
          created_at: "2026-06-01T00:00:00.000Z",
          expires_at: null,
          last_used_at: null,
          revoked_at: null,
        },
      ],
    });
    expect(JSON.stringify(list.body)).not.toContain(r.body.key.slice(-64));
  });

  test("stores only a digest of the secret: the store file never holds it", async () => {
    const dir = tempDir();
    const t = await app(auth({ storeUrl: join(dir, "keys.db"), searchWorkers: 0 }));
    const { key } = await newKey(t, { role: "admin" });
    await t.close();
    apps = [];
    const bytes = Buffer.concat([
      readFileSync(join(dir, "keys.db")),
      readFileSync(join(dir, "keys.db-wal"), { flag: "a+" }),
    ]);
    expect(bytes.includes(Buffer.from(key.slice(-64)))).toBe(false);
    expect(bytes.includes(Buffer.from(key.slice(4, 20)))).toBe(true);
  });

  test("refuses unknown roles, member keys without a user, bad expiries and fields of its own choosing", async () => {
    const t = await app();
    const refuse = async (body: unknown) => (await t.post("/admin/keys", body, SHARED)).body;
    expect(await refuse({ role: "owner" })).toMatchObject({ success: false, code: "VALIDATION_ERROR", field: "role" });
    expect(await refuse({ role: "member" })).toEqual({
      success: false,
      error: "a member key acts as one user: give user_id",
      code: "VALIDATION_ERROR",
      field: "user_id",
    });
    expect(await refuse({ role: "reader", user_id: "x", expires: "1w" })).toEqual({
      success: false,
      error: "expires must be a duration like 30m, 24h, 90d or 1y",
      code: "VALIDATION_ERROR",
      field: "expires",
    });
    expect(await refuse({ role: "admin", org: "other" })).toMatchObject({ code: "VALIDATION_ERROR" });
  });

  test("needs an admin key: a member key gets 403 and creates nothing", async () => {
    const t = await app();
    const member = await newKey(t, { role: "member", user_id: "ana" });
    const r = await t.post("/admin/keys", { role: "admin" }, bearer(member.key));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      success: false,
      error: "this operation needs an admin key of the organization",
      code: "FORBIDDEN",
    });
    expect((await t.get("/admin/keys", SHARED)).body.keys).toHaveLength(1);
  });
});

describe("a key bound to a user", () => {
  test("acts as its user when a request names none, and gets 403 naming another", async () => {
    const t = await app();
    const { key } = await newKey(t, { role: "member", user_id: "ana" });
    expect((await t.post("/add_memories", { memory: "Ana likes tea" }, bearer(key))).status).toBe(200);
    const mine = await t.get("/list_memories", bearer(key));
    expect(mine.body.results.map((m: { memory: string }) => m.memory)).toEqual(["Ana likes tea"]);
    expect((await t.get("/list_memories?user_id=ana", SHARED)).body.total).toBe(1);
    const other = await t.get("/list_memories?user_id=bob", bearer(key));
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ success: false, error: "this key acts only as user 'ana'", code: "FORBIDDEN" });
  });

  test("bound to an agent, writes as that agent and reads only that agent's memories", async () => {
    const t = await app();
    await t.post("/add_memories", { user_id: "ana", agent_id: "claude", memory: "from claude" }, SHARED);
    const { key } = await newKey(t, { role: "member", user_id: "ana", agent_id: "cursor" });
    await t.post("/add_memories", { memory: "from cursor" }, bearer(key));
    const seen = await t.get("/list_memories", bearer(key));
    expect(seen.body.results.map((m: { memory: string; agent_id: string }) => [m.memory, m.agent_id])).toEqual([
      ["from cursor", "cursor"],
    ]);
    expect((await t.post("/add_memories", { memory: "x", agent_id: "claude" }, bearer(key))).status).toBe(403);
    const claude = (await t.get("/list_memories?user_id=ana&agent_id=claude", SHARED)).body.results[0].id;
    expect((await t.get(`/get_memory?memory_id=${claude}`, bearer(key))).status).toBe(404);
    const cascade = await t.post("/delete_all_memories", { cascade: true }, bearer(key));
    expect(cascade.status).toBe(403);
    expect((await t.post("/delete_all_memories", {}, bearer(key))).body).toEqual({ success: true, deleted_count: 1 });
    expect((await t.get("/list_memories?user_id=ana", SHARED)).body.total).toBe(1);
  });

  test("a reader reads and never writes", async () => {
    const t = await app();
    await t.post("/add_memories", { user_id: "ana", memory: "Ana likes tea" }, SHARED);
    const { key } = await newKey(t, { role: "reader", user_id: "ana" });
    expect((await t.post("/search_memory", { query: "tea" }, bearer(key))).body.results).toHaveLength(1);
    const write = await t.post("/add_memories", { memory: "nope" }, bearer(key));
    expect(write.body).toEqual({ success: false, error: "this key is read-only (role reader)", code: "FORBIDDEN" });
  });
});

describe("authentication", () => {
  test("a revoked key fails at its next request", async () => {
    const t = await app();
    const { id, key } = await newKey(t, { role: "member", user_id: "ana" });
    expect((await t.get("/list_memories", bearer(key))).status).toBe(200);
    expect((await t.request("DELETE", `/admin/keys/${id}`, undefined, SHARED)).body).toEqual({
      success: true,
      id,
      revoked_at: "2026-06-01T00:00:00.000Z",
    });
    const r = await t.get("/list_memories", bearer(key));
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ success: false, error: "this API key was revoked", code: "UNAUTHORIZED" });
    expect((await t.request("DELETE", `/admin/keys/${id}`, undefined, SHARED)).status).toBe(404);
  });

  test("a key revoked by another process on the same store fails at once here", async () => {
    const path = join(tempDir(), "shared.db");
    const one = await app(auth({ storeUrl: path, searchWorkers: 0 }));
    const two = await app(auth({ storeUrl: path, searchWorkers: 0 }));
    const { id, key } = await newKey(one, { role: "member", user_id: "ana" });
    expect((await two.get("/list_memories", bearer(key))).status).toBe(200);
    expect((await one.request("DELETE", `/admin/keys/${id}`, undefined, SHARED)).status).toBe(200);
    expect((await two.get("/list_memories", bearer(key))).status).toBe(401);
  });

  test("a wrong secret for a key's id fails also after the key's own secret was accepted", async () => {
    const t = await app();
    const { key } = await newKey(t, { role: "member", user_id: "ana" });
    const last = key.at(-1) === "0" ? "1" : "0";
    for (const token of [key, `${key.slice(0, -1)}${last}`, key, `${key.slice(0, 21)}${"0".repeat(64)}`]) {
      const r = await t.get("/list_memories", bearer(token));
      expect({ same: token === key, status: r.status }).toEqual({
        same: token === key,
        status: token === key ? 200 : 401,
      });
    }
  });

  test("two keys of one user stay two principals: each request is audited under the key it came with", async () => {
    const t = await app();
    const one = await newKey(t, { role: "member", user_id: "ana" });
    const two = await newKey(t, { role: "reader", user_id: "ana" });
    for (const k of [one, two, one]) expect((await t.get("/list_memories", bearer(k.key))).status).toBe(200);
    expect((await t.post("/add_memories", { memory: "x" }, bearer(two.key))).status).toBe(403);
    const admin = await newKey(t, { role: "admin" });
    const audit = await t.get("/audit?limit=10", bearer(admin.key));
    expect(audit.body.results.map((e: { principal: string; status: number }) => [e.principal, e.status])).toEqual([
      ["shared:1", 200],
      ["shared:1", 200],
      [one.id, 200],
      [two.id, 200],
      [one.id, 200],
      [two.id, 403],
      ["shared:1", 200],
    ]);
  });

  test("an expired key fails from its expiry on", async () => {
    const t = await app();
    const { key } = await newKey(t, { role: "member", user_id: "ana", expires: "1d" });
    t.clock.advance(DAY_MS - 1);
    expect((await t.get("/list_memories", bearer(key))).status).toBe(200);
    t.clock.advance(1);
    expect((await t.get("/list_memories", bearer(key))).body).toEqual({
      success: false,
      error: "this API key has expired",
      code: "UNAUTHORIZED",
    });
  });

  test("records when a key was last used", async () => {
    const t = await app();
    const { key } = await newKey(t, { role: "member", user_id: "ana" });
    t.clock.advance(60_000);
    await t.get("/list_memories", bearer(key));
    expect((await t.get("/admin/keys", SHARED)).body.keys[0].last_used_at).toBe("2026-06-01T00:01:00.000Z");
  });

  test("malformed, forged and huge keys get the 401 envelope, never a 500", async () => {
    const t = await app();
    const { key } = await newKey(t, { role: "admin" });
    const forged = `${key.slice(0, -1)}${key.endsWith("0") ? "1" : "0"}`;
    for (const token of [
      "egk_",
      "egk_x_y",
      `egk_${"0".repeat(16)}_${"0".repeat(64)}`,
      forged,
      `${key}x`,
      key.toUpperCase(),
      `egk_${"é".repeat(16)}_${"0".repeat(64)}`,
      "x".repeat(9000),
      "a.b.c",
    ]) {
      const r = await t.get("/admin/keys", bearer(token));
      expect({ token: token.slice(0, 40), status: r.status, code: r.body.code }).toEqual({
        token: token.slice(0, 40),
        status: 401,
        code: "UNAUTHORIZED",
      });
    }
    expect((await t.get("/admin/keys", { authorization: "Basic abc" })).status).toBe(401);
    expect((await t.get("/admin/keys", { authorization: "Bearer" })).status).toBe(401);
  });
});

describe("auth on without MCP_API_KEY", () => {
  test("serves with identity keys alone", async () => {
    const t = await app({ options: { auth: { enabled: true } } });
    const admin = await t.services.keys.create("default", { role: "admin" });
    expect((await t.get("/admin/keys", bearer(admin.key))).status).toBe(200);
    expect((await t.get("/admin/keys", bearer("anything"))).status).toBe(401);
  });
});
