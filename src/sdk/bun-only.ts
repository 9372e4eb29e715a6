// createEngram and createServer where Bun is not: both run Engram in-process over bun:sqlite, so
// the package's Node and browser build carries these stand-ins, typed like the real ones
// (test/sdk/package-types.ts checks that), which say what to do instead.
import type { ServerOptions } from "~/config/config.schema";
import type { EngramClient } from "./client";

const bunOnly = (name: string) =>
  new Error(
    `${name} runs Engram in-process and needs Bun (it uses bun:sqlite); in Node or a browser, ` +
      "run `engram serve` and connect with createClient({ baseUrl })",
  );

/**
 * The SDK in-process: the server's own services over a store file, no HTTP (`storeUrl` as for
 * `engram serve`; default in memory). **Bun only**: in Node and browsers it throws — use
 * `createClient({ baseUrl })` against `engram serve` there.
 */
export async function createEngram(_options?: ServerOptions): Promise<EngramClient> {
  throw bunOnly("createEngram");
}

/**
 * Starts the HTTP server in this process and answers `{url, port, stop()}`. **Bun only**: in Node
 * and browsers it throws — run the `engram serve` command instead.
 */
export async function createServer(
  _options?: ServerOptions,
): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  throw bunOnly("createServer");
}
