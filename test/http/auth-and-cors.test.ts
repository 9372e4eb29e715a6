import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";

let t: TestApp;
afterEach(() => t?.close());

describe("bearer auth", () => {
  test("when off, every route answers without a key", async () => {
    t = await buildTestApp();
    expect((await t.get("/list_memories?user_id=u")).status).toBe(200);
    expect((await t.get("/metrics")).status).toBe(200);
  });

  test("when on, /health stays open and everything else needs a key", async () => {
    t = await buildTestApp({ options: { auth: { enabled: true, apiKey: "k1,k2" } } });
    expect((await t.get("/health")).status).toBe(200);
    expect((await t.get("/v1/health")).status).toBe(200);
    const denied = await t.get("/metrics");
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({
      success: false,
      error: "missing or invalid API key; send Authorization: Bearer <key>",
      code: "UNAUTHORIZED",
    });
    expect(denied.headers.get("www-authenticate")).toBe("Bearer");
    expect((await t.get("/list_memories?user_id=u", { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await t.get("/list_memories?user_id=u", { authorization: "k1" })).status).toBe(401);
    expect((await t.get("/nope", { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await t.get("/metrics", { authorization: "Bearer k1" })).status).toBe(200);
    expect((await t.get("/list_memories?user_id=u", { authorization: "bearer k2" })).status).toBe(200);
  });

  test("a rejected request stores nothing", async () => {
    t = await buildTestApp({ options: { auth: { enabled: true, apiKey: "k" } } });
    await t.post("/add_memories", { user_id: "u", memory: "x" }, { authorization: "Bearer nope" });
    const list = await t.get("/list_memories?user_id=u", { authorization: "Bearer k" });
    expect(list.body.total).toBe(0);
  });
});

describe("CORS", () => {
  test("is off unless configured", async () => {
    t = await buildTestApp();
    const r = await t.get("/health", { origin: "http://localhost:5173" });
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("allows origins matching a wildcard-port pattern and nothing else", async () => {
    t = await buildTestApp({
      options: { cors: { enabled: true, origins: ["http://localhost:*", "https://app.example.com"] } },
    });
    const ok = await t.get("/health", { origin: "http://localhost:5173" });
    expect(ok.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(
      (await t.get("/health", { origin: "https://app.example.com" })).headers.get("access-control-allow-origin"),
    ).toBe("https://app.example.com");
    expect(
      (await t.get("/health", { origin: "http://evil.com" })).headers.get("access-control-allow-origin"),
    ).toBeNull();
    expect(
      (await t.get("/health", { origin: "http://localhost.evil.com:80" })).headers.get("access-control-allow-origin"),
    ).toBeNull();
    const pre = await t.request("OPTIONS", "/add_memories", undefined, {
      origin: "http://localhost:3001",
      "access-control-request-method": "POST",
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toContain("authorization");
  });

  test("is turned on by origins from the command line's setting (ENGRAM_CORS_ORIGINS / --cors-origins=)", async () => {
    t = await buildTestApp({ env: { ENGRAM_CORS_ORIGINS: "http://localhost:*" } });
    const ok = await t.get("/health", { origin: "http://localhost:5173" });
    expect(ok.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const other = await t.get("/health", { origin: "https://app.example.com" });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});
