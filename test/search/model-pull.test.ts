// `engram models pull` against a local server playing the model hub (ENGRAM_MODEL_HUB): int8 weights when
// the hub has them, resume after a broken connection, clear failures, and a model that then loads.
import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isPulled, pullModel, type PullProgress } from "~/search/model/pull";
import { TransformersEmbedder } from "~/search/transformers-embedder";
import { startTestHub, TINY_DIMENSIONS, type TestHub } from "../support/model-hub";

const ID = "test-org/tiny-bert";
let modelsDir: string;
let hub: TestHub;

beforeEach(() => {
  modelsDir = mkdtempSync(join(tmpdir(), "engram-pull-"));
});
afterEach(async () => {
  await hub?.stop();
  rmSync(modelsDir, { recursive: true, force: true });
});

describe("pullModel", () => {
  test("downloads the int8 weights when the hub has them, and the model then loads offline", async () => {
    hub = await startTestHub(ID, { quantized: true });
    const seen: PullProgress[] = [];
    const pulled = await pullModel({ id: ID, modelsDir, hub: hub.url, onProgress: (p) => seen.push(p) });
    expect(pulled).toEqual({ folder: join(modelsDir, ID), quantized: true });
    expect(existsSync(join(pulled.folder, "onnx", "model_quantized.onnx"))).toBe(true);
    expect(existsSync(join(pulled.folder, "onnx", "model.onnx"))).toBe(false);
    expect(hub.requests.map((r) => r.path.split("/resolve/main/")[1])).toEqual([
      "config.json",
      "tokenizer_config.json",
      "tokenizer.json",
      "onnx/model_quantized.onnx",
    ]);
    const last = seen.filter((p) => p.file === "onnx/model_quantized.onnx").at(-1)!;
    expect(last.received).toBe(hub.files.get("onnx/model_quantized.onnx")!.length);
    expect(last.total).toBe(last.received);
    const embedder = new TransformersEmbedder({ modelId: ID, modelsDir, allowRemote: false });
    try {
      const [dog, puppy, coffee] = (await embedder.embed(["dog", "puppy", "coffee"])) as Float32Array[];
      expect(embedder.dimensions).toBe(TINY_DIMENSIONS);
      const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
      expect(dot(dog!, puppy!)).toBeGreaterThan(dot(dog!, coffee!));
    } finally {
      await embedder.close();
    }
  });

  test("takes the full-precision weights when the hub has no quantized file", async () => {
    hub = await startTestHub(ID);
    expect(await pullModel({ id: ID, modelsDir, hub: hub.url })).toEqual({
      folder: join(modelsDir, ID),
      quantized: false,
    });
    expect(existsSync(join(modelsDir, ID, "onnx", "model.onnx"))).toBe(true);
  });

  test("resumes a broken download with a Range request from where it stopped", async () => {
    hub = await startTestHub(ID, { padWords: 100_000 });
    const weights = hub.files.get("onnx/model.onnx")!;
    const half = Math.floor(weights.length / 2);
    hub.cutOnce("onnx/model.onnx", half);
    await expect(pullModel({ id: ID, modelsDir, hub: hub.url })).rejects.toThrow();
    expect(isPulled(modelsDir, ID)).toBe(false);
    // What arrived before the break is kept (how much of the half did arrive depends on the socket).
    const kept = statSync(join(modelsDir, ".downloads", ID, "onnx", "model.onnx.part")).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(half);
    const before = hub.requests.length;
    await pullModel({ id: ID, modelsDir, hub: hub.url });
    // Finished files are not asked for again; the weights continue at the byte where they stopped.
    expect(hub.requests.slice(before)).toEqual([
      { path: `/${ID}/resolve/main/onnx/model_quantized.onnx`, range: null },
      { path: `/${ID}/resolve/main/onnx/model.onnx`, range: `bytes=${kept}-` },
    ]);
    expect(Buffer.compare(readFileSync(join(modelsDir, ID, "onnx", "model.onnx")), weights)).toBe(0);
    expect(existsSync(join(modelsDir, ".downloads", ID))).toBe(false);
  });

  test("names the model and the hub when the hub does not have it", async () => {
    hub = await startTestHub(ID);
    await expect(pullModel({ id: "test-org/absent", modelsDir, hub: hub.url })).rejects.toThrow(
      `model test-org/absent was not found at ${hub.url} (config.json: 404)`,
    );
    expect(isPulled(modelsDir, "test-org/absent")).toBe(false);
  });

  test("fails without a network, leaving nothing that looks like a model", async () => {
    hub = await startTestHub(ID);
    hub.offline = true;
    await expect(pullModel({ id: ID, modelsDir, hub: hub.url })).rejects.toThrow();
    expect(isPulled(modelsDir, ID)).toBe(false);
  });

  test("refuses ids that are not owner/name", async () => {
    for (const id of ["../etc", "a/../b", "just-a-name", "a/b/c", "/abs/path"])
      await expect(pullModel({ id, modelsDir, hub: "http://127.0.0.1:9" })).rejects.toThrow(
        `'${id}' is not a hub model id (owner/name)`,
      );
  });
});
