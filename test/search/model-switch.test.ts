// SPEC §4: a server configured with a model that is not in the models folder serves at once with the
// built-in model, downloads the configured one in the background from the hub (here a local server that
// plays it, ENGRAM_MODEL_HUB, serving a small BERT-typed model it builds), shows the download in /health,
// then switches and re-embeds — a download never blocks a request or the MCP handshake.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { ModelSwitch, type DownloadStatus, type ModelSwitchOptions } from "~/search/model-switch";
import { TransformersEmbedder } from "~/search/transformers-embedder";
import { buildTestApp, type TestApp } from "../support/app";
import { startTestHub, type TestHub } from "../support/model-hub";
import { testModelsDir } from "../support/preload";
import { connect } from "../mcp/support";

const ID = "test-org/tiny-bert";
const WEIGHTS = "onnx/model_quantized.onnx";
let hub: TestHub | undefined;
let server: RunningServer | undefined;
let app: TestApp | undefined;
let dirs: string[] = [];

/** A switch to the hub's model, downloading into `dir`, for the test app's search. */
const switchIn = (dir: string, more: Partial<ModelSwitchOptions>) =>
  new ModelSwitch({
    id: ID,
    modelsDir: dir,
    hub: hub!.url,
    search: app!.services.search,
    load: () => new TransformersEmbedder({ modelId: ID, modelsDir: dir, allowRemote: false }),
    logger: silentLogger(),
    ...more,
  });

/** A models folder of its own, with the built-in model of the test cache linked in (not built again). */
function modelsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "engram-switch-"));
  dirs.push(dir);
  mkdirSync(join(dir, "engram"));
  symlinkSync(join(testModelsDir, "engram", "glove-sif"), join(dir, "engram", "glove-sif"), "dir");
  return dir;
}

afterEach(async () => {
  await server?.stop();
  await app?.close();
  await hub?.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  [server, app, hub] = [undefined, undefined, undefined];
});

const json = async (path: string, body?: unknown): Promise<any> =>
  (
    await fetch(`${server!.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  ).json();

describe("a model that is not there yet", () => {
  test("the server answers, searches and takes the MCP handshake while it downloads, then switches and re-embeds", async () => {
    hub = await startTestHub(ID, { quantized: true, padWords: 100_000 });
    const held = hub.hold(WEIGHTS);
    const config = loadConfig({
      options: { storeUrl: "sqlite::memory:", port: 0 },
      env: { HOME: process.env.HOME, EMBEDDING_MODEL: ID, ENGRAM_MODEL_HUB: hub.url, ENGRAM_MODELS_DIR: modelsDir() },
    });
    server = await startServer(config, { logger: silentLogger(), background: true });
    const models = server.services.models!;
    await held.halfway;
    const midway = await models.reached((s) => s.file === WEIGHTS && s.received > 0);
    expect(midway.total).toBe(hub.files.get(WEIGHTS)!.length);
    expect(midway.received).toBeLessThan(midway.total!);

    // Meanwhile: the built-in model serves, /health shows the download, MCP connects.
    await server.ready;
    const health = await json("/health");
    expect(health.status).toBe("ok");
    expect(health.search).toMatchObject({ model: "engram/glove-sif", state: "ready" });
    expect(health.search.download).toMatchObject({ model: ID, state: "downloading", file: WEIGHTS, attempts: 1 });
    expect(health.search.download.received).toBeGreaterThan(0);
    const added = await json("/add_memories", { user_id: "u", memory: "the dog sleeps" });
    expect(added.success).toBe(true);
    expect((await json("/search_memory", { user_id: "u", query: "dog" })).results).toHaveLength(1);
    const mcp = await connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
    await mcp.close();

    held.release();
    await models.start();
    await server.services.search.reembedMissing();
    const after = await json("/health");
    expect(after.status).toBe("ok");
    expect(after.search).toMatchObject({ model: ID, state: "ready" });
    expect(after.search.download).toMatchObject({ model: ID, state: "done", received: midway.total });
    // "puppy" shares no word with the memory: only the downloaded model's vectors (dog ≈ puppy) find it.
    const found = await json("/search_memory", { user_id: "u", query: "puppy" });
    expect(found.results.map((r: { memory: string }) => r.memory)).toEqual(["the dog sleeps"]);
  }, 60_000);

  test("a hub that does not answer is tried again until it does; /health says degraded meanwhile", async () => {
    hub = await startTestHub(ID, { quantized: true });
    hub.offline = true;
    app = await buildTestApp();
    const dir = modelsDir();
    const models = switchIn(dir, { retryMs: 1 });
    const done = models.start();
    const failed = await models.reached((s) => s.state === "retrying");
    expect(failed.error).toBeString();
    expect((await app.get("/health")).body).toMatchObject({
      status: "degraded",
      search: { download: { model: ID, state: "retrying", attempts: 1 } },
    });
    hub.offline = false;
    await done;
    expect(models.status).toMatchObject({ state: "done" });
    expect(models.status.attempts).toBeGreaterThan(1);
    expect((await app.get("/health")).body).toMatchObject({ status: "ok", search: { model: ID, state: "ready" } });
    await models.close();
  });

  test("a model the hub does not have fails once, named, and search stays on the model it had", async () => {
    hub = await startTestHub("test-org/other");
    app = await buildTestApp();
    const dir = modelsDir();
    const statuses: DownloadStatus[] = [];
    const models = switchIn(dir, { onStatus: (s) => statuses.push(s) });
    await models.start();
    expect(models.status).toMatchObject({ state: "failed", attempts: 1 });
    expect(models.status.error).toContain(`model ${ID} was not found at ${hub.url}`);
    expect((await app.get("/health")).body).toMatchObject({
      status: "degraded",
      search: { model: null, state: "off", download: { state: "failed" } },
    });
    expect(statuses.map((s) => s.state)).toEqual(["downloading", "failed"]);
  });
});
