// Local embeddings through transformers.js (ONNX Runtime): the built-in engram/glove-sif model or
// any feature-extraction model in ENGRAM_MODELS_DIR. The only importer of @huggingface/transformers.
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { FeatureExtractionPipeline, PreTrainedTokenizer, Tensor } from "@huggingface/transformers";
import { normalise, type Embedder } from "~/search/embedder.ts";
import { prepareOnnxRuntime } from "./onnx-runtime";
import { type TokenizerFacts, wordPieceTokenizer, type WordPieceTokenizer } from "./wordpiece-tokenizer";

export interface TransformersEmbedderOptions {
  /** A model id looked up under `modelsDir` (e.g. "engram/glove-sif", "Xenova/all-MiniLM-L6-v2"), or a folder path. */
  modelId: string;
  /** Where local models live, and where remote ones are downloaded to. */
  modelsDir: string;
  /** Whether a model missing from `modelsDir` may be downloaded from the Hugging Face Hub. */
  allowRemote: boolean;
  /** Where the compiled binary unpacks the ONNX Runtime native files (default: beside modelsDir). */
  nativeCacheDir?: string;
  /**
   * Runs first in every load attempt, e.g. building or unpacking the built-in model: so it is part
   * of the load a server does while it already listens, and its failure is the load's error.
   */
  prepare?: () => Promise<unknown>;
}

/** Texts per ONNX run, and a cap on padded characters per run so one long memory does not pad a whole batch. */
const MAX_BATCH = 64;
const MAX_BATCH_CHARS = 64 * 1024;

/**
 * The load is CPU-bound on the calling thread (~100 ms for the built-in model): between its steps,
 * requests that came in meanwhile (a server's health probe) are answered.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const isFolderPath = (id: string) => isAbsolute(id) || id.startsWith("./") || id.startsWith("../");

/** Picks the file transformers.js should load: fp32 `model.onnx` when present, else the int8 `model_quantized.onnx`. */
function localDtype(folder: string): "fp32" | "q8" {
  return !existsSync(join(folder, "onnx", "model.onnx")) && existsSync(join(folder, "onnx", "model_quantized.onnx"))
    ? "q8"
    : "fp32";
}

/**
 * A model without layers (like the built-in one) is a table lookup: ORT's thread pool only adds
 * spinning threads to it. Transformer models keep ORT's default of one thread per core.
 */
function sessionOptions(folder: string | undefined): Record<string, unknown> {
  const options = { logSeverityLevel: 3 };
  if (!folder) return options;
  try {
    const config = JSON.parse(readFileSync(join(folder, "config.json"), "utf8")) as { num_hidden_layers?: number };
    return config.num_hidden_layers === 0 ? { ...options, intraOpNumThreads: 1, interOpNumThreads: 1 } : options;
  } catch {
    return options;
  }
}

/**
 * transformers.js imports sharp (images) at load, and sharp's native module is the most fragile part of
 * an install: where it fails (no build for the platform, another platform's packages) text embeddings
 * failed with it. Engram embeds text only; like the binary (scripts/build-plugin.ts), source runs get a
 * stand-in that refuses images.
 */
let sharpReplaced = false;
function withoutSharp(): void {
  if (sharpReplaced) return;
  sharpReplaced = true;
  Bun.plugin({
    name: "engram-no-sharp",
    setup(build) {
      const sharp = () => {
        throw new Error("image input is not supported");
      };
      build.module("sharp", () => ({ exports: { default: sharp }, loader: "object" }));
    },
  });
}

export class TransformersEmbedder implements Embedder {
  readonly modelId: string;
  dimensions = 0;
  private readonly options: TransformersEmbedderOptions;
  private extractor: FeatureExtractionPipeline | undefined;
  private loading: Promise<void> | undefined;
  /** Our WordPiece tokenizer when the model's tokenizer.json is plain BERT WordPiece, else transformers.js's. */
  private tokenize: ((texts: string[]) => Record<string, Tensor>) | undefined;
  /** Why the model keeps transformers.js's tokenizer (undefined when ours runs, or before the load). */
  tokenizerFallback: string | undefined;

  constructor(options: TransformersEmbedderOptions) {
    this.options = options;
    this.modelId = options.modelId;
  }

  /** Loads once; a failed load is forgotten so a later call can retry (e.g. once the model is downloaded). */
  ready(): Promise<void> {
    this.loading ??= this.load().catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    const { modelId, modelsDir, allowRemote, prepare } = this.options;
    // Both write files on a first start (the model, the ONNX Runtime library): side by side.
    // The ONNX Runtime binding must be set up before transformers.js is imported (below).
    await Promise.all([prepare?.(), prepareOnnxRuntime(this.options.nativeCacheDir ?? join(modelsDir, ".."))]);
    const folder = isFolderPath(modelId) ? resolve(modelId) : join(modelsDir, modelId);
    const local = existsSync(join(folder, "config.json"));
    if (!local && isFolderPath(modelId)) throw new Error(`model folder ${folder} has no config.json`);
    if (!local && !allowRemote) {
      throw new Error(`model ${modelId} not found in ${modelsDir} and remote download is disabled`);
    }
    await nextTurn();
    // Imported here, not at the top: the compiled binary must set up the native ONNX Runtime binding first.
    withoutSharp();
    const transformers: Transformers = await import("@huggingface/transformers");
    const { env, LogLevel, pipeline } = transformers;
    await nextTurn();
    env.logLevel = LogLevel.ERROR;
    env.localModelPath = modelsDir;
    env.allowLocalModels = true;
    env.allowRemoteModels = allowRemote;
    try {
      // A local model is passed as its absolute folder, so it never depends on the shared env.localModelPath.
      this.extractor = await pipeline("feature-extraction", local ? folder : modelId, {
        dtype: local ? localDtype(folder) : "fp32",
        device: "cpu",
        cache_dir: modelsDir,
        local_files_only: !allowRemote,
        session_options: sessionOptions(local ? folder : undefined),
      });
    } catch (err) {
      throw new Error(
        `model ${modelId} could not be loaded from ${local ? folder : `the Hugging Face Hub into ${modelsDir}`}: ${(err as Error).message}`,
      );
    }
    this.chooseTokenizer(transformers);
    const probe = await this.run(["dimension probe"]);
    this.dimensions = probe[0]?.length ?? 0;
    if (this.dimensions === 0) throw new Error(`model ${modelId} returned no embedding`);
  }

  async embed(texts: string[]): Promise<(Float32Array | null)[]> {
    await this.ready();
    const out: (Float32Array | null)[] = new Array(texts.length).fill(null);
    // Shortest first, so each batch pads to a similar length.
    const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
    for (let start = 0; start < order.length; ) {
      let end = start + 1;
      while (
        end < order.length &&
        end - start < MAX_BATCH &&
        texts[order[end]!]!.length * (end - start + 1) <= MAX_BATCH_CHARS
      )
        end++;
      const batch = order.slice(start, end);
      const vectors = await this.run(batch.map((i) => texts[i]!));
      batch.forEach((textIndex, k) => (out[textIndex] = normalise(vectors[k]!)));
      start = end;
    }
    return out;
  }

  /**
   * Mean-pooled, not yet normalised rows: normalising ourselves turns an all-zero row into null, not NaN.
   * The feature-extraction pipeline's own steps (tokenizer, model, the output it would pick), with our
   * pooling: transformers.js's mean_pooling converts every attention-mask entry from BigInt inside its
   * innermost loop and cost 57 of the pipeline's 103 µs per query. Same sums in the same order.
   */
  private async run(texts: string[]): Promise<Float32Array[]> {
    const extractor = this.extractor;
    if (!extractor) throw new Error(`model ${this.modelId} is not loaded`);
    const inputs = this.tokenize?.(texts) ?? extractor.tokenizer(texts, { padding: true, truncation: true });
    const outputs = await extractor.model(inputs);
    const hidden = outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings;
    const [rows, tokens, width] = hidden.dims as [number, number, number];
    const data = hidden.data as Float32Array;
    const mask = inputs.attention_mask.data as BigInt64Array;
    const result: Float32Array[] = [];
    const sums = new Float64Array(width);
    for (let r = 0; r < rows; r++) {
      sums.fill(0);
      let count = 0;
      for (let t = 0; t < tokens; t++) {
        if (mask[r * tokens + t] === 0n) continue;
        count++;
        const at = (r * tokens + t) * width;
        for (let k = 0; k < width; k++) sums[k]! += data[at + k]!;
      }
      const row = new Float32Array(width);
      if (count) for (let k = 0; k < width; k++) row[k] = sums[k]! / count;
      result.push(row);
    }
    for (const tensor of Object.values(outputs) as { dispose?: () => void }[]) tensor.dispose?.();
    return result;
  }

  /**
   * transformers.js's tokenizer was a third or more of what a text costs the built-in model, on the main
   * thread for every add and search. Ours gives the same tensors for plain BERT WordPiece tokenizers; the
   * choice is made once here, from the config transformers.js parsed and the fields it set.
   */
  private chooseTokenizer(transformers: Transformers): void {
    const own = wordPieceTokenizer(tokenizerFacts(this.extractor!.tokenizer, transformers));
    this.tokenizerFallback = "reason" in own ? own.reason : undefined;
    this.tokenize = "reason" in own ? undefined : (texts) => tensors(own, texts, transformers.Tensor);
  }

  async close(): Promise<void> {
    const extractor = this.extractor;
    this.extractor = undefined;
    this.tokenize = undefined;
    this.loading = undefined;
    await extractor?.dispose();
  }
}

type Transformers = typeof import("@huggingface/transformers");

/** What our tokenizer needs from a loaded transformers.js tokenizer: its parsed config and the fields it set. */
export function tokenizerFacts(tok: PreTrainedTokenizer, transformers: Transformers): TokenizerFacts {
  const { PreTrainedTokenizer, BertTokenizer, DistilBertTokenizer } = transformers;
  // Classes that only set fields: any other may encode its own way (its constructor or methods).
  const plainClasses: unknown[] = [PreTrainedTokenizer, BertTokenizer, DistilBertTokenizer];
  return {
    json: tok._tokenizerJSON,
    config: tok._tokenizerConfig,
    plainClass: plainClasses.includes(tok.constructor),
    returnTokenTypeIds: tok.return_token_type_ids,
    padTokenId: tok.pad_token_id,
    modelMaxLength: tok.model_max_length,
    paddingSide: tok.padding_side,
  };
}

/** Our encoding as the tensors transformers.js's tokenizer returns (same keys, order, type and shape). */
function tensors(tokenizer: WordPieceTokenizer, texts: string[], T: Transformers["Tensor"]): Record<string, Tensor> {
  const e = tokenizer.encode(texts);
  const dims = [e.rows, e.width];
  return {
    input_ids: new T("int64", e.inputIds, dims),
    attention_mask: new T("int64", e.attentionMask, dims),
    ...(e.tokenTypeIds ? { token_type_ids: new T("int64", e.tokenTypeIds, dims) } : {}),
  };
}
