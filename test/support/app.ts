// buildTestApp: a fresh in-memory store and the real app, driven through app.handle(Request).
import { loadConfig, type ServerOptions } from "~/config/load-config";
import { buildServices, type Engine } from "~/main";
import { createApp } from "~/app";
import { FakeClock } from "~/shared/clock";
import { silentLogger } from "~/shared/logger";
import type { Embedder } from "~/search/embedder";
import type { SearchTuning } from "~/search/search.service";

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
  } = {},
): Promise<TestApp> {
  const config = loadConfig({
    options: { storeUrl: "sqlite::memory:", ...opts.options },
    env: { HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, ...opts.env },
  });
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  const services = await buildServices(config, {
    clock,
    logger: silentLogger(),
    embedder: opts.embedder === undefined ? null : opts.embedder,
    searchTuning: opts.searchTuning,
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
    },
  };
}
