// `engram serve` listens before the embedding model has loaded (startServer with background):
// /health answers at once and says "loading"; searches and writes wait for the model instead of
// silently running keyword-only; a model that fails to prepare leaves /health degraded with the reason.
import { afterEach, describe, expect, test } from "bun:test";
import { loadConfig } from "~/config/load-config";
import { buildServices, startServer, type RunningServer } from "~/main";
import { createApp } from "~/app";
import { silentLogger } from "~/shared/logger";
import type { Embedder } from "~/search/embedder";
import { TransformersEmbedder } from "~/search/transformers-embedder";
import { LetterEmbedder } from "../support/embedders";

/** LetterEmbedder whose load finishes only when the test says so. */
class GatedEmbedder extends LetterEmbedder {
  open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  override ready() {
    return this.gate;
  }
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const start = (embedder: Embedder) =>
  startServer(
    loadConfig({
      options: { storeUrl: "sqlite::memory:", port: 0, host: "127.0.0.1" },
      env: { HOME: process.env.HOME },
    }),
    {
      logger: silentLogger(),
      embedder,
      background: true,
    },
  );
const health = async () => (await fetch(`${server!.url}/health`)).json() as Promise<any>;
const post = (path: string, body: unknown) =>
  fetch(`${server!.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<any>);

describe("a server started in the background", () => {
  test("answers /health at once while the model loads, then says ready", async () => {
    const embedder = new GatedEmbedder();
    server = await start(embedder);
    expect(await health()).toMatchObject({ status: "ok", search: { mode: "hybrid", state: "loading" } });
    embedder.open();
    await server.ready;
    expect(await health()).toMatchObject({ status: "ok", search: { state: "ready" } });
  });

  test("a write sent while the model loads waits for it and is stored with its vector", async () => {
    // The app without startServer: nothing else (no background re-embedding) could add the vector later,
    // so a write that did not wait would be stored without one and "zbr" would find nothing.
    const embedder = new GatedEmbedder();
    const config = loadConfig({ options: { storeUrl: "sqlite::memory:" }, env: { HOME: process.env.HOME } });
    const services = await buildServices(config, { logger: silentLogger(), embedder, background: true });
    try {
      const { handle } = createApp(services);
      const call = (path: string, body: unknown) =>
        handle(
          new Request(`http://localhost${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        ).then((r) => r.json() as Promise<any>);
      const added = call("/add_memories", { user_id: "u", memory: "zebra" });
      expect(services.search.status().semantic).toBe("loading");
      embedder.open();
      expect((await added).success).toBe(true);
      expect(embedder.calls).toBe(1); // embedded as it was stored
      // "zbr" shares no word with "zebra": only the vector ranking can find it.
      const found = await call("/search_memory", { user_id: "u", query: "zbr" });
      expect(found.results.map((r: { memory: string }) => r.memory)).toEqual(["zebra"]);
    } finally {
      await services.close();
    }
  });

  test("a model that cannot be prepared leaves /health degraded, with the reason", async () => {
    const embedder = new TransformersEmbedder({
      modelId: "engram/glove-sif",
      modelsDir: "/nonexistent-models",
      allowRemote: false,
      prepare: () => Promise.reject(new Error("could not unpack the built-in model: disk full")),
    });
    server = await start(embedder);
    await server.ready;
    expect(await health()).toMatchObject({
      status: "degraded",
      search: { mode: "keyword", state: "failed", error: "could not unpack the built-in model: disk full" },
    });
  });
});
