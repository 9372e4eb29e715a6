// The one interface every embedding source implements (built-in model, other local
// transformers.js models, remote OpenAI-compatible providers).

export interface Embedder {
  /** Stable model id stored with every vector, e.g. "engram/glove-sif". */
  readonly modelId: string;
  /** Vector length; known after `ready()` resolves. */
  readonly dimensions: number;
  /** Loads the model; rejects with a clear message when it cannot. */
  ready(): Promise<void>;
  /**
   * One unit-length Float32Array per text, or null for a text that yields no vector
   * (e.g. no known word): such texts are found by keyword search only — never NaN.
   */
  embed(texts: string[]): Promise<(Float32Array | null)[]>;
  close?(): Promise<void>;
}

/** Unit-normalises in place; returns null for a zero or non-finite vector. */
export function normalise(v: Float32Array): Float32Array | null {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (!(sum > 1e-12) || !Number.isFinite(sum)) return null;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  return v;
}
