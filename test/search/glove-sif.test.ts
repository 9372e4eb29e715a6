import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtinModelDir, testModelsDir } from "../support/preload.ts";
import { ensureBuiltinModel, GLOVE_SIF_MODEL_ID, readValidManifest } from "~/search/model/build-glove-sif.ts";
import { TransformersEmbedder } from "~/search/transformers-embedder.ts";
import { DISTRACTORS, LOCOMO_LIKE, PARAPHRASE_PAIRS, type ParaphrasePair } from "./fixtures/paraphrase-eval.ts";

let embedder: TransformersEmbedder;

beforeAll(async () => {
  embedder = new TransformersEmbedder({ modelId: GLOVE_SIF_MODEL_ID, modelsDir: testModelsDir, allowRemote: false });
  await embedder.ready();
});

afterAll(() => embedder.close());

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

/** Rank (0 = best) of each pair's memory among all memories, for the pair's query. */
async function ranks(pairs: readonly ParaphrasePair[], distractors: readonly string[]): Promise<number[]> {
  const docs = await embedder.embed([...pairs.map((p) => p.memory), ...distractors]);
  const queries = await embedder.embed(pairs.map((p) => p.query));
  return queries.map((q, k) => {
    const scores = docs.map((d) => dot(d!, q!));
    return scores.filter((s) => s > scores[k]!).length;
  });
}

const hitAt = (r: number[], k: number) => r.filter((x) => x < k).length / r.length;

describe("the built-in engram/glove-sif model", () => {
  test("lives in the models folder under its id, with a valid manifest", () => {
    expect(builtinModelDir).toBe(join(testModelsDir, "engram", "glove-sif"));
    const manifest = readValidManifest(builtinModelDir);
    expect(manifest?.id).toBe("engram/glove-sif");
    expect(manifest?.dimensions).toBe(100);
    expect(manifest?.vocabularySize).toBe(75_005);
    expect(manifest?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test("gives 100-dimensional unit-length vectors", async () => {
    expect(embedder.dimensions).toBe(100);
    const vectors = await embedder.embed(["I adopted a puppy last week", "The rent went up by two hundred dollars"]);
    for (const v of vectors) {
      expect(v!.length).toBe(100);
      expect(Math.abs(Math.hypot(...v!) - 1)).toBeLessThan(1e-6);
    }
  });

  test("is deterministic, alone or in a batch", async () => {
    const text = "My sister is getting married in June";
    const [a] = await embedder.embed([text]);
    const [, b] = await embedder.embed(["something else entirely", text]);
    expect([...a!]).toEqual([...b!]);
  });

  test("returns null for a text with no known word", async () => {
    expect(await embedder.embed(["zzqxv qqzzk", "", "?!"])).toEqual([null, null, null]);
  });

  test("ranks paraphrased memories first on the known-answer eval", async () => {
    // Measured 2026-11: hit@1 = 0.900, hit@3 = 0.967 (30 pairs, 60 memories).
    const r = await ranks(PARAPHRASE_PAIRS, DISTRACTORS);
    expect(hitAt(r, 1)).toBeGreaterThanOrEqual(0.8);
    expect(hitAt(r, 3)).toBeGreaterThanOrEqual(0.9);
  });

  test("finds the right memory for LoCoMo-style questions", async () => {
    // Measured: every question's memory ranks first among 66 memories.
    const others = [...DISTRACTORS, ...PARAPHRASE_PAIRS.map((p) => p.memory)];
    const r = await ranks(LOCOMO_LIKE, others);
    expect(hitAt(r, 3)).toBe(1);
    expect(hitAt(r, 1)).toBeGreaterThanOrEqual(5 / 6);
  });
});

describe("ensureBuiltinModel", () => {
  let modelsDir: string;
  beforeAll(() => {
    modelsDir = mkdtempSync(join(tmpdir(), "engram-models-"));
  });
  afterAll(() => rmSync(modelsDir, { recursive: true, force: true }));

  test("concurrent calls build once and agree on the folder", async () => {
    const [a, b] = await Promise.all([ensureBuiltinModel(modelsDir), ensureBuiltinModel(modelsDir)]);
    expect(a).toBe(join(modelsDir, "engram", "glove-sif"));
    expect(b).toBe(a);
    expect(readdirSync(join(modelsDir, "engram"))).toEqual(["glove-sif"]);
  });

  test("builds byte-identical models every time", () => {
    expect(readValidManifest(join(modelsDir, "engram", "glove-sif"))?.sha256).toBe(
      readValidManifest(builtinModelDir)!.sha256,
    );
  });

  test("replaces a corrupted copy and leaves no temporary folders behind", async () => {
    const dir = join(modelsDir, "engram", "glove-sif");
    writeFileSync(join(dir, "tokenizer.json"), "{}");
    expect(readValidManifest(dir)).toBeNull();
    expect(await ensureBuiltinModel(modelsDir)).toBe(dir);
    expect(readValidManifest(dir)?.sha256).toBe(readValidManifest(builtinModelDir)!.sha256);
    expect(readdirSync(join(modelsDir, "engram"))).toEqual(["glove-sif"]);
    expect(existsSync(join(dir, "onnx", "model.onnx"))).toBe(true);
  });
});
