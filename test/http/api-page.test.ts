// The API page (/swagger): served with its assets by the server itself, public, hidden by --docs=off,
// and, in a real headless Chromium with every non-loopback request blocked, it lists every route.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../support/app";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = join(import.meta.dir, "..", "..", "docs", "api-page.png");

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ options: { auth: { enabled: true, apiKey: "k1" } } });
});
afterAll(() => t.close());

describe("GET /swagger", () => {
  test("answers the page, whose scripts and styles come from this server, under a same-origin CSP", async () => {
    const page = await t.get("/swagger");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'; script-src 'self'");
    const refs = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual([
      "/swagger/assets/swagger-ui.css",
      "/swagger/assets/LICENSE",
      "/swagger/assets/NOTICE",
      "/swagger/assets/swagger-ui-bundle.js",
      "/swagger/assets/init.js",
    ]);
    for (const ref of refs) expect((await t.get(ref!)).status).toBe(200);
    expect((await t.get("/swagger/assets/init.js")).body).toContain('url: "/swagger/json"');
  });

  test("an unknown asset is 404 NOT_FOUND", async () => {
    expect((await t.get("/swagger/assets/nope.js")).body).toEqual({
      success: false,
      error: "asset 'nope.js' not found",
      code: "NOT_FOUND",
    });
  });

  test("the page and the document need no key when auth is on (they hold no data); other routes still do", async () => {
    expect((await t.get("/swagger")).status).toBe(200);
    expect((await t.get("/swagger/json")).status).toBe(200);
    expect((await t.get("/v1/swagger")).status).toBe(401);
    expect((await t.get("/metrics")).status).toBe(401);
  });

  test("--docs=off: the page, its assets and the document are 404 NOT_FOUND, and need a key like any route", async () => {
    const off = await buildTestApp({ options: { docs: false } });
    try {
      for (const path of ["/swagger", "/swagger/json", "/swagger/assets/swagger-ui-bundle.js"])
        expect((await off.get(path)).body).toEqual({ success: false, error: "no such route", code: "NOT_FOUND" });
    } finally {
      await off.close();
    }
    const offWithAuth = await buildTestApp({ options: { docs: false, auth: { enabled: true, apiKey: "k" } } });
    try {
      expect((await offWithAuth.get("/swagger")).status).toBe(401);
    } finally {
      await offWithAuth.close();
    }
  });
});

const hasChromium = existsSync(CHROMIUM);
const browser = hasChromium
  ? `the API page in headless Chromium (${CHROMIUM})`
  : `skipped: ${CHROMIUM} is absent (apt-get install chromium; scripts/ci/interfaces.sh does)`;
describe.skipIf(!hasChromium)(browser, () => {
  let server: RunningServer;
  beforeAll(async () => {
    const options = { storeUrl: "sqlite::memory:", port: 0, auth: { enabled: true, apiKey: "k1" } };
    server = await startServer(loadConfig({ options, env: {} }), { logger: silentLogger(), embedder: null });
  });
  afterAll(() => server.stop());

  test("renders every operation of the document with no request leaving the machine", async () => {
    const { chromium } = await import("playwright-core");
    const profile = mkdtempSync(join(tmpdir(), "engram-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
    const blocked: string[] = [];
    try {
      await context.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return route.continue();
        blocked.push(url.href);
        return route.abort();
      });
      const page = await context.newPage();
      await page.goto(`${server.url}/swagger`);
      await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 });
      const shown = await page.$$eval(".opblock", (blocks) =>
        blocks.map(
          (b) =>
            `${b.querySelector(".opblock-summary-method")?.textContent} ${b.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`,
        ),
      );
      const doc = (await (await fetch(`${server.url}/swagger/json`)).json()) as { paths: Record<string, object> };
      const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      );
      expect(shown.sort()).toEqual(documented.sort());
      expect(blocked).toEqual([]);
      if (process.env.ENGRAM_UPDATE_SCREENSHOT) await page.screenshot({ path: SCREENSHOT });
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 90_000);
});
