// Smooth-inverse-frequency sentence embeddings (Arora et al. 2017) baked into a word table: each row
// is weighted by a / (a + p(w)) and stripped of the common-discourse direction(s), so a plain mean
// of rows (what transformers.js mean pooling computes) is the SIF sentence vector up to length.

export interface SifOptions {
  /** The SIF smoothing constant `a`: smaller values push frequent words down harder. */
  a: number;
  /** How many principal components of the expected sentence vector to remove (SIF removes 1). */
  components: number;
  /** Typical sentence length in tokens, used for the expected sentence second moment. */
  sentenceLength: number;
}

/** Σ_{k=1..n} 1/k: normalises the Zipf law p(rank) = 1 / (rank · H_n). */
export function harmonic(n: number): number {
  let h = 0;
  for (let k = n; k >= 1; k--) h += 1 / k;
  return h;
}

/** Word probabilities estimated from frequency ranks with Zipf's law over a vocabulary of `sourceSize` words. */
export function zipfProbabilities(ranks: Int32Array, sourceSize: number): Float64Array {
  const h = harmonic(sourceSize);
  return Float64Array.from(ranks, (r) => 1 / (r * h));
}

/** Scales row i of `vectors` (n × d, in place) by a / (a + p_i). */
export function applySifWeights(vectors: Float32Array, d: number, p: Float64Array, a: number): void {
  for (let i = 0; i < p.length; i++) {
    const w = a / (a + p[i]!);
    for (let j = 0; j < d; j++) vectors[i * d + j]! *= w;
  }
}

/**
 * E[s sᵀ] for s the mean of `sentenceLength` words drawn i.i.d. with probabilities p (renormalised
 * over the kept vocabulary): μμᵀ + (E[y yᵀ] − μμᵀ) / n. Its top eigenvectors are what SIF's
 * "first principal component of the sentence embeddings" converges to on a corpus with these word
 * frequencies — computed exactly instead of from sampled sentences, so the build is deterministic.
 */
export function expectedSentenceMoment(
  vectors: Float32Array,
  d: number,
  p: Float64Array,
  sentenceLength: number,
): Float64Array {
  let total = 0;
  for (const pi of p) total += pi;
  const mean = new Float64Array(d);
  const second = new Float64Array(d * d);
  const row = new Float64Array(d);
  for (let i = 0; i < p.length; i++) {
    const w = p[i]! / total;
    for (let j = 0; j < d; j++) row[j] = vectors[i * d + j]!;
    for (let j = 0; j < d; j++) {
      mean[j]! += w * row[j]!;
      const wj = w * row[j]!;
      for (let k = j; k < d; k++) second[j * d + k]! += wj * row[k]!;
    }
  }
  const moment = new Float64Array(d * d);
  for (let j = 0; j < d; j++) {
    for (let k = j; k < d; k++) {
      const mm = mean[j]! * mean[k]!;
      const value = mm + (second[j * d + k]! - mm) / sentenceLength;
      moment[j * d + k] = value;
      moment[k * d + j] = value;
    }
  }
  return moment;
}

/** Top-k eigenvectors of a symmetric positive semi-definite d × d matrix, by power iteration with deflation. */
export function topEigenvectors(matrix: Float64Array, d: number, k: number): Float64Array[] {
  const m = Float64Array.from(matrix);
  const result: Float64Array[] = [];
  for (let c = 0; c < k; c++) {
    let v = new Float64Array(d).fill(1 / Math.sqrt(d));
    let lambda = 0;
    for (let iter = 0; iter < 1000; iter++) {
      const next = new Float64Array(d);
      for (let j = 0; j < d; j++) {
        let s = 0;
        for (let l = 0; l < d; l++) s += m[j * d + l]! * v[l]!;
        next[j] = s;
      }
      const norm = Math.hypot(...next);
      if (norm === 0) break;
      for (let j = 0; j < d; j++) next[j]! /= norm;
      const delta = Math.abs(norm - lambda);
      v = next;
      lambda = norm;
      if (delta < 1e-12 * norm) break;
    }
    result.push(v);
    for (let j = 0; j < d; j++) for (let l = 0; l < d; l++) m[j * d + l]! -= lambda * v[j]! * v[l]!;
  }
  return result;
}

/** Removes from every row (n × d, in place) its projection on each of the given unit vectors. */
export function removeComponents(vectors: Float32Array, d: number, components: readonly Float64Array[]): void {
  const n = vectors.length / d;
  for (let i = 0; i < n; i++) {
    for (const u of components) {
      let dot = 0;
      for (let j = 0; j < d; j++) dot += vectors[i * d + j]! * u[j]!;
      for (let j = 0; j < d; j++) vectors[i * d + j]! -= dot * u[j]!;
    }
  }
}

/** Applies SIF weighting and common-component removal to `vectors` in place. */
export function sifTransform(vectors: Float32Array, d: number, p: Float64Array, options: SifOptions): void {
  applySifWeights(vectors, d, p, options.a);
  if (options.components <= 0) return;
  const moment = expectedSentenceMoment(vectors, d, p, options.sentenceLength);
  removeComponents(vectors, d, topEigenvectors(moment, d, options.components));
}

/** Symmetric per-row int8 quantisation: row i ≈ rows[i] × scales[i]; an all-zero row gets scale 0. */
export function quantiseRows(vectors: Float32Array, d: number): { rows: Int8Array; scales: Float32Array } {
  const n = vectors.length / d;
  const rows = new Int8Array(n * d);
  const scales = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let max = 0;
    for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(vectors[i * d + j]!));
    if (max === 0) continue;
    const scale = Math.fround(max / 127);
    scales[i] = scale;
    for (let j = 0; j < d; j++)
      rows[i * d + j] = Math.max(-127, Math.min(127, Math.round(vectors[i * d + j]! / scale)));
  }
  return { rows, scales };
}
