// SSO over HTTP (SPEC §8): tokens a real OIDC provider issues (client credentials) are bearer tokens,
// mapped to organization, user and role by their claims; every bad token is a 401 envelope (never a
// 500), an issuer that cannot be reached a 503 that holds up no one else.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type ServerResponse } from "node:http";
import { buildTestApp, type TestApp } from "../support/app";
import { AUDIENCE, startIssuer, type TestIssuer } from "../support/oidc-issuer";
import { OidcVerifier } from "~/identity/oidc";
import { loadConfig } from "~/config/load-config";
import { startServer } from "~/main";
import { silentLogger } from "~/shared/logger";

const SHARED = { authorization: "Bearer shared" };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const now = () => Math.floor(Date.now() / 1000);
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

let issuer: TestIssuer;
let t: TestApp;
const oidcApp = (url: string, more: Record<string, unknown> = {}) =>
  buildTestApp({
    options: { auth: { enabled: true, apiKey: "shared" }, oidc: { issuer: url, audience: [AUDIENCE], ...more } },
  });

beforeAll(async () => {
  issuer = await startIssuer([
    { id: "svc-member", secret: "s1", claims: { org: "default", roles: ["member"] } },
    { id: "svc-admin", secret: "s2", claims: { org: "default", roles: "admin" } },
    { id: "svc-reader", secret: "s3", claims: { org: "default", roles: ["reader", "viewer"] } },
    { id: "svc-norole", secret: "s4", claims: { org: "default", roles: ["viewer"] } },
    { id: "svc-noorg", secret: "s5", claims: { roles: ["member"] } },
    { id: "svc-acme", secret: "s6", claims: { org: "acme", roles: ["admin"] } },
    { id: "web", secret: "s7", claims: { org: "default", roles: ["member"] }, redirectUri: "http://127.0.0.1:9/cb" },
  ]);
  t = await oidcApp(issuer.url);
});
afterAll(async () => {
  await t?.close();
  await issuer?.close();
});

const claims = (o: Record<string, unknown> = {}) => ({
  iss: issuer.url,
  aud: AUDIENCE,
  sub: "ana",
  org: "default",
  roles: ["member"],
  iat: now(),
  exp: now() + 300,
  ...o,
});

describe("tokens from the issuer", () => {
  test("a token's requests are in the audit log under oidc:<subject>, with the user it acted as", async () => {
    const token = await issuer.token("svc-reader");
    expect((await t.get("/list_memories", bearer(token))).status).toBe(200);
    const log = await t.get("/audit?principal=oidc:svc-reader", SHARED);
    expect(log.status).toBe(200);
    expect(log.body.results.map((e: Record<string, unknown>) => [e.principal, e.route, e.user_id, e.status])).toEqual([
      ["oidc:svc-reader", "/list_memories", "svc-reader", 200],
    ]);
  });

  test("a member's token acts as its subject in its organization", async () => {
    const token = await issuer.token("svc-member");
    expect((await t.post("/add_memories", { memory: "the build runs nightly" }, bearer(token))).status).toBe(200);
    const mine = await t.get("/list_memories", bearer(token));
    expect(mine.status).toBe(200);
    expect(mine.body.results.map((m: { memory: string }) => m.memory)).toEqual(["the build runs nightly"]);
    expect((await t.get("/list_memories?user_id=svc-member", SHARED)).body.total).toBe(1);
    const other = await t.get("/list_memories?user_id=bob", bearer(token));
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ success: false, code: "FORBIDDEN" });
  });

  test("an admin's token administers its organization", async () => {
    const token = await issuer.token("svc-admin");
    const created = await t.post("/admin/keys", { role: "reader", user_id: "ana" }, bearer(token));
    expect(created.body).toMatchObject({ success: true, org: "default", role: "reader", user_id: "ana" });
    const listed = await t.get("/admin/keys", bearer(token));
    expect(listed.body.keys.map((k: { id: string }) => k.id)).toEqual([created.body.id]);
  });

  test("a token of another organization acts in its own: none of this organization's memories or keys", async () => {
    const added = await t.post("/add_memories", { user_id: "zed", memory: "Zed's locker code is 4411" }, SHARED);
    expect(added.status).toBe(200);
    const acme = bearer(await issuer.token("svc-acme"));
    const listed = await t.get("/list_memories?user_id=zed", acme);
    expect([listed.status, listed.body.results, listed.body.total]).toEqual([200, [], 0]);
    const id = added.body.memory_ids[0];
    expect((await t.get(`/get_memory?user_id=zed&memory_id=${id}`, acme)).body).toEqual({
      success: false,
      error: `memory '${id}' not found`,
      code: "NOT_FOUND",
    });
    expect((await t.get("/admin/keys", acme)).body).toEqual({ success: true, keys: [] });
  });

  test("a reader's token reads but does not write", async () => {
    const token = await issuer.token("svc-reader");
    expect((await t.get("/list_memories", bearer(token))).status).toBe(200);
    const write = await t.post("/add_memories", { memory: "x" }, bearer(token));
    expect(write.status).toBe(403);
    expect(write.body.code).toBe("FORBIDDEN");
  });

  test("a token naming no Engram role is 403, one without an organization 401", async () => {
    const noRole = await t.get("/list_memories", bearer(await issuer.token("svc-norole")));
    expect(noRole.status).toBe(403);
    expect(noRole.body).toEqual({
      success: false,
      error: "token's 'roles' claim names no role (admin, member or reader)",
      code: "FORBIDDEN",
    });
    const noOrg = await t.get("/list_memories", bearer(await issuer.token("svc-noorg")));
    expect(noOrg.status).toBe(401);
    expect(noOrg.body).toEqual({
      success: false,
      error: "token has no 'org' claim naming an organization",
      code: "UNAUTHORIZED",
    });
  });

  test("claim names, a default organization and role are settings", async () => {
    const custom = await oidcApp(issuer.url, {
      userClaim: "client_id",
      roleClaim: "realm_access.roles",
      org: "default",
      defaultRole: "reader",
    });
    try {
      const token = await issuer.sign(
        claims({ org: undefined, client_id: "bot-7", realm_access: { roles: ["admin"] } }),
      );
      expect((await custom.get("/admin/keys", bearer(token))).body).toEqual({ success: true, keys: [] });
      const plain = await issuer.sign(claims({ org: undefined, client_id: "bot-8", roles: undefined }));
      const r = await custom.get("/list_memories", bearer(plain));
      expect(r.status).toBe(200);
      expect((await custom.post("/add_memories", { memory: "x" }, bearer(plain))).status).toBe(403);
    } finally {
      await custom.close();
    }
  });

  test("a person's login (authorization code): the access token acts as that person", async () => {
    const { accessToken } = await issuer.login("web", "ana");
    expect((await t.post("/add_memories", { memory: "Ana prefers tea" }, bearer(accessToken))).status).toBe(200);
    const mine = await t.get("/list_memories", bearer(accessToken));
    expect(mine.body.results.map((m: { memory: string }) => m.memory)).toEqual(["Ana prefers tea"]);
    expect((await t.get("/list_memories?user_id=bob", bearer(accessToken))).status).toBe(403);
  });

  test("an ID token is accepted when its client is an audience; it carries no org or role, so settings give them", async () => {
    const { idToken } = await issuer.login("web", "ana");
    // aud is the client id, not Engram's resource: refused by the default audience.
    expect((await t.get("/list_memories", bearer(idToken))).status).toBe(401);
    const byClient = await oidcApp(issuer.url, { audience: [AUDIENCE, "web"], org: "default", defaultRole: "reader" });
    try {
      expect((await byClient.get("/list_memories", bearer(idToken))).status).toBe(200);
      expect((await byClient.post("/add_memories", { memory: "x" }, bearer(idToken))).status).toBe(403);
    } finally {
      await byClient.close();
    }
  });

  test("keys keep working beside tokens", async () => {
    expect((await t.get("/admin/keys", SHARED)).status).toBe(200);
  });
});

describe("bad tokens are 401 with the envelope", () => {
  const refused = async (token: string, error: string) => {
    const r = await t.get("/list_memories", bearer(token));
    expect({ status: r.status, body: r.body, www: r.headers.get("www-authenticate") }).toEqual({
      status: 401,
      body: { success: false, error, code: "UNAUTHORIZED" },
      www: "Bearer",
    });
  };

  test("expired beyond the clock skew", async () => {
    await refused(await issuer.sign(claims({ exp: now() - 120 })), "token has expired");
  });

  test("expired or not yet valid within the clock skew (60 s) is accepted", async () => {
    const token = await issuer.sign(claims({ exp: now() - 30, nbf: now() + 30 }));
    expect((await t.get("/list_memories", bearer(token))).status).toBe(200);
  });

  test("not yet valid beyond the clock skew", async () => {
    await refused(await issuer.sign(claims({ nbf: now() + 600 })), `token refused: "nbf" claim timestamp check failed`);
  });

  test("for another audience", async () => {
    await refused(
      await issuer.sign(claims({ aud: "https://other.test" })),
      `token refused: unexpected "aud" claim value`,
    );
  });

  test("from another issuer", async () => {
    await refused(
      await issuer.sign(claims({ iss: "https://evil.test" })),
      `token refused: unexpected "iss" claim value`,
    );
  });

  test("without exp", async () => {
    await refused(await issuer.sign(claims({ exp: undefined })), `token refused: missing required "exp" claim`);
  });

  test("alg: none", async () => {
    const unsigned = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims())}.`;
    await refused(unsigned, "token's signature algorithm is not accepted");
  });

  test("HS256 signed with the issuer's public key as the secret", async () => {
    const jwks = (await (await fetch(`${issuer.url}/jwks`)).json()) as { keys: { kid: string }[] };
    const published = jwks.keys[0]!;
    const secret = new TextEncoder().encode(JSON.stringify(published));
    const header = b64({ alg: "HS256", kid: published.kid });
    const body = b64(claims({ roles: ["admin"] }));
    const sig = new Bun.CryptoHasher("sha256", secret).update(`${header}.${body}`).digest("base64url");
    await refused(`${header}.${body}.${sig}`, "token's signature algorithm is not accepted");
  });

  test("tampered claims", async () => {
    const [h, , s] = (await issuer.token("svc-member")).split(".");
    await refused(`${h}.${b64(claims({ roles: ["admin"] }))}.${s}`, "token's signature does not verify");
  });

  test("a key id the issuer does not publish", async () => {
    await refused(
      await issuer.sign(claims(), { kid: "unknown" }),
      "token is signed with a key the issuer does not publish",
    );
  });

  test("malformed", async () => {
    await refused("eyJ.x.y", "malformed token");
    await refused(`eyJhbGciOiJSUzI1NiJ9.${b64(claims())}.!!`, "invalid API key");
    await refused("eyJub3QganNvbg.e30.c2ln", "malformed token");
    await refused("not-a-token", "invalid API key");
  });

  test("huge", async () => {
    const token = await issuer.sign(claims({ pad: "x".repeat(10_000) }));
    await refused(token, "bearer token longer than 8192 characters");
  });
});

describe("key rotation", () => {
  test("a token signed with a new key verifies once the issuer publishes it; the retired key's do not", async () => {
    const v = new OidcVerifier(
      {
        issuer: issuer.url,
        audience: [AUDIENCE],
        orgClaim: "org",
        userClaim: "sub",
        roleClaim: "roles",
        clockSkewSeconds: 0,
      },
      { jwksCooldownMs: 0 },
    );
    const before = await issuer.token("svc-member");
    expect(await v.verify(before)).toEqual({
      org: "default",
      role: "member",
      userId: "svc-member",
      kind: "token",
      id: "oidc:svc-member",
    });
    await issuer.rotate();
    const after = await issuer.token("svc-member");
    expect(JSON.parse(atob(after.split(".")[0]!)).kid).toBe("k2");
    expect((await v.verify(after)).userId).toBe("svc-member");
    await expect(v.verify(before)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("an issuer that cannot be reached", () => {
  test("is a 503 naming it; keys are answered meanwhile", async () => {
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(gone.address() as { port: number }).port}`;
    await new Promise<void>((r) => gone.close(() => r()));
    const down = await oidcApp(url);
    try {
      const r = await down.get("/list_memories", bearer(await issuer.sign(claims())));
      expect(r.status).toBe(503);
      expect(r.body.code).toBe("UNAVAILABLE");
      expect(r.body.error).toStartWith(`cannot verify the token: the OIDC issuer ${url} is unreachable`);
      expect((await down.get("/admin/keys", SHARED)).status).toBe(200);
    } finally {
      await down.close();
    }
  });

  test("that hangs holds up only token requests, and ends in a 503 when it drops the connection", async () => {
    let arrived!: () => void;
    const asked = new Promise<void>((r) => (arrived = r));
    const held: ServerResponse[] = [];
    const hang = createServer((_req, res) => (held.push(res), arrived()));
    await new Promise<void>((r) => hang.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(hang.address() as { port: number }).port}`;
    const slow = await oidcApp(url);
    try {
      let done = false;
      const pending = slow.get("/list_memories", bearer(await issuer.sign(claims()))).finally(() => (done = true));
      await asked;
      expect((await slow.get("/admin/keys", SHARED)).status).toBe(200);
      expect(done).toBe(false);
      for (const res of held) res.destroy();
      const r = await pending;
      expect(r.status).toBe(503);
      expect(r.body.code).toBe("UNAVAILABLE");
    } finally {
      await slow.close();
      hang.closeAllConnections();
      await new Promise<void>((r) => hang.close(() => r()));
    }
  });

  test("whose discovery names another issuer is a 503", async () => {
    const liar = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ issuer: "https://elsewhere.test", jwks_uri: `${issuer.url}/jwks` }));
    });
    await new Promise<void>((r) => liar.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(liar.address() as { port: number }).port}`;
    const app = await oidcApp(url);
    try {
      const r = await app.get("/list_memories", bearer(await issuer.sign(claims({ iss: url }))));
      expect(r.status).toBe(503);
      expect(r.body.error).toBe(
        `cannot verify the token: the OIDC issuer ${url} names another issuer (https://elsewhere.test)`,
      );
    } finally {
      await app.close();
      liar.closeAllConnections();
      await new Promise<void>((r) => liar.close(() => r()));
    }
  });
});

describe("settings", () => {
  const env = { HOME: "/tmp" };
  const load = (oidc: Record<string, unknown>, auth = true) =>
    loadConfig({ env, options: { auth: { enabled: auth }, oidc } });

  test("an issuer needs an audience, auth on and an http(s) URL", () => {
    expect(() => load({ issuer: "https://login.example.com" })).toThrow(
      "ENGRAM_OIDC_AUDIENCE: required with ENGRAM_OIDC_ISSUER",
    );
    expect(() => load({ issuer: "https://login.example.com", audience: ["a"] }, false)).toThrow(
      "ENGRAM_OIDC_ISSUER: tokens are checked only with auth on",
    );
    expect(() => load({ issuer: "login.example.com", audience: ["a"] })).toThrow(
      "ENGRAM_OIDC_ISSUER: 'login.example.com' must be an http:// or https:// URL",
    );
    expect(() => load({ issuer: "https://x.test", audience: ["a"], defaultRole: "owner" })).toThrow("oidc.defaultRole");
  });

  test("a server with auth on starts with an issuer alone (no MCP_API_KEY, no identity key)", async () => {
    const config = load({ issuer: issuer.url, audience: [AUDIENCE] });
    const server = await startServer(
      { ...config, storeUrl: "sqlite::memory:", storePath: ":memory:", port: 0 },
      {
        logger: silentLogger(),
        embedder: null,
      },
    );
    try {
      const token = await issuer.token("svc-member");
      expect((await fetch(`${server.url}/list_memories`, { headers: bearer(token) })).status).toBe(200);
      expect((await fetch(`${server.url}/list_memories`)).status).toBe(401);
    } finally {
      await server.stop();
    }
  });
});
