// `engram serve` listens before the embedding model has loaded (startServer with background):
// /health answers at once and says "loading"; searches and writes wait for the model instead of
// silently running keyword-only; a model that fails to prepare leaves /health degraded with the reason.
import { afterEach, describe, expect, test } from "bun:test";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
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
  test("answers /health while the model loads, and searches wait for the model", async () => {
    const embedder = new GatedEmbedder();
    server = await start(embedder);
    expect(await health()).toMatchObject({ status: "ok", search: { mode: "hybrid", state: "loading" } });

    let settled = false;
    const added = post("/add_memories", { user_id: "u", memory: "zebra" }).finally(() => (settled = true));
    await Bun.sleep(30);
    expect(settled).toBe(false); // waiting for the model, not stored without a vector
    expect((await health()).search.state).toBe("loading");

    embedder.open();
    await server.ready;
    expect(await health()).toMatchObject({ status: "ok", search: { state: "ready" } });
    await added;
    expect(embedder.calls).toBeGreaterThan(0); // the memory was embedded
    // "zbr" shares no word with "zebra": only the vector ranking can find it.
    const found = await post("/search_memory", { user_id: "u", query: "zbr" });
    expect(found.results.map((r: { memory: string }) => r.memory)).toEqual(["zebra"]);
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
