// buildTestApp: a fresh store and the real app, driven through app.handle(Request). The store is an
// in-memory SQLite one, or with ENGRAM_TEST_STORE=postgres a fresh schema of the run's throwaway PostgreSQL
// (test/support/postgres.ts) — the same suites then run on both engines (scripts/ci/postgres.sh).
import { loadConfig, type ServerOptions } from "~/config/load-config";
import { buildServices, type Engine } from "~/main";
import { createApp } from "~/app";
import { FakeClock } from "~/shared/clock";
import { silentLogger } from "~/shared/logger";
import type { Embedder } from "~/search/embedder";
import type { SearchTuning } from "~/search/search.service";
import { freshSchema, type TestSchema } from "./postgres";

/** The engine the suites run on: ENGRAM_TEST_STORE=postgres, else SQLite. */
export const TEST_STORE: "sqlite" | "postgres" = process.env.ENGRAM_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/** For a test that cannot run on PostgreSQL: `test.skipIf(sqliteOnly("reads the SQLite file"))(…)`; prints why. */
export function sqliteOnly(reason: string): boolean {
  if (TEST_STORE === "sqlite") return false;
  console.log(`skipped on postgres: ${reason}`);
  return true;
}

/** Store settings for a fresh test store of the engine under test, and how to drop it afterwards. */
export async function testStoreOptions(): Promise<{ options: ServerOptions; schema: TestSchema | null }> {
  if (TEST_STORE === "sqlite") return { options: { storeUrl: "sqlite::memory:" }, schema: null };
  const schema = await freshSchema("app");
  return { options: { storeUrl: schema.url, storeMigrationUrl: schema.migrationUrl, storePoolSize: 2 }, schema };
}

export interface TestApp {
  services: Engine;
  clock: FakeClock;
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  post(
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  raw(req: Request): Promise<Response>;
  /** The app's route table (method, path, hooks), as Elysia registered it. */
  routes: readonly { method: string; path: string; hooks?: { detail?: unknown } }[];
  close(): Promise<void>;
}

export async function buildTestApp(
  opts: {
    options?: ServerOptions;
    embedder?: Embedder | null;
    env?: Record<string, string>;
    searchTuning?: SearchTuning;
    /** Resolve before the model has loaded (BuildOptions.background). */
    background?: boolean;
  } = {},
): Promise<TestApp> {
  const store = await testStoreOptions();
  const config = loadConfig({
    options: { ...store.options, ...opts.options },
    env: { HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, ...opts.env },
  });
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  const services = await buildServices(config, {
    clock,
    logger: silentLogger(),
    embedder: opts.embedder === undefined ? null : opts.embedder,
    searchTuning: opts.searchTuning,
    background: opts.background,
  });
  const { app, handle: raw, close: closeApp } = createApp(services);
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
    const res = await raw(new Request(`http://localhost${path}`, init));
    // An event stream (OpenMemory's SSE URL) does not end on its own: read it through raw().
    if (res.headers.get("content-type") === "text/event-stream") {
      await res.body?.cancel();
      return { status: res.status, body: null, headers: res.headers };
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    services,
    clock,
    raw,
    routes: app.routes,
    request,
    get: (path, headers) => request("GET", path, undefined, headers),
    post: (path, body, headers) => request("POST", path, body, headers),
    close: async () => {
      await closeApp();
      await services.close();
      await store.schema?.drop();
    },
  };
}
