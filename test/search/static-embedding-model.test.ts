import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  staticModelFiles,
  writeStaticModel,
  type StaticEmbeddingTable,
} from "~/search/model/static-embedding-model.ts";
import { wordpieceVocab } from "~/search/model/wordpiece-tokenizer-json.ts";
import { TransformersEmbedder } from "~/search/transformers-embedder.ts";

// A 5-word model whose rows are easy to check by hand: row = int8 values × scale.
const WORD_ROWS: Record<string, [number, number, number]> = {
  cat: [2, 0, 0],
  dog: [0, 2, 0],
  fish: [0, 0, 2],
  bird: [2, 2, 0],
  tree: [0, -2, 2],
};

function tinyTable(): StaticEmbeddingTable {
  const words = Object.keys(WORD_ROWS);
  const vocab = wordpieceVocab(words);
  const rows = new Int8Array(vocab.length * 3);
  const scales = new Float32Array(vocab.length);
  words.forEach((word, i) => {
    rows.set(WORD_ROWS[word]!, (i + 5) * 3);
    scales[i + 5] = 0.25;
  });
  return { vocab, dimensions: 3, rows, scales };
}

const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

let modelsDir: string;
let embedder: TransformersEmbedder;

beforeAll(async () => {
  modelsDir = mkdtempSync(join(tmpdir(), "engram-tiny-model-"));
  writeStaticModel(join(modelsDir, "tiny", "static"), staticModelFiles(tinyTable(), "test"));
  embedder = new TransformersEmbedder({ modelId: "tiny/static", modelsDir, allowRemote: false });
  await embedder.ready();
});

afterAll(async () => {
  await embedder.close();
  rmSync(modelsDir, { recursive: true, force: true });
});

describe("a static-embedding model run by ONNX Runtime through transformers.js", () => {
  test("its vector length is the table width", () => {
    expect(embedder.dimensions).toBe(3);
  });

  test("one word returns its own row, normalised", async () => {
    const [cat, tree] = await embedder.embed(["cat", "tree"]);
    expect([...cat!]).toEqual([1, 0, 0]);
    expect([...tree!].map((x) => +x.toFixed(6))).toEqual(unit([0, -1, 1]).map((x) => +x.toFixed(6)));
  });

  test("a sentence is the normalised mean of its word rows, case and punctuation ignored", async () => {
    const [v] = await embedder.embed(["Cat, BIRD and fish!"]);
    const expected = unit([1 + 1, 1, 1]);
    expect([...v!].map((x) => +x.toFixed(6))).toEqual(expected.map((x) => +x.toFixed(6)));
  });

  test("texts with no known word, and empty texts, get null instead of NaN", async () => {
    expect(await embedder.embed(["zebra unicorn", "", "!!!"])).toEqual([null, null, null]);
  });

  test("a batch returns one result per text, in input order, equal to single calls", async () => {
    const texts = ["dog", "a much longer text about a bird and a tree and a cat", "nothing known", "fish"];
    const batch = await embedder.embed(texts);
    const singles = await Promise.all(texts.map(async (t) => (await embedder.embed([t]))[0]!));
    expect(batch.map((v) => (v ? [...v] : null))).toEqual(singles.map((v) => (v ? [...v] : null)));
    expect(batch[2]).toBeNull();
  });

  test("an empty list embeds to an empty list", async () => {
    expect(await embedder.embed([])).toEqual([]);
  });
});

describe("loading a model that is not there", () => {
  test("an id missing from the models folder is refused when remote download is disabled", async () => {
    const missing = new TransformersEmbedder({ modelId: "nobody/nothing", modelsDir, allowRemote: false });
    await expect(missing.ready()).rejects.toThrow(
      `model nobody/nothing not found in ${modelsDir} and remote download is disabled`,
    );
  });

  test("a folder path without config.json is refused", async () => {
    const missing = new TransformersEmbedder({ modelId: join(modelsDir, "absent"), modelsDir, allowRemote: true });
    await expect(missing.ready()).rejects.toThrow(`model folder ${join(modelsDir, "absent")} has no config.json`);
  });

  test("a model folder can also be given as a path", async () => {
    const byPath = new TransformersEmbedder({
      modelId: join(modelsDir, "tiny", "static"),
      modelsDir: "/nonexistent",
      allowRemote: false,
    });
    const [v] = await byPath.embed(["dog"]);
    expect([...v!]).toEqual([0, 1, 0]);
    await byPath.close();
  });
});

describe("the model files", () => {
  test("the same table always produces the same bytes", () => {
    const a = staticModelFiles(tinyTable(), "test");
    const b = staticModelFiles(tinyTable(), "test");
    expect(Buffer.from(a["onnx/model.onnx"]).equals(Buffer.from(b["onnx/model.onnx"]))).toBe(true);
    expect(a["tokenizer.json"]).toBe(b["tokenizer.json"]);
  });

  test("the config declares a BERT model without layers", () => {
    const config = JSON.parse(staticModelFiles(tinyTable(), "test")["config.json"]);
    expect(config.model_type).toBe("bert");
    expect(config.num_hidden_layers).toBe(0);
    expect(config.hidden_size).toBe(3);
  });

  test("the tokenizer puts the special tokens first and the words after them", () => {
    const tokenizer = JSON.parse(staticModelFiles(tinyTable(), "test")["tokenizer.json"]);
    expect(tokenizer.model.vocab).toEqual({
      "[PAD]": 0,
      "[UNK]": 1,
      "[CLS]": 2,
      "[SEP]": 3,
      "[MASK]": 4,
      cat: 5,
      dog: 6,
      fish: 7,
      bird: 8,
      tree: 9,
    });
    expect(tokenizer.normalizer).toEqual({
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    });
    expect(tokenizer.pre_tokenizer).toEqual({ type: "BertPreTokenizer" });
  });

  test("a vocabulary with a duplicate token is refused", () => {
    expect(() => wordpieceVocab(["cat", "cat"])).toThrow("tokenizer vocabulary has duplicate tokens");
  });
});
