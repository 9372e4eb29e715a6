import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, TEST_STORE, type TestApp } from "../support/app";
import { GatedEmbedder } from "../support/embedders";

let t: TestApp;
afterEach(() => t?.close());

describe("the error envelope", () => {
  test("an unknown route answers 404 NOT_FOUND", async () => {
    t = await buildTestApp();
    const r = await t.get("/nope");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ success: false, error: "no such route", code: "NOT_FOUND" });
  });

  test("a known path with the wrong method answers 405 with Allow", async () => {
    t = await buildTestApp();
    const r = await t.request("PUT", "/add_memories", { user_id: "u", memory: "x" });
    expect(r.status).toBe(405);
    expect(r.body).toEqual({
      success: false,
      error: "PUT is not allowed on /add_memories; use POST",
      code: "METHOD_NOT_ALLOWED",
    });
    expect(r.headers.get("allow")).toBe("POST");
  });

  test("malformed JSON answers 400 INVALID_JSON", async () => {
    t = await buildTestApp();
    const r = await t.request("POST", "/add_memories", '{"user_id": "u", "memory": ', {
      "content-type": "application/json",
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error: "request body is not valid JSON", code: "INVALID_JSON" });
  });

  test("a body that is JSON but not an object is a validation error", async () => {
    t = await buildTestApp();
    for (const body of ["[1,2]", '"text"', "42", "null"]) {
      const r = await t.request("POST", "/search_memory", body, { "content-type": "application/json" });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });

  test("a POST body that is not JSON answers 415", async () => {
    t = await buildTestApp();
    const r = await t.request("POST", "/add_memories", "user_id=u&memory=x", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({
      success: false,
      error: "request body must be JSON with Content-Type: application/json",
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  });

  test("a POST without any body or content type answers 415", async () => {
    t = await buildTestApp();
    const r = await t.raw(new Request("http://localhost/add_memories", { method: "POST" }));
    expect(r.status).toBe(415);
  });

  test("a body over the limit answers 413 and stores nothing", async () => {
    t = await buildTestApp({ options: { maxBodyBytes: 2048 } });
    const r = await t.post("/add_memories", { user_id: "u", memory: "x".repeat(3000) });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ success: false, error: "request body exceeds 2048 bytes", code: "PAYLOAD_TOO_LARGE" });
    expect((await t.get("/list_memories?user_id=u")).body.total).toBe(0);
  });

  test("a streamed body over the limit without Content-Length answers 413", async () => {
    t = await buildTestApp({ options: { maxBodyBytes: 2048 } });
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(JSON.stringify({ user_id: "u", memory: "y".repeat(5000) })));
        c.close();
      },
    });
    const r = await t.raw(
      new Request("http://localhost/add_memories", {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      }),
    );
    expect(r.status).toBe(413);
  });

  test("no malformed input produces a 500 or a stack trace", async () => {
    t = await buildTestApp();
    const bodies: unknown[] = [
      {},
      { user_id: null },
      { user_id: ["a"] },
      { user_id: "u", memory: null },
      { user_id: "u", messages: "hi" },
      { user_id: "u", messages: [null] },
      { user_id: "u", messages: [{ role: 1, content: [] }] },
      { user_id: "u", memory: "x", metadata: [] },
      { user_id: "u", memory: "x", metadata: "m" },
      { user_id: "u", memory: "x", metadata: { importance: "high" } },
      { user_id: "u", memory: "x", metadata: { temporary: "yes", expiresAt: "soon" } },
      { user_id: "u".repeat(300), memory: "x" },
      { user_id: "u", query: { $gt: "" } },
      { user_id: "u", query: "x", limit: "ten" },
      { user_id: "u", query: "x", limit: -5 },
      { user_id: "u", query: "x", metadata: { tags: [{ a: 1 }] } },
      { user_id: "u", query: "x", metadata: { n: 1e400 } },
      { memory_id: 5, user_id: "u", memory: "x" },
      { user_id: "u", cascade: 1 },
      { __proto__: { admin: true }, user_id: "u" },
    ];
    for (const path of [
      "/add_memories",
      "/search_memory",
      "/update_memory",
      "/delete_all_memories",
      "/graph/traverse",
    ]) {
      for (const b of bodies) {
        const r = await t.post(path, b);
        expect([path, b, r.status < 500]).toEqual([path, b, true]);
        if (r.status >= 400) expect(r.body).toMatchObject({ success: false, code: expect.any(String) });
        expect(JSON.stringify(r.body)).not.toContain("    at ");
      }
    }
    for (const q of [
      "",
      "?user_id=",
      "?user_id=u&limit=",
      "?user_id=u&limit=1e3",
      "?user_id=u&cursor=%00%00",
      "?user_id=u&user_id=v",
      "?memory_id=%ff&user_id=u",
    ]) {
      for (const path of ["/list_memories", "/get_memory"]) {
        const r = await t.get(path + q);
        expect(r.status).toBeLessThan(500);
      }
    }
  });
});

describe("GET /health", () => {
  test("answers ok with the version, the store's kind and reachability, and the search mode", async () => {
    t = await buildTestApp();
    const r = await t.get("/health");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: "ok",
      version: "0.1.0",
      store: { kind: TEST_STORE, reachable: true },
      search: {
        mode: "keyword",
        model: null,
        state: "off",
        vector_index: TEST_STORE === "postgres" ? "pgvector" : "sqlite-vec",
      },
    });
  });
});

describe("GET /ready", () => {
  test("answers 200 once the store is migrated and the model has settled, without a key when auth is on", async () => {
    t = await buildTestApp({ options: { auth: { enabled: true, apiKeys: ["k"] } } });
    for (const path of ["/ready", "/v1/ready"]) {
      const r = await t.get(path);
      expect([r.status, r.body]).toEqual([200, { ready: true }]);
    }
  });

  test("answers 503 UNAVAILABLE while the embedding model is still loading", async () => {
    const gate = Promise.withResolvers<void>();
    t = await buildTestApp({ embedder: new GatedEmbedder(gate.promise), background: true });
    void t.services.search.start();
    const r = await t.get("/ready");
    expect([r.status, r.body]).toEqual([
      503,
      { success: false, error: "the embedding model is still loading", code: "UNAVAILABLE" },
    ]);
    gate.resolve();
    await t.services.search.start();
    expect((await t.get("/ready")).status).toBe(200);
  });
});

describe("short Host names", () => {
  test("reach every route when allowed, as a proxy addressing the server as db or mem sends them", async () => {
    t = await buildTestApp({ options: { allowedHosts: ["x", "db", "mem", "engram"] } });
    for (const host of ["x", "db", "mem", "engram"]) {
      const add = await t.raw(
        new Request(`http://${host}/add_memories`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ user_id: host, memory: `stored via ${host}` }),
        }),
      );
      expect(add.status).toBe(200);
      const list = (await (await t.raw(new Request(`http://${host}/v1/list_memories?user_id=${host}`))).json()) as any;
      expect(list.results.map((r: any) => r.memory)).toEqual([`stored via ${host}`]);
      const missing = await t.raw(new Request(`http://${host}/nope`));
      expect([missing.status, ((await missing.json()) as any).code]).toEqual([404, "NOT_FOUND"]);
    }
  });
});

describe("OpenAPI", () => {
  test("/swagger/json documents every memory route from the same schemas", async () => {
    t = await buildTestApp();
    const r = await t.get("/swagger/json");
    expect(r.status).toBe(200);
    const paths = Object.keys(r.body.paths).sort();
    for (const p of [
      "/add_memories",
      "/search_memory",
      "/list_memories",
      "/delete_all_memories",
      "/get_memory",
      "/update_memory",
      "/delete_memory",
      "/health",
      "/metrics",
    ])
      expect(paths).toContain(p);
    expect(
      r.body.paths["/add_memories"].post.requestBody.content["application/json"].schema.properties.user_id.maxLength,
    ).toBe(256);
    expect(r.body.paths["/list_memories"].get.parameters.map((p: any) => p.name)).toEqual([
      "user_id",
      "limit",
      "cursor",
      "agent_id",
      "include_superseded",
      "spaces",
      "include_shared",
    ]);
    expect((await t.get("/swagger")).status).toBe(200);
  });
});
