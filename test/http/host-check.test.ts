// DNS-rebinding protection (SPEC §7): every route validates Host and, when present, Origin against
// the bind address; others get 403 FORBIDDEN. --allowed-hosts / --allowed-origins extend the lists.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { buildTestApp } from "../support/app";

const FORBIDDEN_HOST = (host: string) => ({
  success: false,
  error: `Host '${host}' is not allowed; start engram with --allowed-hosts=${host} to accept it`,
  code: "FORBIDDEN",
});
const FORBIDDEN_ORIGIN = (origin: string) => ({
  success: false,
  error: `Origin '${origin}' is not allowed; start engram with --allowed-origins=${origin} to accept it`,
  code: "FORBIDDEN",
});

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

describe("a loopback server on a real port", () => {
  let server: RunningServer;
  beforeAll(async () => {
    const config = loadConfig({ options: { storeUrl: "sqlite::memory:", port: 0 } });
    server = await startServer(config, { logger: silentLogger(), embedder: null });
  });
  afterAll(() => server.stop());

  const call = (path: string, headers: Record<string, string>, body?: string) =>
    fetch(`${server.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body,
    });

  test("refuses a rebinding Host and Origin on /mcp, the REST routes and /health with 403", async () => {
    const evil = { host: "evil.example.com", origin: "http://evil.example.com" };
    for (const [path, body] of [
      ["/mcp", INITIALIZE],
      ["/add_memories", JSON.stringify({ user_id: "u", memory: "x" })],
      ["/v1/list_memories?user_id=u", undefined],
      ["/health", undefined],
    ] as const) {
      const r = await call(path, evil, body);
      expect([path, r.status, await r.json()]).toEqual([path, 403, FORBIDDEN_HOST("evil.example.com")]);
    }
    expect((await call("/list_memories?user_id=u", {})).status).toBe(200);
  });

  test("accepts localhost, 127.0.0.1 and [::1] on any port, with or without a loopback Origin", async () => {
    for (const host of ["localhost", "localhost:1234", "127.0.0.1:9", "[::1]", "[::1]:3000", "LOCALHOST:80"]) {
      const r = await call("/mcp", { host, origin: `http://${host}` }, INITIALIZE);
      expect([host, r.status]).toEqual([host, 200]);
    }
    expect((await call("/health", { origin: "http://localhost:5173" })).status).toBe(200);
    expect((await call("/health", { origin: "https://127.0.0.1" })).status).toBe(200);
  });

  test("refuses a foreign Origin even with a loopback Host, and the opaque origin null", async () => {
    const r = await call(
      "/add_memories",
      { origin: "http://evil.example.com" },
      JSON.stringify({ user_id: "u", memory: "x" }),
    );
    expect([r.status, await r.json()]).toEqual([403, FORBIDDEN_ORIGIN("http://evil.example.com")]);
    expect((await call("/health", { origin: "null" })).status).toBe(403);
    expect(((await (await call("/list_memories?user_id=u", {})).json()) as any).total).toBe(0);
  });
});

describe("the host and origin lists", () => {
  const status = async (options: object, url: string, headers: Record<string, string> = {}) => {
    const t = await buildTestApp({ options });
    try {
      return (await t.raw(new Request(url, { headers }))).status;
    } finally {
      await t.close();
    }
  };

  test("--allowed-hosts adds names (any port) and host:port pairs (that port only)", async () => {
    const options = { allowedHosts: ["memory.internal", "db:8080"] };
    expect(await status(options, "http://memory.internal:3000/health")).toBe(200);
    expect(await status(options, "http://db:8080/health")).toBe(200);
    expect(await status(options, "http://db:9090/health")).toBe(403);
    expect(await status(options, "http://other.internal/health")).toBe(403);
    expect(await status({}, "http://memory.internal/health")).toBe(403);
  });

  test("a non-loopback bind accepts its own address; a wildcard bind any Host unless hosts are listed", async () => {
    const remote = { allowRemoteUnauthenticated: true };
    expect(await status({ ...remote, host: "10.1.2.3" }, "http://10.1.2.3:3000/health")).toBe(200);
    expect(await status({ ...remote, host: "10.1.2.3" }, "http://10.9.9.9:3000/health")).toBe(403);
    expect(await status({ ...remote, host: "0.0.0.0" }, "http://anything.example:3000/health")).toBe(200);
    const listed = { ...remote, host: "0.0.0.0", allowedHosts: ["mem.example"] };
    expect(await status(listed, "http://mem.example/health")).toBe(200);
    expect(await status(listed, "http://anything.example/health")).toBe(403);
    expect(await status(listed, "http://localhost:3000/health")).toBe(200);
  });

  test("the lists come from flags and the environment", () => {
    const c = loadConfig({
      argv: ["--allowed-hosts=mem.example,db:8080", "--allowed-origins=https://app.example:*"],
      env: {},
    });
    expect([c.allowedHosts, c.allowedOrigins]).toEqual([["mem.example", "db:8080"], ["https://app.example:*"]]);
    const e = loadConfig({ env: { ENGRAM_ALLOWED_HOSTS: "a.example", ENGRAM_ALLOWED_ORIGINS: "http://b.example" } });
    expect([e.allowedHosts, e.allowedOrigins]).toEqual([["a.example"], ["http://b.example"]]);
  });

  test("--allowed-hosts=* accepts any Host", async () => {
    expect(await status({ allowedHosts: ["*"] }, "http://whatever.example/health")).toBe(200);
  });

  test("Origins: --allowed-origins and the CORS origins are accepted, and so is the server's own origin", async () => {
    const origin = (o: string) => ({ origin: o });
    expect(
      await status(
        { allowedOrigins: ["https://app.example"] },
        "http://localhost/health",
        origin("https://app.example"),
      ),
    ).toBe(200);
    expect(
      await status(
        { allowedOrigins: ["https://app.example:*"] },
        "http://localhost/health",
        origin("https://app.example:8443"),
      ),
    ).toBe(200);
    expect(
      await status(
        { cors: { origins: ["http://ui.example"] } },
        "http://localhost/health",
        origin("http://ui.example"),
      ),
    ).toBe(200);
    expect(
      await status({ allowedHosts: ["mem.example"] }, "http://mem.example/health", origin("http://mem.example")),
    ).toBe(200);
    expect(
      await status({ allowedHosts: ["mem.example"] }, "http://mem.example/health", origin("http://other.example")),
    ).toBe(403);
    expect(await status({}, "http://localhost/health", origin("https://app.example"))).toBe(403);
  });
});
