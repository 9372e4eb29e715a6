// Rate limits over HTTP (SPEC §8): 429 RATE_LIMITED with Retry-After per key, failed authentications
// throttled per client address, and one count for every process serving a store file.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../support/app";
import { spawnServer, tempDir, type ServerProcess } from "../support/server-process";
import { loadConfig } from "~/config/load-config";
import { startServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { EVERY_ROW } from "~/shared/store-scope";

const SHARED = { authorization: "Bearer shared" };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

let apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps) await a.close();
  apps = [];
});
const app = async (rateLimit: Record<string, string>) => {
  const t = await buildTestApp({ options: { auth: { enabled: true, apiKey: "shared" }, rateLimit } });
  apps.push(t);
  return t;
};

describe("requests per key", () => {
  test("the request past the limit is 429 with Retry-After; another key has its own count", async () => {
    const t = await app({ requests: "3/h" });
    const member = await t.post("/admin/keys", { role: "member", user_id: "ana" }, SHARED);
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await t.get("/list_memories?user_id=ana", SHARED)).status);
    expect(statuses).toEqual([200, 200]);
    const over = await t.get("/list_memories?user_id=ana", SHARED);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      success: false,
      error: expect.stringMatching(/^rate limit of 3\/h exceeded; retry in \d+ s$/),
      code: "RATE_LIMITED",
    });
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 7200).toBe(true);
    expect(over.body.error).toBe(`rate limit of 3/h exceeded; retry in ${retryAfter} s`);
    expect((await t.get("/list_memories", bearer(member.body.key))).status).toBe(200);
  });

  test("/health is never limited", async () => {
    const t = await app({ requests: "1/h" });
    for (let i = 0; i < 3; i++) expect((await t.get("/health")).status).toBe(200);
  });
});

describe("failed authentications", () => {
  test("past the limit, the address gets 429 even with a good key, and no key is checked", async () => {
    const t = await app({ authFailures: "2/h" });
    expect((await t.get("/list_memories?user_id=ana", bearer("wrong-1"))).status).toBe(401);
    expect((await t.get("/list_memories?user_id=ana", bearer("egk_0000000000000000_" + "0".repeat(64)))).status).toBe(
      401,
    );
    const blocked = await t.get("/list_memories?user_id=ana", SHARED);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe("RATE_LIMITED");
    expect(blocked.body.error).toStartWith("too many failed authentications from this address; retry in ");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  test("over a real listener, the count is the client address's", async () => {
    const config = loadConfig({
      options: {
        storeUrl: "sqlite::memory:",
        port: 0,
        auth: { enabled: true, apiKey: "shared" },
        rateLimit: { authFailures: "1/h" },
      },
      env: { HOME: process.env.HOME },
    });
    const server = await startServer(config, { logger: silentLogger(), embedder: null });
    try {
      const get = async (key: string) =>
        (await fetch(`${server.url}/list_memories?user_id=ana`, { headers: bearer(key) })).status;
      expect(await get("wrong")).toBe(401);
      expect(await get("shared")).toBe(429);
      const rows = await server.services.store.read(
        (r) => r.rateLimits.peek("authfail:127.0.0.1", Date.now() - (Date.now() % 3_600_000), 3_600_000),
        EVERY_ROW,
      );
      expect(rows.current + rows.previous).toBe(1);
    } finally {
      await server.stop();
    }
  });

  test("successes do not count", async () => {
    const t = await app({ authFailures: "1/h" });
    for (let i = 0; i < 3; i++) expect((await t.get("/list_memories?user_id=ana", SHARED)).status).toBe(200);
  });
});

describe("settings", () => {
  const env = { HOME: "/tmp" };
  test("off on a loopback bind, 600/m and 30/m otherwise", () => {
    expect(loadConfig({ env }).rateLimit).toEqual({ requests: "off", authFailures: "off" });
    const remote = loadConfig({ env, argv: ["--host=0.0.0.0", "--auth", "--api-key=k"] });
    expect(remote.rateLimit).toEqual({ requests: "600/m", authFailures: "30/m" });
    expect(loadConfig({ env: { ...env, ENGRAM_RATE_LIMIT: "10/s" } }).rateLimit.requests).toBe("10/s");
  });

  test("anything but <count>/<s|m|h> or off is refused at start", () => {
    expect(() => loadConfig({ env, argv: ["--rate-limit=600/min"] })).toThrow(
      "ENGRAM_RATE_LIMIT: '600/min' is not a rate; use <count>/<s|m|h> such as 600/m, or off",
    );
    expect(() => loadConfig({ env: { ...env, ENGRAM_AUTH_FAILURE_LIMIT: "0/m" } })).toThrow(
      "ENGRAM_AUTH_FAILURE_LIMIT: '0/m' is not a rate",
    );
  });
});

describe("two processes on one store file", () => {
  const servers: ServerProcess[] = [];
  let dir = "";
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.proc.kill();
      await s.proc.exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("share one count", async () => {
    dir = tempDir();
    const args = [
      `--store-url=${join(dir, "shared.db")}`,
      "--embedding-model=none",
      "--auth",
      "--api-key=shared",
      "--rate-limit=4/h",
      "--search-workers=0",
    ];
    servers.push(await spawnServer(args));
    servers.push(await spawnServer(args));
    const statuses = [];
    for (let i = 0; i < 3; i++)
      for (const s of servers)
        statuses.push((await fetch(`${s.url}/list_memories?user_id=ana`, { headers: SHARED })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  }, 60_000);
});
