// Embedders for tests: the real built-in model (through the real transformers.js path), and
// small deterministic stand-ins for model-switch and failure cases.
import { TransformersEmbedder } from "~/search/transformers-embedder";
import { normalise, type Embedder } from "~/search/embedder";
import { testModelsDir } from "./preload";

export const builtinEmbedder = () =>
  new TransformersEmbedder({ modelId: "engram/glove-sif", modelsDir: testModelsDir, allowRemote: false });

/** Hashes letters into a small vector: crude but deterministic, with its own dimension. */
export class LetterEmbedder implements Embedder {
  readonly modelId = "test/letters";
  readonly dimensions = 26;
  calls = 0;
  async ready() {}
  async embed(texts: string[]) {
    this.calls += texts.length;
    return texts.map((t) => {
      const v = new Float32Array(26);
      for (const ch of t.toLowerCase()) {
        const i = ch.charCodeAt(0) - 97;
        if (i >= 0 && i < 26) v[i]! += 1;
      }
      return normalise(v);
    });
  }
}

export class BrokenEmbedder implements Embedder {
  readonly modelId = "test/broken";
  readonly dimensions = 0;
  async ready(): Promise<void> {
    throw new Error("model test/broken not found in /nowhere and remote download is disabled");
  }
  async embed(): Promise<(Float32Array | null)[]> {
    throw new Error("not loaded");
  }
}

/** Holds every embed() until release(): a request that is provably in flight, for as long as a test needs. */
export class HoldingEmbedder extends LetterEmbedder {
  /** Resolves when the first embed() call has begun (the request is inside the server). */
  readonly entered: Promise<void>;
  private enter!: () => void;
  private gate: Promise<void>;
  release!: () => void;
  constructor() {
    super();
    this.entered = new Promise((resolve) => (this.enter = resolve));
    this.gate = new Promise((resolve) => (this.release = resolve));
  }
  override async embed(texts: string[]) {
    this.enter();
    await this.gate;
    return super.embed(texts);
  }
}

/** Its ready() waits for `gate`: a model provably still loading, for as long as a test needs. */
export class GatedEmbedder extends LetterEmbedder {
  constructor(private readonly gate: Promise<void>) {
    super();
  }
  override async ready() {
    await this.gate;
  }
}
